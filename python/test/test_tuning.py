"""mirage.tuning without a GPU: the rule that judges a Triton form, the
module loader, the backend a superoptimized function is marked with, and
the checks of superoptimize's `backends`. The measurements themselves run
in test_tuning_on_gpu.py."""

import pathlib

import pytest

from mirage import compiler, kernel, tuning

ROOT = pathlib.Path(__file__).resolve().parents[2]
TRITON_DB = ROOT / "test" / "Transforms" / "Inputs" / \
    "tuning-database-triton.json"
MEASURED = ROOT / "test" / "Transforms" / "superoptimize-measured-triton.mlir"


def test_judge_follows_the_tuners_rule():
    torch = pytest.importorskip("torch")
    reference = torch.tensor([1.0, -2.0, float("inf")])
    assert tuning.judge([torch.tensor([1.0, -2.01, 5.0])], [reference],
                        2e-2)[0] == "ok"
    status, error, message = tuning.judge(
        [torch.tensor([1.0, -2.5, 0.0])], [reference], 2e-2)
    assert status == "wrong" and error == pytest.approx(0.25)
    assert "max relative error 0.25 exceeds the tolerance 0.02" in message
    status, _, message = tuning.judge(
        [torch.tensor([float("nan"), -2.0, 0.0])], [reference], 2e-2)
    assert status == "wrong"
    assert "1 values are not finite where the program as written" in message
    status, _, message = tuning.judge([torch.zeros(2)], [reference], 2e-2)
    assert status == "wrong" and "shape (2,) differs from (3,)" in message


def test_a_module_without_functions_is_refused(tmp_path):
    (tmp_path / "m.py").write_text("x = 1\n")
    with pytest.raises(ValueError, match="no FUNCTIONS table"):
        tuning.load_triton_module(tmp_path / "m.py")
    (tmp_path / "t.py").write_text("FUNCTIONS = {'f': (len, [], [])}\n")
    assert tuning.load_triton_module(tmp_path / "t.py").FUNCTIONS["f"][0] \
        is len


def test_the_backend_follows_the_tuning_database(tmp_path):
    version = compiler.version()
    database = tmp_path / "db.json"
    database.write_text(TRITON_DB.read_text().replace("@COMPILER@", version))
    source = MEASURED.read_text()
    text = compiler.run_pipeline(
        source, f"mirage-superoptimize{{tuning-db={database} "
        f"forloop-ranges=1 triton-winners=true}}")
    assert kernel.function_backend(text, "scaled_exp") == "triton"
    assert kernel.function_backend(text, "rmsnorm_linear") == "triton"
    # Without triton-winners, the fastest PTX forms (what a bundle holds).
    ptx = compiler.run_pipeline(
        source, f"mirage-superoptimize{{tuning-db={database} "
        f"forloop-ranges=1}}")
    assert kernel.function_backend(ptx, "scaled_exp") == "ptx"
    plain = compiler.run_pipeline(
        source, "mirage-superoptimize{use-tuning-db=false forloop-ranges=1 "
        "time-limit=5}")
    assert kernel.function_backend(plain, "scaled_exp") == "ptx"
    assert kernel.function_backend(text, "missing") == "ptx"


@pytest.mark.parametrize("backends", [("triton",), ("ptx", "cuda"), (),
                                      ("ptx", "ptx")])
def test_backends_must_name_ptx_and_optionally_triton(backends):
    with pytest.raises(ValueError, match="backends names"):
        kernel._backends(backends, tuned=True)


def test_triton_needs_tuning():
    with pytest.raises(ValueError, match="needs tuning on a GPU"):
        kernel._backends(("ptx", "triton"), tuned=False)
    assert kernel._backends(None, tuned=False) == ("ptx",)
    assert kernel._backends("ptx", tuned=True) == ("ptx",)


def test_a_cache_entry_with_a_triton_module_runs_as_triton(tmp_path):
    entry = kernel.Kernel(tmp_path, "f", 1)
    assert entry.backend == "ptx"
    (tmp_path / "triton.py").write_text("FUNCTIONS = {}\n")
    assert entry.backend == "triton"


def test_groups_list_the_program_as_written_first():
    from mirage.plan import read_plan
    plan = read_plan(ROOT / "runtime" / "test" / "bundles" / "tuning_mean")
    (members,) = tuning._groups(plan).values()
    assert [spec.name for spec in members] == [
        "mean", "mean_candidate_0", "mean_candidate_1", "mean_candidate_2"]


def test_the_command_line_reports_errors(tmp_path, capsys):
    assert tuning.main([str(tmp_path / "missing")]) == 1
    assert "mirage.tuning: error: " in capsys.readouterr().err


def _triton_module_without_triton(tmp_path, source, monkeypatch):
    """The Triton module of `source` loaded with a stand-in `triton` (the
    host code of kernel ops runs on the CPU; Debian has no Triton)."""
    import sys
    import types
    fake = types.ModuleType("triton")
    fake.language = types.ModuleType("triton.language")
    monkeypatch.setitem(sys.modules, "triton", fake)
    monkeypatch.setitem(sys.modules, "triton.language", fake.language)
    path = tmp_path / "triton.py"
    path.write_text(compiler.translate_to_triton(source))
    return tuning.load_triton_module(path)


def test_a_host_function_fills_the_tensors_of_out(tmp_path, monkeypatch):
    # What TritonFunction passes for out=: the results land there, with no
    # copy of a graph_def's result (the lit test checks that text).
    torch = pytest.importorskip("torch")
    module = _triton_module_without_triton(tmp_path, """
      func.func @f(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>)
          -> (tensor<2x8xf32>, tensor<2x8xf32>) {
        %s = mirage_kernel.add %a, %b
            : tensor<2x8xf32>, tensor<2x8xf32> -> tensor<2x8xf32>
        %e = mirage_kernel.exp %s : tensor<2x8xf32>
        return %e, %a : tensor<2x8xf32>, tensor<2x8xf32>
      }""", monkeypatch)
    function = module.FUNCTIONS["f"][0]
    a, b = torch.rand(2, 8), torch.rand(2, 8)
    fresh = function(a, b)
    out = (torch.empty(2, 8), torch.empty(2, 8))
    filled = function(a, b, out=out)
    assert filled[0] is out[0] and filled[1] is out[1]
    assert torch.equal(out[0], fresh[0]) and torch.equal(out[1], a)
    with pytest.raises(AssertionError):
        function(a, b, out=(torch.empty(2, 8),))
    with pytest.raises(AssertionError):
        function(a, b, out=(torch.empty(8, 2), torch.empty(2, 8)))


def test_skipped_triton_forms_are_read_per_bundle(tmp_path):
    # The list of triton_precompile.py: the lines of the bundle's own name,
    # through a link to it as well; no file, no functions.
    bundle = tmp_path / "pipeline_mha_bs8"
    bundle.mkdir()
    link = tmp_path / "links" / "pipeline_mha_bs8"
    link.parent.mkdir()
    link.symlink_to(bundle)
    listed = tmp_path / "triton-slow.txt"
    listed.write_text("pipeline_mha_bs8 mha_bs8_candidate_22\n"
                      "pipeline_mha_bs1 mha_bs1_candidate_3\n"
                      "pipeline_mha_bs8 mha_bs8_candidate_30\n\n")
    expected = {"mha_bs8_candidate_22", "mha_bs8_candidate_30"}
    assert tuning.read_skipped(listed, bundle) == expected
    assert tuning.read_skipped(listed, link) == expected
    assert tuning.read_skipped(tmp_path / "none.txt", bundle) == set()


def test_a_triton_form_listed_under_several_names_is_measured_once():
    """A candidate and its cp.async variant share one Triton form
    (mirage-translate lists the variant as the form's host function): the
    form is measured once and recorded under both names; a form whose
    compile was given up fails under every name."""
    from types import SimpleNamespace

    def form_a():
        pass

    def form_b():
        pass

    def spec(name, candidate):
        return SimpleNamespace(name=name, tuning={"candidate": candidate})

    functions = {"f_candidate_0": (form_a, [], []),
                 "f_candidate_1": (form_a, [], []),
                 "f_candidate_2": (form_b, [], []),
                 "f_candidate_3": (form_b, [], [])}
    present = [spec(name, k) for k, name in enumerate(functions)]
    calls = []

    def measure(function, spec):
        calls.append(spec.name)
        return {"function": spec.name, "candidate": spec.tuning["candidate"],
                "backend": "triton", "status": "ok", "median_us": 3.5}

    records = tuning._measure_forms(present, functions, (), measure)
    assert calls == ["f_candidate_0", "f_candidate_2"]
    assert [(r["function"], r["candidate"], r["median_us"])
            for r in records] == [("f_candidate_0", 0, 3.5),
                                  ("f_candidate_1", 1, 3.5),
                                  ("f_candidate_2", 2, 3.5),
                                  ("f_candidate_3", 3, 3.5)]
    calls.clear()
    records = tuning._measure_forms(present, functions, {"f_candidate_2"},
                                    measure)
    assert calls == ["f_candidate_0"]
    assert [r["status"] for r in records] == ["ok", "ok", "failed", "failed"]
