"""Measured selection across backends on a GPU: the Triton forms of a
tuning group's functions measured beside their PTX (mirage.tuning), the
winner recorded with its backend, and a Triton winner run as Triton by the
Kernel that superoptimize returns. Needs torch, CUDA, Triton, the compiler
library and the runtime library; elsewhere it skips.
bench/gpu-python-api.sh runs it on the GPU machine.
"""

import os
import pathlib

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)
pytest.importorskip("triton")

import mirage as mi  # noqa: E402
from mirage import runtime, tuning  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
MEAN = ROOT / "runtime" / "test" / "bundles" / "tuning_mean"


@pytest.fixture
def caches(tmp_path, monkeypatch):
    monkeypatch.setenv("MIRAGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MIRAGE_TUNING_DB", str(tmp_path / "tuning.json"))
    return tmp_path


def scaled_exp_graph(name):
    graph = mi.new_kernel_graph(name)
    x = graph.new_input(dims=(64, 1024), dtype=mi.float16)
    y = graph.new_input(dims=(64, 1024), dtype=mi.float16)
    graph.mark_output(graph.add(graph.exp(graph.mul(x, x)), y))
    return graph


def inputs():
    generator = torch.Generator(device="cuda").manual_seed(0)
    return [torch.randn(64, 1024, device="cuda", dtype=torch.float16,
                        generator=generator) * 0.5 for _ in range(2)]


def expected(x, y):
    return torch.exp(x.float() * x.float()) + y.float()


def close(actual, reference):
    error = (actual.float() - reference).abs().max() / reference.abs().max()
    return error.item() < 2e-2


def test_superoptimize_measures_the_triton_forms_beside_the_ptx(caches):
    kernel = scaled_exp_graph("scaled_exp").superoptimize(
        time_limit=10, backends=("ptx", "triton"))
    report = (kernel.directory / "tuning.txt").read_text()
    assert "[triton]" in report, report
    assert kernel.backend in ("ptx", "triton")
    x, y = inputs()
    assert close(kernel(x, y), expected(x, y))


def test_a_triton_winner_runs_as_triton(caches, monkeypatch):
    # The Triton forms measured 1000 times faster than they ran: the
    # tuner must record a Triton winner, and the Kernel must run it.
    measure = tuning.measure_triton

    def faster(*args, **kwargs):
        measured = measure(*args, **kwargs)
        for record in measured:
            if record["status"] == "ok":
                for field in ("median_us", "cold_us", "warm_us"):
                    record[field] /= 1000
        return measured

    monkeypatch.setattr(tuning, "measure_triton", faster)
    kernel = scaled_exp_graph("scaled_exp_triton").superoptimize(
        time_limit=10, backends=("ptx", "triton"))
    report = (kernel.directory / "tuning.txt").read_text()
    assert "as Triton" in report, report
    assert "as Triton" in kernel.remarks
    assert kernel.backend == "triton"
    assert (kernel.directory / "triton.py").is_file()
    x, y = inputs()
    reference = expected(x, y)
    assert close(kernel(x, y), reference)
    out = torch.empty(64, 1024, device="cuda", dtype=torch.float16)
    kernel(x, y, out=out)
    assert close(out, reference)
    # The Triton function is checked like the runtime's, and captured.
    with pytest.raises(TypeError, match="expected dtype torch.float16"):
        kernel(x.float(), y)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        kernel(x, y, out=out)
    out.zero_()
    graph.replay()
    torch.cuda.synchronize()
    assert close(out, reference)


def test_ptx_only_measures_no_triton_form(caches):
    kernel = scaled_exp_graph("scaled_exp_ptx").superoptimize(
        time_limit=10, backends=("ptx",))
    report = (kernel.directory / "tuning.txt").read_text()
    assert "[triton]" not in report
    assert kernel.backend == "ptx"


def test_measurements_of_unknown_functions_are_refused(tmp_path):
    bundle = runtime.load_bundle(MEAN)
    try:
        with pytest.raises(runtime.MirageError,
                           match="is not a function of a tuning group"):
            bundle.tune(database=tmp_path / "db.json", measurements=[
                {"function": "nope", "candidate": -1, "backend": "triton",
                 "status": "failed", "message": "x"}])
        with pytest.raises(runtime.MirageError,
                           match=r"measurements\[0\].status: unknown status"):
            bundle.tune(database=tmp_path / "db.json", measurements=[
                {"function": "mean", "candidate": -1, "backend": "triton",
                 "status": "fast"}])
    finally:
        bundle.close()
    assert not (tmp_path / "db.json").exists()


def test_the_command_line_tunes_with_a_triton_module(tmp_path, capsys):
    # The program as written and its candidates, translated and tuned.
    graph = scaled_exp_graph("scaled_exp_cli")
    from mirage import compiler
    text = compiler.run_pipeline(
        graph.to_mlir(),
        "mirage-superoptimize{time-limit=10 emit-candidates=true}")
    compiler.write_bundle(text, tmp_path / "bundle", ())
    compiler.write_triton_program(text, tmp_path / "bundle" / "triton.py",
                                  skip_unsupported=True)
    status = tuning.main([str(tmp_path / "bundle"), "--db",
                          str(tmp_path / "db.json")])
    output = capsys.readouterr().out
    assert status == 0, output
    assert "[triton]" in output and "winner:" in output
    assert os.path.getsize(tmp_path / "db.json") > 0
