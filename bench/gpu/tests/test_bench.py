"""Tests of the kernel benchmark (bench/gpu/bench.py, cases.py,
kernel_results.py and update-kernel-results.py) without a GPU: the
cases and their baselines, bundle selection, floors, the summary, the JSON
results, the report and the plot data; the generality and bandwidth suites
and the writer of their programs. The GPU parts are skipped where there is
no GPU."""

import argparse
import importlib.util
import json
import math
import os
import pathlib
import re
import subprocess
import sys

import pytest

import bench
import cases
import kernel_results
import mirage
import write_programs
from bandwidth import BANDWIDTH
from cases import CASES
from generality import GENERALITY
from mirage import interpreter
from mirage.backends import TorchBackend
from mirage.plan import contiguous_strides, read_plan

REPO = pathlib.Path(__file__).resolve().parents[3]
BUNDLER = REPO / "build" / "bin" / "mirage-bundle"
BENCH = REPO / "bench" / "gpu" / "bench.py"
UPDATE = REPO / "bench" / "gpu" / "update-kernel-results.py"


def run_script(script, *arguments):
    """Runs a bench/gpu script in a Python process that imports the same
    `mirage` package as the tests."""
    package_parent = pathlib.Path(mirage.__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(package_parent))
    return subprocess.run([sys.executable, str(script), *arguments],
                          capture_output=True, text=True, env=env)


#===---------------------------------------------------------------------===#
# The cases
#===---------------------------------------------------------------------===#


def benchmark_signature(name):
    """The input and output shapes of examples/benchmarks/<name>.mlir."""
    text = (REPO / "examples" / "benchmarks" / f"{name}.mlir").read_text()
    [line] = [l for l in text.splitlines() if l.startswith("func.func @")]
    arguments, results = line.split(") -> ")

    def shapes(text):
        return [tuple(int(d) for d in dims.split("x"))
                for dims in re.findall(r"tensor<([0-9x]+)xf16>", text)]
    return shapes(arguments), shapes(results)


def test_the_cases_are_those_of_benchmarks_md():
    assert list(CASES) == [
        "gqa_bs1", "gqa_bs8", "mha_bs1", "mqa_bs1", "qknorm_gqa_bs1",
        "rmsnorm_linear_bs1", "rmsnorm_linear_bs8", "lora", "gated_mlp",
        "ntrans_bs1", "ntrans_bs8"]
    assert [c for c in CASES if CASES[c].attention] == [
        "gqa_bs1", "gqa_bs8", "mha_bs1", "mqa_bs1"]


@pytest.mark.parametrize("name", list(CASES))
def test_case_shapes_are_those_of_the_benchmark_program(name):
    inputs, outputs = benchmark_signature(name)
    assert CASES[name].inputs == inputs
    assert [CASES[name].output] == outputs


def test_unique_bytes_and_the_memory_floor():
    # docs/Benchmarks/Method.md: 2.23 MB and 50.37 MB; floors 0.76 and 17.07 µs at a
    # copy bandwidth of 2.95 TB/s.
    assert CASES["gqa_bs1"].bytes == 2 * (2 * 256 * 64 * 2 + 2 * 2 * 64 * 4096)
    assert round(CASES["rmsnorm_linear_bs1"].bytes / 1e6, 2) == 50.37
    assert kernel_results.floor_us(CASES["gqa_bs1"].bytes, 2.95e12) == \
        pytest.approx(0.755, abs=1e-3)
    assert kernel_results.floor_us(CASES["rmsnorm_linear_bs1"].bytes,
                                   2.95e12) == pytest.approx(17.07, abs=0.01)


def program_reference(path, tmp_path):
    """The reference program of the kernel-graph file `path`, through the
    bundle writer."""
    out = tmp_path / path.stem
    subprocess.run([str(BUNDLER), str(path), "-o", str(out)], check=True)
    [function] = read_plan(out).functions.values()
    return interpreter.Program.from_json(function.reference)


def check_baselines(case, path, tmp_path):
    """The case's PyTorch program, and SDPA under every grouping of a case
    that has it, compute the program of `path` on random inputs."""
    torch = pytest.importorskip("torch")
    generator = torch.Generator().manual_seed(0)
    inputs = [torch.randn(shape, generator=generator) * 0.1
              for shape in case.inputs]
    [expected] = interpreter.evaluate(program_reference(path, tmp_path),
                                      inputs, TorchBackend(torch), "f32")
    assert bench.relative_error(case.program(*inputs), expected) < 1e-5
    for group in case.groups:
        try:
            output = cases.sdpa(*cases.sdpa_inputs(*inputs, group))
        except (TypeError, AttributeError):
            continue  # a torch without SDPA (before 2.0) or enable_gqa (2.5)
        assert bench.relative_error(output, expected) < 1e-5


@pytest.mark.skipif(not BUNDLER.is_file(),
                    reason="build/bin/mirage-bundle is not built")
def test_the_baselines_compute_the_benchmark_programs(tmp_path):
    for name, case in CASES.items():
        check_baselines(case, REPO / "examples" / "benchmarks" /
                        f"{name}.mlir", tmp_path)


def test_sdpa_inputs_are_in_sdpa_native_layout():
    torch = pytest.importorskip("torch")
    q, k, v = (torch.zeros(shape) for shape in CASES["gqa_bs1"].inputs)
    q4, k4, v4 = cases.sdpa_inputs(q, k, v, 8)
    assert (q4.shape, k4.shape, v4.shape) == ((1, 16, 32, 64),
                                             (1, 2, 4096, 64),
                                             (1, 2, 4096, 64))
    assert k4.is_contiguous()
    # Query head h * 8 + i takes rows [32 i, 32 i + 32) of KV head h.
    q = torch.arange(2 * 256 * 64.0).reshape(2, 256, 64)
    q4, _, _ = cases.sdpa_inputs(q, k, v, 8)
    assert torch.equal(q4[0, 8 + 3], q[1, 96:128])


def test_sdpa_is_timed_under_every_backend_and_grouping():
    assert CASES["gqa_bs1"].groups == (1, 4, 8, 16, 32)
    assert CASES["mha_bs1"].groups == (1,)
    assert CASES["qknorm_gqa_bs1"].groups == ()
    assert set(cases.SDPA_BACKENDS) == {"flash", "cuDNN", "efficient"}
    assert [kernel_results.family(name) for name in (
        "eager", "torch.compile", "torch.compile max-autotune-no-cudagraphs",
        "SDPA flash g=8")] == ["eager", "torch.compile", "torch.compile",
                              "SDPA"]


#===---------------------------------------------------------------------===#
# The error measure
#===---------------------------------------------------------------------===#


def test_relative_error_is_the_norm_of_the_difference_over_the_norm():
    torch = pytest.importorskip("torch")
    expected = torch.tensor([3.0, 4.0])
    assert bench.relative_error(expected.half(), expected) == 0.0
    assert bench.relative_error(torch.tensor([3.0, 4.5]), expected) == \
        pytest.approx(0.1)
    assert bench.relative_error(torch.tensor([math.nan, 4.0]), expected) \
        == math.inf
    assert bench.relative_error(torch.tensor([math.inf, 4.0]), expected) \
        == math.inf


#===---------------------------------------------------------------------===#
# Bundle selection
#===---------------------------------------------------------------------===#


@pytest.mark.parametrize("bundle_name, case", [
    ("searched_lora", "lora"),
    ("bench_gqa_bs8", "gqa_bs8"),
    ("mugraph_gqa_splitkv_bs1", "gqa_bs1"),
    ("mugraph_rmsnorm_linear_fused", "rmsnorm_linear_bs1"),
    ("mugraph_rmsnorm_cluster", None),
    ("upstream_rmsnorm_bs8", "rmsnorm_linear_bs8"),
    ("upstream_single_lora", "lora"),
    ("upstream_mqa_bs1", "mqa_bs1"),
    ("mugraph_unknown", None),
    ("other_lora", None),
])
def test_bundle_case(bundle_name, case):
    assert bench.bundle_case(bundle_name) == case


def plan(*functions):
    """A plan.json text with f16 functions (name, input shapes, output
    shape)."""
    def tensor(shape):
        return {"shape": list(shape), "dtype": "f16",
                "strides": list(contiguous_strides(shape))}
    launch = {"kernel": "k", "grid": [1, 1, 1], "block": [1, 1, 1],
              "cluster": [1, 1, 1], "non_portable_cluster": False,
              "shared_memory": 0, "args": []}
    return json.dumps({
        "format": "mirage-bundle", "version": 1, "ptx": {"sm_80": "x.ptx"},
        "functions": [{"name": name, "inputs": [tensor(s) for s in inputs],
                       "outputs": [tensor(output)], "buffers": [],
                       "launches": [launch]}
                      for name, inputs, output in functions]})


def make_bundles(root, names, case="lora"):
    signature = (CASES[case].inputs, CASES[case].output)
    for name in names:
        (root / name).mkdir(parents=True)
        (root / name / "plan.json").write_text(plan((name, *signature)))


def test_candidates_in_order_of_preference(tmp_path):
    make_bundles(tmp_path, ["bench_lora", "upstream_single_lora",
                            "upstream_lora", "searched_lora", "bench_gqa_bs1",
                            "searched_gated_mlp"])
    (tmp_path / "searched_ntrans_bs1").mkdir()  # no plan.json: not a bundle
    assert [p.name for p in bench.find_candidates(tmp_path, "lora")] == [
        "searched_lora", "upstream_lora", "upstream_single_lora",
        "bench_lora"]
    assert bench.find_candidates(tmp_path, "ntrans_bs1") == []


def test_only_functions_of_the_case_signature_are_candidates(tmp_path):
    lora = (CASES["lora"].inputs, CASES["lora"].output)
    (tmp_path / "plan.json").write_text(plan(
        ("lora_0", *lora), ("other", [(16, 256)], (16, 4096)),
        ("lora_1", *lora)))
    (tmp_path / "x.ptx").write_text("")
    specs = read_plan(tmp_path).functions
    assert bench.matching_functions(specs, CASES["lora"]) == ["lora_0",
                                                              "lora_1"]
    assert bench.matching_functions(specs, CASES["gqa_bs1"]) == []


#===---------------------------------------------------------------------===#
# Arguments, errors and the commit
#===---------------------------------------------------------------------===#


def run_bench(*arguments):
    return run_script(BENCH, *arguments)


def test_a_missing_bundle_directory_is_a_clear_error(tmp_path):
    result = run_bench(str(tmp_path / "missing"))
    assert result.returncode == 2
    assert "not a directory" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_directory_without_bundles_is_a_clear_error(tmp_path):
    result = run_bench(str(tmp_path))
    assert result.returncode == 2
    assert "no bundles" in result.stderr and "make-gpu-bundles.py" in \
        result.stderr
    assert "Traceback" not in result.stderr


def test_an_unknown_case_is_a_clear_error(tmp_path):
    make_bundles(tmp_path, ["bench_lora"])
    result = run_bench(str(tmp_path), "--cases", "lora,gqa_bs2")
    assert result.returncode == 2
    assert "unknown case 'gqa_bs2'" in result.stderr
    assert "gqa_bs1" in result.stderr  # the known cases are listed
    assert "Traceback" not in result.stderr


def test_the_commit_comes_from_the_option_the_environment_or_git(tmp_path):
    assert bench.find_commit("abc1234", {}, tmp_path) == "abc1234"
    assert bench.find_commit(None, {"MIRAGE_COMMIT": "def5678"},
                             tmp_path) == "def5678"
    assert bench.find_commit(None, {}, tmp_path) == "unknown"  # no .git
    if (REPO / ".git").exists():
        head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short",
                               "HEAD"], capture_output=True, text=True)
        assert bench.find_commit(None, {}, REPO) == head.stdout.strip()


#===---------------------------------------------------------------------===#
# The summary, the JSON results, the report and the plot data
#===---------------------------------------------------------------------===#

META = {"device": "NVIDIA H100 80GB HBM3", "date": "2026-11-22",
        "commit": "abc1234", "torch": "2.11.0", "triton": "3.6.0"}


def entry(do_bench=None, cudagraph=None, err=1e-3, correct=True, **fields):
    times = {mode: t for mode, t in (("do_bench", do_bench),
                                     ("cudagraph", cudagraph))
             if t is not None}
    return {"max_rel_err": err, "correct": correct, "times": times,
            "error": None, **fields}


def record(name="lora", candidates=(), baselines=None, copy_times=None):
    r = kernel_results.new_record(bench.ALL_CASES[name], META, 3e12)
    r["candidates"] = list(candidates)
    r["baselines"] = baselines or {}
    if copy_times is not None:  # what bench.py times for the bandwidth suite
        r["copy_times"] = copy_times
    kernel_results.summarise(r)
    return r


def test_the_fastest_correct_candidate_is_mirage():
    r = record(candidates=[
        entry(10.0, 8.0, bundle="searched_lora", function="lora",
              chip="sm_90a"),
        entry(err=0.5, correct=False, bundle="upstream_lora",
              function="lora_0", chip="sm_90a"),
        entry(9.0, 6.0, err=2e-3, bundle="bench_lora", function="lora",
              chip="sm_90a")],
        baselines={"eager": entry(19.0, 9.0), "torch.compile": entry(49.0)})
    assert r["status"] == "ok"
    assert (r["bundle"], r["function"], r["chip"]) == ("bench_lora", "lora",
                                                       "sm_90a")
    assert (r["mirage_us"], r["mirage_mode"], r["max_rel_err"]) == \
        (6.0, "cudagraph", 2e-3)
    assert (r["best_baseline"], r["best_baseline_us"]) == \
        ("eager (CUDA graph)", 9.0)
    assert r["speedup"] == 1.5
    assert r["floor_us"] == pytest.approx(CASES["lora"].bytes / 3e12 * 1e6)
    assert r["floor_fraction"] == pytest.approx(r["floor_us"] / 6.0)


def test_the_pipeline_result_alone_is_the_headline():
    # A faster saved µGraph is a comparison, never the headline.
    r = record(candidates=[
        entry(12.0, bundle="pipeline_lora", function="lora_candidate_2",
              source="pipeline"),
        entry(20.0, bundle="pipeline_lora", function="lora",
              source="cost_model"),
        entry(7.0, bundle="upstream_lora", function="lora_0",
              source="comparison"),
        entry(5.0, bundle="bench_lora", function="lora",
              source="comparison")],
        baselines={"eager": entry(18.0)})
    assert r["status"] == "ok"
    assert (r["function"], r["mirage_us"]) == ("lora_candidate_2", 12.0)
    assert r["mirage_source"] == "pipeline"
    assert r["reference_mugraph_us"] == 7.0
    assert r["cost_model_us"] == 20.0
    assert r["speedup"] == 1.5


def test_a_wrong_pipeline_result_fails_the_case():
    r = record(candidates=[
        entry(err=0.5, correct=False, bundle="pipeline_lora",
              function="lora_candidate_0", source="pipeline"),
        entry(7.0, bundle="upstream_lora", function="lora_0")])
    assert r["status"] == "failed"
    assert r["mirage_us"] is None
    assert r["reference_mugraph_us"] == 7.0


def test_pipeline_functions_are_the_tuned_winner_and_the_cost_model_choice(
        tmp_path):
    key = "ab" * 32
    functions = [{"name": "lora"},
                 {"name": "lora_as_written",
                  "tuning": {"key": key, "compiler": "c", "candidate": -1}},
                 {"name": "lora_candidate_0",
                  "tuning": {"key": key, "compiler": "c", "candidate": 0}},
                 {"name": "lora_candidate_1",
                  "tuning": {"key": key, "compiler": "c", "candidate": 1}}]
    (tmp_path / "plan.json").write_text(json.dumps({"functions": functions}))
    names = [f["name"] for f in functions]
    database = tmp_path / "tuning.json"
    database.write_text(json.dumps({"format": "mirage-tuning", "version": 1,
        "entries": [{"key": key, "winner": {"function": "lora_candidate_1"}}]}))
    winners = bench.tuned_winners(database)
    assert bench.pipeline_functions(tmp_path, names, winners) == {
        "lora": "cost_model", "lora_candidate_1": "pipeline"}
    assert bench.tuned_winners(tmp_path / "missing.json") == {}
    assert bench.bundle_case("pipeline_lora") == "lora"
    # The winner's backend: PTX unless its Triton form won.
    assert bench.tuned_winners(database, "backend") == {key: "ptx"}
    database.write_text(json.dumps({"format": "mirage-tuning", "version": 3,
        "entries": [{"key": key, "winner": {"function": "lora_candidate_1",
                                            "backend": "triton"}}]}))
    assert bench.tuned_winners(database, "backend") == {key: "triton"}
    # Whether it runs with programmatic dependent launch: yes unless the
    # tuner measured it faster without (version 4).
    assert bench.tuned_winners(database, "overlap") == {key: True}
    database.write_text(json.dumps({"format": "mirage-tuning", "version": 4,
        "entries": [{"key": key, "winner": {"function": "lora_candidate_1",
                                            "overlap": False}}]}))
    assert bench.tuned_winners(database, "overlap") == {key: False}


def test_ties_go_to_the_preferred_candidate():
    r = record(candidates=[entry(5.0, bundle="searched_lora", function="a"),
                           entry(5.0, bundle="bench_lora", function="b")])
    assert r["bundle"] == "searched_lora"


def test_wrong_baselines_do_not_count():
    r = record(candidates=[entry(10.0, bundle="b", function="f")],
               baselines={"eager": entry(5.0, 4.0, err=0.5, correct=False),
                          "SDPA": entry(20.0, 12.0)})
    assert (r["best_baseline"], r["best_baseline_us"]) == \
        ("SDPA (CUDA graph)", 12.0)
    assert r["speedup"] == 1.2


def test_a_family_column_shows_its_best_baseline():
    r = record("gqa_bs1", [entry(10.0, bundle="b", function="f")],
               {"eager": entry(30.0),
                "SDPA flash g=8": entry(14.0, 15.0),
                "SDPA cuDNN g=8": entry(err=0.5, correct=False),
                "SDPA efficient g=1": entry(40.0),
                "torch.compile": entry(25.0, 20.0),
                "torch.compile max-autotune-no-cudagraphs": entry(21.0, 19.0)})
    assert (r["best_baseline"], r["best_baseline_us"]) == ("SDPA flash g=8",
                                                           14.0)
    [row] = kernel_results.table([r])[2:]
    cells = [c.strip() for c in row.split("|")]
    assert cells[4:7] == ["30 / –", "21 / 19", "14 / 15"]


def test_a_case_without_a_correct_mirage_kernel_fails():
    r = record(candidates=[
        entry(err=0.5, correct=False, bundle="b", function="f"),
        entry(err=math.inf, correct=False, bundle="c", function="g")],
        baselines={"eager": entry(5.0)})
    assert r["status"] == "failed"
    assert r["mirage_us"] is None and r["speedup"] is None
    assert r["max_rel_err"] == 0.5
    assert "no correct Mirage kernel" in r["error"]
    assert r["best_baseline_us"] == 5.0
    r = record()
    assert r["status"] == "failed" and "no Mirage kernel" in r["error"]


def test_geometric_mean_and_targets():
    fast = [record(name, [entry(1.0, bundle="b", function="f")],
                   {"eager": entry(2.0)}) for name in CASES]
    for r in fast:  # within 1.3x of the floor where it is a target
        r["floor_us"], r["floor_fraction"] = 0.8, 0.8
    assert kernel_results.geomean_speedup(fast) == pytest.approx(2.0)
    assert [t["met"] for t in kernel_results.targets(fast)] == [True] * 3

    slow = [dict(r) for r in fast]
    slow[0] = record("gqa_bs1", [entry(4.0, bundle="b", function="f")],
                     {"eager": entry(2.0)})
    slow[8] = dict(slow[8], floor_fraction=0.5)  # gated_mlp: 2x the floor
    met = [t["met"] for t in kernel_results.targets(slow)]
    assert met == [False, False, True]
    assert kernel_results.geomean_speedup(slow) == pytest.approx(
        2.0 ** (9 / 11) * 0.5 ** (1 / 11) * 2.0 ** (1 / 11))

    partial = fast[:3]
    assert [t["met"] for t in kernel_results.targets(partial)] == \
        [False] * 3  # cases missing
    assert kernel_results.geomean_speedup([record()]) is None


def test_json_results_have_the_required_fields_and_load_back(tmp_path):
    records = [record(candidates=[entry(10.0, bundle="b", function="f")],
                      baselines={"eager": entry(19.0)}),
               record("gqa_bs1", [entry(err=math.inf, correct=False,
                                        bundle="b", function="f")])]
    kernel_results.save(tmp_path, records, plot=False)
    data = json.loads((tmp_path / "bench.json").read_text())
    assert isinstance(data, list) and len(data) == 2
    for item in data:
        assert set(kernel_results.REQUIRED_FIELDS) <= set(item)
    assert data[0]["mirage_us"] == 10.0
    assert data[0]["baselines"]["eager"]["times"]["do_bench"] == 19.0
    assert data[1]["max_rel_err"] == "inf"  # JSON has no infinity
    assert kernel_results.load(tmp_path / "bench.json") == data
    assert "| lora |" in (tmp_path / "bench.md").read_text()


def test_loading_reports_bad_results_clearly(tmp_path):
    path = tmp_path / "bench.json"
    with pytest.raises(ValueError, match="cannot read"):
        kernel_results.load(path)
    path.write_text("{")
    with pytest.raises(ValueError, match="invalid JSON"):
        kernel_results.load(path)
    path.write_text(json.dumps([{"case": "lora", "mirage_us": 1.0}]))
    with pytest.raises(ValueError, match=r"record 0 \(lora\): missing "
                       r"fields .*best_baseline"):
        kernel_results.load(path)


def keep_options(cases=("lora", "gqa_bs1")):
    return argparse.Namespace(
        suite="benchmarks", cases=list(cases), compile_modes=list(
            bench.COMPILE_MODES))


def test_keep_takes_the_complete_cases_of_an_earlier_call(tmp_path):
    compiled = {bench.compile_name(m): entry(15.0)
                for m in bench.COMPILE_MODES}
    half = {"eager": entry(19.0), "torch.compile": entry(15.0),
            "torch.compile max-autotune-no-cudagraphs":
                bench.skipped("time budget of 440 s spent")}
    mirage_entry = entry(10.0, bundle="b", function="f")
    records = [record(candidates=[mirage_entry], baselines=compiled),
               record("gqa_bs1", [mirage_entry], half),
               record("mha_bs1", [mirage_entry], compiled),
               record("mqa_bs1", [entry(err=math.inf, correct=False,
                                         bundle="b", function="f")],
                      compiled)]
    kernel_results.save(tmp_path, records, plot=False)
    path = tmp_path / "bench.json"
    kept = bench.kept_records(path, keep_options(("lora", "gqa_bs1",
                                                  "mqa_bs1")), META)
    # gqa_bs1 lacks a mode, mqa_bs1 failed, mha_bs1 is not asked for.
    assert list(kept) == ["lora"]
    assert kept["lora"]["mirage_us"] == 10.0
    assert bench.is_complete(records[0], bench.COMPILE_MODES)
    assert not bench.is_complete(records[1], bench.COMPILE_MODES)
    assert bench.is_complete(records[1], ["default"])


def test_keep_refuses_another_run_or_a_bad_file(tmp_path):
    kernel_results.save(tmp_path, [record(candidates=[entry(
        10.0, bundle="b", function="f")])], plot=False)
    path = tmp_path / "bench.json"
    for field, value in (("commit", "def5678"), ("device", "NVIDIA H200")):
        with pytest.raises(ValueError, match=f"case lora is of {field} "
                           f"'{META[field]}', this run of '{value}'"):
            bench.kept_records(path, keep_options(), {**META, field: value})
    other_suite = keep_options()
    other_suite.suite = "generality"
    with pytest.raises(ValueError, match="of suite 'benchmarks'"):
        bench.kept_records(path, other_suite, META)
    path.write_text("[{")
    with pytest.raises(ValueError, match="invalid JSON"):
        bench.kept_records(path, keep_options(), META)


def test_the_report_has_the_table_targets_and_failures():
    records = [record(candidates=[entry(10.0, 8.0, bundle="searched_lora",
                                        function="lora")],
                      baselines={"eager": entry(19.0, 9.3),
                                 "torch.compile": entry(
                                     err=None, correct=False,
                                     error="skipped: time budget")}),
               record("gqa_bs1", [entry(err=0.5, correct=False, bundle="b",
                                        function="f")],
                      {"eager": entry(26.2, 19.4), "SDPA": entry(41.7)})]
    text = kernel_results.report(records, image="bench.png")
    assert "NVIDIA H100 80GB HBM3" in text and "abc1234" in text
    assert "| lora | searched_lora/lora | 10 / 8 | 19 / 9.3 | skipped " \
        "| – | eager (CUDA graph) | 1.16x |" in text
    assert "| gqa_bs1 | FAILED | – | 26.2 / 19.4 | – | 41.7 / – |" in text
    assert "Geometric-mean speed-up over the best baseline: **1.16x** " \
        "(1 case)" in text
    assert "![Speed-ups" in text and "(bench.png)" in text
    assert "- gqa_bs1: no correct Mirage kernel" in text
    assert "not met" in text
    assert "torch.compile: skipped: time budget" in text


def test_plot_data_has_every_case_with_its_speedup():
    records = [record(candidates=[entry(10.0, bundle="b", function="f")],
                      baselines={"eager": entry(20.0)}),
               record("gqa_bs1")]
    assert kernel_results.plot_data(records) == [("lora", 2.0),
                                                 ("gqa_bs1", None)]


#===---------------------------------------------------------------------===#
# bench/gpu/update-kernel-results.py
#===---------------------------------------------------------------------===#


def test_update_copies_the_results_and_writes_the_page(tmp_path):
    results = tmp_path / "out"
    results.mkdir()
    kernel_results.save(results, [record(
        candidates=[entry(10.0, bundle="b", function="f")],
        baselines={"eager": entry(20.0)})], plot=False)
    (results / "bench.png").write_bytes(b"png")
    json_path, page, image = (tmp_path / "latest.json", tmp_path / "K.md",
                              tmp_path / "k.png")
    result = run_script(UPDATE, str(results), "--json", str(json_path),
                        "--docs", str(page), "--plot", str(image))
    assert result.returncode == 0, result.stderr
    assert json.loads(json_path.read_text()) == \
        json.loads((results / "bench.json").read_text())
    assert image.read_bytes() == b"png"
    text = page.read_text()
    assert "| lora |" in text and "(k.png)" in text
    assert "bench/gpu-pipeline.sh" in text  # how to run it


def test_update_reports_a_missing_result_directory(tmp_path):
    result = run_script(UPDATE, str(tmp_path / "missing"))
    assert result.returncode == 2
    assert "bench.json" in result.stderr and "Traceback" not in result.stderr


MERGE = REPO / "bench" / "gpu" / "merge_results.py"


def write_part(directory, records, entries):
    directory.mkdir()
    kernel_results.save(directory, records, plot=False)
    (directory / "tuning.json").write_text(json.dumps(
        {"format": "mirage-tuning", "version": 3, "entries": entries}))


def test_parts_of_a_run_on_several_gpus_merge_in_the_suites_order(tmp_path):
    one = [entry(10.0, bundle="b", function="f")]
    write_part(tmp_path / "gpu0", [record("lora", one)], [{"key": "a"}])
    write_part(tmp_path / "gpu1", [record("gqa_bs1", one)], [{"key": "b"}])
    result = run_script(MERGE, str(tmp_path / "out"), str(tmp_path / "gpu0"),
                        str(tmp_path / "gpu1"))
    assert result.returncode == 0, result.stderr
    merged = kernel_results.load(tmp_path / "out" / "bench.json")
    # gqa_bs1 comes before lora in the suite.
    assert [r["case"] for r in merged] == ["gqa_bs1", "lora"]
    tuning = json.loads((tmp_path / "out" / "tuning.json").read_text())
    assert tuning["format"] == "mirage-tuning"
    assert [e["key"] for e in tuning["entries"]] == ["a", "b"]
    assert "| lora |" in (tmp_path / "out" / "bench.md").read_text()


def test_parts_of_different_runs_or_one_case_twice_do_not_merge(tmp_path):
    one = [entry(10.0, bundle="b", function="f")]
    write_part(tmp_path / "a", [record("lora", one)], [])
    write_part(tmp_path / "b", [record("lora", one)], [])
    result = run_script(MERGE, str(tmp_path / "out"), str(tmp_path / "a"),
                        str(tmp_path / "b"))
    assert result.returncode == 2
    assert "case lora is in two parts" in result.stderr
    other = record("gqa_bs1", one)
    other["commit"] = "0000000"
    write_part(tmp_path / "c", [other], [])
    result = run_script(MERGE, str(tmp_path / "out"), str(tmp_path / "a"),
                        str(tmp_path / "c"))
    assert result.returncode == 2
    assert "the parts differ in commit" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_the_tuning_of_a_tune_only_run_merges_alone(tmp_path):
    for name, key in (("gpu0", "a"), ("gpu1", "b")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "tuning.json").write_text(json.dumps(
            {"format": "mirage-tuning", "version": 3,
             "entries": [{"key": key}]}))
    result = run_script(MERGE, "--tuning-only", str(tmp_path / "out"),
                        str(tmp_path / "gpu0"), str(tmp_path / "gpu1"))
    assert result.returncode == 0, result.stderr
    tuning = json.loads((tmp_path / "out" / "tuning.json").read_text())
    assert [e["key"] for e in tuning["entries"]] == ["a", "b"]
    assert not (tmp_path / "out" / "bench.json").exists()
    # A part that did not tune is named.
    (tmp_path / "gpu2").mkdir()
    result = run_script(MERGE, "--tuning-only", str(tmp_path / "out2"),
                        str(tmp_path / "gpu0"), str(tmp_path / "gpu2"))
    assert result.returncode == 2
    assert "gpu2/tuning.json does not exist" in result.stderr
    assert "Traceback" not in result.stderr


def assert_usage_errors(script, argument_lists, tmp_path):
    """`script` (under bench/) exits 2 with its usage for each argument
    list, and writes nothing to its $OUT."""
    for arguments in argument_lists:
        result = subprocess.run(["bash", str(REPO / "bench" / script),
                                 *arguments], capture_output=True, text=True,
                                env=dict(os.environ, OUT=str(tmp_path / "o")))
        assert result.returncode == 2, arguments
        assert "usage:" in result.stderr
    assert not (tmp_path / "o").exists()


def test_a_run_over_several_gpus_needs_their_count_and_the_cases(tmp_path):
    assert_usage_errors("gpu-pipeline-gpus.sh", (
        ["2", str(tmp_path)], ["0", str(tmp_path), "--cases", "lora"]),
        tmp_path)


def test_the_torch_compile_warm_up_needs_gpus_a_package_and_cases(
        tmp_path):
    package = tmp_path / "package.tar.gz"
    package.write_text("")
    assert_usage_errors("gpu-torch-compile-warm.sh", (
        ["2", str(package)],
        ["0", str(package), "layer:1"],
        ["2", str(tmp_path / "missing.tar.gz"), "layer:1"],
        ["2", str(package), "layer:1,llama"]), tmp_path)


def test_the_torch_compile_pair_needs_a_package_and_a_warm_directory(
        tmp_path):
    package = tmp_path / "package.tar.gz"
    package.write_text("")
    warm = tmp_path / "warm"
    warm.mkdir()
    (warm / "tuning.json").write_text("{}")
    assert_usage_errors("gpu-torch-compile-pair.sh", (
        [str(package)],
        [str(tmp_path / "missing.tar.gz"), str(warm)],
        [str(package), str(warm)]), tmp_path)  # no cache.tgz


def run_tuning(tmp_path, *options, gpus=None):
    """bench/gpu-pipeline.sh (bench/gpu-pipeline-gpus.sh over `gpus`),
    tuning only, over bundles a, b and c with stand-ins for mirage-tune and
    python3 that log their arguments; the logged lines."""
    log = tmp_path / "calls.log"
    build = tmp_path / "build"
    build.mkdir()
    (build / "libmirage_runtime.so").write_text("")
    for name in ("mirage-tune", "python"):
        stub = build / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
        stub.chmod(0o755)
    pipeline = tmp_path / "pipeline"
    for case in ("a", "b", "c"):
        (pipeline / f"pipeline_{case}").mkdir(parents=True)
    script = ["gpu-pipeline.sh"] if gpus is None else [
        "gpu-pipeline-gpus.sh", str(gpus)]
    result = subprocess.run(
        ["bash", str(REPO / "bench" / script[0]), *script[1:],
         str(pipeline), *options], capture_output=True, text=True,
        env=dict(os.environ, OUT=str(tmp_path / "out"),
                 PYTHON=str(build / "python"), MIRAGE_RUNTIME_PREBUILT="1",
                 MIRAGE_RUNTIME_BUILD_DIR=str(build), MIRAGE_GPU_CHECKS="0",
                 MIRAGE_TUNE_ONLY="1"))
    assert result.returncode == 0, result.stderr
    return log.read_text().splitlines()


def test_a_run_over_two_gpus_tunes_each_case_on_one(tmp_path):
    calls = run_tuning(tmp_path, "--cases", "a,b,c", gpus=2)
    assert sorted(tuned_bundles(calls)) == ["pipeline_a", "pipeline_b",
                                            "pipeline_c"]
    assert (tmp_path / "out" / "gpu0" / "tune-a.txt").exists()
    assert (tmp_path / "out" / "gpu0" / "tune-c.txt").exists()
    assert (tmp_path / "out" / "gpu1" / "tune-b.txt").exists()
    assert not (tmp_path / "out" / "gpu1" / "tune-a.txt").exists()


def test_the_pipeline_refuses_cases_without_bundles(tmp_path):
    (tmp_path / "pipeline" / "pipeline_a").mkdir(parents=True)
    result = subprocess.run(
        ["bash", str(REPO / "bench" / "gpu-pipeline.sh"),
         str(tmp_path / "pipeline"), "--cases", "b,c"],
        capture_output=True, text=True,
        env=dict(os.environ, OUT=str(tmp_path / "out")))
    assert result.returncode == 2
    assert "no pipeline_<case> bundle" in result.stderr
    assert "for the cases b,c" in result.stderr
    assert not (tmp_path / "out").exists()


def tuned_bundles(calls):
    return [pathlib.Path(line.split()[1]).name for line in calls
            if line.startswith("mirage-tune ")]


def test_the_pipeline_tunes_every_bundle_without_cases(tmp_path):
    calls = run_tuning(tmp_path)
    assert tuned_bundles(calls) == ["pipeline_a", "pipeline_b", "pipeline_c"]


@pytest.mark.parametrize("cases", [["--cases", "c,a"], ["--cases=c,a"]])
def test_the_pipeline_tunes_only_the_bundles_of_its_cases(tmp_path, cases):
    # A suite split over calls tunes and measures a part of it in each.
    calls = run_tuning(tmp_path, "--suite", "generality", *cases)
    assert tuned_bundles(calls) == ["pipeline_a", "pipeline_c"]
    precompile = [line for line in calls if "triton_precompile.py" in line]
    assert len(precompile) == 1
    assert "pipeline_b" not in precompile[0]
    assert "pipeline_a" in precompile[0] and "pipeline_c" in precompile[0]


#: A stand-in for python3 in bench/gpu-torch-compile-pair.sh: torch_compile.py
#: writes a row naming its models and GPU, pytest a JUnit file (failing
#: when $FAIL_PYTEST is set); anything else runs in the real python3.
PAIR_STUB = """#!%s
import json, os, sys
args = sys.argv[1:]
if any(a.endswith("torch_compile.py") for a in args):
    row = {"model": args[args.index("--models") + 1],
           "gpu": os.environ["CUDA_VISIBLE_DEVICES"]}
    with open(args[args.index("--out") + 1], "w") as f:
        json.dump({"device": "stub", "rows": [row]}, f)
elif "pytest" in args:
    if os.environ.get("FAIL_PYTEST"):
        sys.exit(1)
    for a in args:
        if a.startswith("--junitxml="):
            with open(a.split("=", 1)[1], "w") as f:
                f.write("<testsuite/>")
else:
    os.execv(sys.executable, [sys.executable] + args)
"""


def run_pair(tmp_path, **env):
    stub = tmp_path / "python"
    stub.write_text(PAIR_STUB % sys.executable)
    stub.chmod(0o755)
    (tmp_path / "pkg" / "mirage-python").mkdir(parents=True)
    package = tmp_path / "package.tar.gz"
    subprocess.run(["tar", "czf", str(package), "-C", str(tmp_path / "pkg"),
                    "."], check=True)
    warm = tmp_path / "warm"
    (warm / "cache").mkdir(parents=True)
    (warm / "tuning.json").write_text("{}")
    subprocess.run(["tar", "czf", str(warm / "cache.tgz"), "-C",
                    str(warm / "cache"), "."], check=True)
    out = tmp_path / "out"
    result = subprocess.run(
        ["bash", str(REPO / "bench" / "gpu-torch-compile-pair.sh"),
         str(package), str(warm), "--time-limit", "20"],
        capture_output=True, text=True,
        env=dict(os.environ, OUT=str(out), PYTHON=str(stub), **env))
    return result, out


def test_the_torch_compile_pair_measures_on_two_gpus_into_one_file(
        tmp_path):
    result, out = run_pair(tmp_path)
    assert result.returncode == 0, result.stderr
    rows = json.loads((out / "torch-compile.json").read_text())["rows"]
    assert rows == [{"model": "layer,outside", "gpu": "0"},
                    {"model": "llama", "gpu": "1"}]
    assert (out / "torch-backend.xml").exists()


def test_the_torch_compile_pair_fails_when_its_tests_fail(tmp_path):
    result, out = run_pair(tmp_path, FAIL_PYTEST="1")
    assert result.returncode == 1
    assert len(json.loads((out / "torch-compile.json").read_text())[
        "rows"]) == 2


#===---------------------------------------------------------------------===#
# On a GPU
#===---------------------------------------------------------------------===#


def test_each_timing_mode_keeps_the_lowest_of_its_repeated_medians(
        monkeypatch):
    import contextlib
    import types
    medians = {"do_bench": [0.050, 0.040, 0.045],
               "do_bench_cudagraph": [0.046, 0.041, 0.044]}
    calls = []

    def fake(name):
        def bench_fn(fn, return_mode):
            assert return_mode == "median"
            calls.append(name)
            return medians[name][calls.count(name) - 1]
        return bench_fn

    testing = types.SimpleNamespace(do_bench=fake("do_bench"),
                                    do_bench_cudagraph=fake(
                                        "do_bench_cudagraph"))
    cuda = types.SimpleNamespace(
        Stream=lambda: None, stream=lambda s: contextlib.nullcontext(),
        synchronize=lambda: None)
    monkeypatch.setitem(sys.modules, "torch",
                        types.SimpleNamespace(cuda=cuda))
    monkeypatch.setitem(sys.modules, "triton",
                        types.SimpleNamespace(testing=testing))
    monkeypatch.setitem(sys.modules, "triton.testing", testing)
    times = bench.time_modes(lambda: None, repeats=3)
    assert times == pytest.approx({"do_bench": 40.0, "cudagraph": 41.0})
    assert len(calls) == 6
    calls.clear()
    assert bench.time_modes(lambda: None)["do_bench"] == pytest.approx(
        min(medians["do_bench"][:bench.TIMING_REPEATS]) * 1000)


def test_the_face_off_times_contenders_in_turns_and_keeps_their_lowest():
    first = {"times": {"do_bench": 50.0, "cudagraph": 40.0}}
    second = {"times": {"cudagraph": 45.0}}
    order = []
    medians = {"a": [{"do_bench": 49.0, "cudagraph": 42.0},
                     {"do_bench": 52.0, "cudagraph": 39.0}],
               "b": [{"do_bench": 47.0, "cudagraph": 44.0},
                     {"do_bench": 46.0, "cudagraph": 46.0}]}

    def timer(call):
        order.append(call)
        return medians[call][order.count(call) - 1]

    bench.face_off([(first, "a"), (second, "b")], rounds=2, timer=timer)
    # Forward, then backward: each contender is timed once per round and
    # the last timed of one round is the first of the next.
    assert order == ["a", "b", "b", "a"]
    assert first["times"] == {"do_bench": 49.0, "cudagraph": 39.0}
    assert second["times"] == {"do_bench": 46.0, "cudagraph": 44.0}


def test_the_face_off_holds_the_headline_against_the_nearest_baselines():
    r = record(candidates=[
        entry(30.0, 20.0, bundle="pipeline_lora", function="lora",
              source="pipeline"),
        entry(25.0, 19.0, bundle="pipeline_lora",
              function="lora_candidate_0", source="cost_model")],
        baselines={"eager": entry(40.0, 30.0),
                   "torch.compile": entry(26.0, 21.0),
                   "torch.compile max-autotune-no-cudagraphs":
                       entry(23.0, 22.5),
                   "wrong": entry(1.0, err=0.5, correct=False)})
    calls = {("candidate", "pipeline_lora", "lora"): "mirage",
             ("candidate", "pipeline_lora", "lora_candidate_0"): "cost",
             ("baseline", "eager"): "eager",
             ("baseline", "torch.compile"): "compile",
             ("baseline", "torch.compile max-autotune-no-cudagraphs"): "max",
             ("baseline", "wrong"): "wrong"}
    contenders = bench.face_off_contenders(r, calls)
    # Within 10% of the lower of Mirage's 20 and the best baseline's 21.
    assert [(n, c) for n, _, c in contenders] == [
        ("pipeline_lora/lora", "mirage"), ("torch.compile", "compile")]
    assert contenders[0][1] is r["candidates"][0]
    del calls[("candidate", "pipeline_lora", "lora")]
    assert bench.face_off_contenders(r, calls) == []


def test_the_bandwidth_face_off_includes_the_copy():
    r = record("bw_add_1mb_f16", candidates=[
        entry(2.0, 1.8, bundle="pipeline_bw_add_1mb_f16",
              function="bw_add_1mb_f16", source="pipeline")],
        baselines={"eager": entry(3.0, 2.5)},
        copy_times={"do_bench": 2.0, "cudagraph": 1.5})
    calls = {("candidate", "pipeline_bw_add_1mb_f16", "bw_add_1mb_f16"): "m",
             ("copy",): "copy", ("baseline", "eager"): "eager"}
    contenders = bench.face_off_contenders(r, calls)
    assert [(n, c) for n, _, c in contenders] == [
        ("pipeline_bw_add_1mb_f16/bw_add_1mb_f16", "m"), ("copy", "copy")]
    bench.face_off([(e, c) for _, e, c in contenders], rounds=1,
                   timer=lambda call: {"cudagraph": 1.0})
    assert r["copy_times"] == {"do_bench": 2.0, "cudagraph": 1.0}


def test_timing_and_bandwidth_on_the_gpu():
    # Skipped at run time: importing torch while collecting would break
    # python/test's check that mirage.runtime imports without it.
    torch = pytest.importorskip("torch")
    pytest.importorskip("triton")
    if not torch.cuda.is_available():
        pytest.skip("needs a GPU")
    x = torch.ones(1 << 20, device="cuda")
    times = bench.time_modes(lambda: x * 2)
    assert set(times) == {"do_bench", "cudagraph"}
    assert all(t > 0 for t in times.values())
    assert bench.copy_bandwidth() > 1e11
    copy = bench.copy_times(1 << 20, torch.device("cuda"))
    assert set(copy) == {"do_bench", "cudagraph"}
    assert all(t > 0 for t in copy.values())


#===---------------------------------------------------------------------===#
# The generality suite
#===---------------------------------------------------------------------===#


def test_the_generality_suite_covers_what_issue_26_asks():
    names = list(GENERALITY)
    assert len(names) >= 24
    for model in ("llama3_8b", "qwen25_7b", "mistral_7b"):
        assert any(n.startswith(model) for n in names)
    for kind in ("norm_qkv", "mlp_t", "mlp_down", "lora", "softmax", "attn"):
        assert any(f"_{kind}" in n for n in names), kind
    assert {c.dtype for c in GENERALITY.values()} == {"f16", "bf16"}
    assert {c.suite for c in GENERALITY.values()} == {"generality"}
    attention = [c for c in GENERALITY.values() if c.attention]
    assert {c.inputs[0][2] for c in attention} == {64, 128}
    assert min(c.inputs[1][2] for c in attention) <= 1024
    assert max(c.inputs[1][2] for c in attention) >= 32768
    ranks = {c.inputs[2][1] for n, c in GENERALITY.items() if "_lora" in n}
    assert min(ranks) == 8 and max(ranks) == 128


def program_signature(path):
    """(input shapes, output shape, dtype) of a kernel-graph file."""
    [line] = [l for l in path.read_text().splitlines()
              if l.startswith("func.func @")]
    arguments, result = line.split(") -> ")
    tensors = re.findall(r"tensor<([0-9x]+)x(f16|bf16)>", arguments)
    [(output, dtype)] = re.findall(r"tensor<([0-9x]+)x(f16|bf16)>", result)
    shape = lambda dims: tuple(int(d) for d in dims.split("x"))  # noqa: E731
    assert {d for _, d in tensors} == {dtype}
    return [shape(dims) for dims, _ in tensors], shape(output), dtype


@pytest.mark.parametrize("name", list(GENERALITY))
def test_generality_programs_are_written_and_match_their_cases(name):
    inputs, output, dtype = program_signature(
        REPO / "bench" / "generality" / f"{name}.mlir")
    case = GENERALITY[name]
    assert (case.inputs, case.output, case.dtype) == (inputs, output, dtype)


def test_the_committed_programs_are_what_the_generators_write():
    result = run_script(REPO / "bench" / "write-programs.py", "--check")
    assert result.returncode == 0, result.stdout


@pytest.mark.skipif(not BUNDLER.is_file(),
                    reason="build/bin/mirage-bundle is not built")
def test_generality_baselines_compute_their_programs(tmp_path):
    for name in ("mistral_7b_lora_r8_t1_f16", "llama3_8b_softmax_t1_k8192_f16",
                 "llama32_1b_attn_b1_t1_kv2k_f16", "llama32_1b_norm_qkv_t1_f16"):
        check_baselines(GENERALITY[name], REPO / "bench" / "generality" /
                        f"{name}.mlir", tmp_path)


def test_generality_targets():
    fast = [record(name, [entry(1.0, bundle="b", function="f")],
                   {"eager": entry(1.2)}) for name in GENERALITY]
    assert kernel_results.suite_of(fast) == "generality"
    assert [t["met"] for t in kernel_results.targets(fast)] == [True, True]
    slow = [dict(r) for r in fast]
    slow[0] = record(slow[0]["case"], [entry(1.0, bundle="b", function="f")],
                     {"eager": entry(0.9)})
    met = [t["met"] for t in kernel_results.targets(slow)]
    assert met == [False, True]
    assert [t["met"] for t in kernel_results.targets(fast[:5])] == \
        [False, False]
    assert kernel_results.report(fast).startswith("# Generality suite")


#===---------------------------------------------------------------------===#
# The bandwidth suite
#===---------------------------------------------------------------------===#

BANDWIDTH_KINDS = ("add", "silu_mul", "rms_norm", "row_sum", "softmax")


def test_the_bandwidth_suite_has_every_kind_at_every_size():
    assert list(BANDWIDTH) == [f"bw_{kind}_{size}_f16"
                               for kind in BANDWIDTH_KINDS
                               for size in ("1mb", "16mb", "64mb")]
    assert bench.SUITES["bandwidth"] is BANDWIDTH
    assert kernel_results.SUITES["bandwidth"] is BANDWIDTH
    for name, case in BANDWIDTH.items():
        assert (case.suite, case.dtype, case.attention) == \
            ("bandwidth", "f16", False)
        megabytes = int(name.split("_")[-2][:-2])
        assert case.inputs[0] == (megabytes * 128, 4096)  # f16: 2 bytes
        assert 2 * math.prod(case.inputs[0]) == megabytes << 20
        two = name.startswith(("bw_add", "bw_silu_mul"))
        assert case.inputs == [case.inputs[0]] * (2 if two else 1)
        rows = case.inputs[0][0]
        assert case.output == ((rows, 1) if "_row_sum_" in name
                               else (rows, 4096))
    assert BANDWIDTH["bw_add_1mb_f16"].bytes == 3 << 20
    assert BANDWIDTH["bw_row_sum_64mb_f16"].bytes == (64 << 20) + 2 * 8192


@pytest.mark.parametrize("name", list(BANDWIDTH))
def test_bandwidth_programs_are_written_and_match_their_cases(name):
    path = REPO / "bench" / "bandwidth" / f"{name}.mlir"
    inputs, output, dtype = program_signature(path)
    case = BANDWIDTH[name]
    assert (case.inputs, case.output, case.dtype) == (inputs, output, dtype)
    assert path.read_text().startswith(f"// Bandwidth program {name}: ")


def test_bandwidth_programs_use_the_ops_of_the_generality_suite():
    def ops(name):
        text = (REPO / "bench" / "bandwidth" / f"{name}.mlir").read_text()
        return re.findall(r"= (mirage_kernel\.\w+ %\w+(?:, %\w+)?"
                          r"(?: dim \d| size \d+)?) :", text)
    assert ops("bw_add_1mb_f16") == ["mirage_kernel.add %X, %Y"]
    assert ops("bw_silu_mul_16mb_f16") == ["mirage_kernel.silu %G",
                                           "mirage_kernel.mul %A, %U"]
    assert ops("bw_rms_norm_64mb_f16") == [
        "mirage_kernel.rms_norm %X size 4096"]
    assert ops("bw_row_sum_1mb_f16") == ["mirage_kernel.reduction %X dim 1"]
    assert ops("bw_softmax_1mb_f16") == ops("bw_softmax_64mb_f16") == [
        "mirage_kernel.exp %S", "mirage_kernel.reduction %E dim 1",
        "mirage_kernel.div %E, %R"]


def test_the_program_writer_finds_missing_changed_and_stale_files(tmp_path,
                                                                 capsys):
    from bandwidth import SPECS
    specs = SPECS[:2]
    assert write_programs.main(["--check"], specs, tmp_path, "bandwidth.py") \
        == 1
    assert write_programs.main([], specs, tmp_path, "bandwidth.py") == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{spec.name}.mlir" for spec in specs)
    assert write_programs.main(["--check"], specs, tmp_path,
                               "bandwidth.py") == 0
    (tmp_path / f"{specs[0].name}.mlir").write_text("changed")
    (tmp_path / "stale.mlir").write_text("")
    capsys.readouterr()
    assert write_programs.main(["--check"], specs, tmp_path,
                               "bandwidth.py") == 1
    out = capsys.readouterr().out
    assert f"{specs[0].name}.mlir: missing or not what bandwidth.py " \
        "writes" in out
    assert "stale.mlir: no program of bandwidth.py" in out


@pytest.mark.skipif(not BUNDLER.is_file(),
                    reason="build/bin/mirage-bundle is not built")
def test_bandwidth_baselines_compute_their_programs(tmp_path):
    for kind in BANDWIDTH_KINDS:
        name = f"bw_{kind}_1mb_f16"
        check_baselines(BANDWIDTH[name], REPO / "bench" / "bandwidth" /
                        f"{name}.mlir", tmp_path)


def test_the_copy_fraction_is_the_copy_over_mirage_in_the_same_mode():
    name = "bw_add_1mb_f16"
    r = record(name, [entry(10.0, 8.0, bundle=f"pipeline_{name}",
                            function=name, source="pipeline")],
               {"eager": entry(12.0, 9.0)},
               copy_times={"do_bench": 7.0, "cudagraph": 6.0})
    assert (r["mirage_us"], r["mirage_mode"]) == (8.0, "cudagraph")
    assert r["copy_times"] == {"do_bench": 7.0, "cudagraph": 6.0}
    assert (r["copy_us"], r["copy_fraction"]) == (6.0, 0.75)
    assert r["speedup"] == 9.0 / 8.0
    r = record(name, [entry(5.0, 6.0, bundle="b", function="f")],
               copy_times={"do_bench": 4.5, "cudagraph": 3.0})
    assert (r["copy_us"], r["copy_fraction"]) == (4.5, 0.9)
    # Without Mirage's figure, or the copy's in its mode, there is none.
    r = record(name, [entry(err=0.5, correct=False, bundle="b",
                            function="f")],
               copy_times={"do_bench": 4.5, "cudagraph": 3.0})
    assert (r["copy_us"], r["copy_fraction"]) == (None, None)
    r = record(name, [entry(5.0, bundle="b", function="f")],
               copy_times={"cudagraph": 3.0})
    assert (r["copy_us"], r["copy_fraction"]) == (None, None)
    r = record(name, [entry(5.0, bundle="b", function="f")])
    assert (r["copy_times"], r["copy_us"], r["copy_fraction"]) == \
        ({}, None, None)
    # The other suites' records are as they were.
    assert "copy_fraction" not in record(candidates=[
        entry(5.0, bundle="b", function="f")])


def bandwidth_records(fractions):
    """A record of every program of the suite, in order, Mirage taking
    10 µs and the copy `fraction` of it, eager 12 µs."""
    return [record(name, [entry(10.0, bundle=f"pipeline_{name}",
                                function=name, source="pipeline")],
                   {"eager": entry(12.0)},
                   copy_times={"do_bench": 10.0 * fraction})
            for name, fraction in zip(BANDWIDTH, fractions)]


def test_the_bandwidth_report_has_the_table_and_the_closing_line():
    records = bandwidth_records([0.9] * 15)
    records[1] = record("bw_add_16mb_f16",
                        [entry(20.0, 16.0, bundle="b", function="f")],
                        {"eager": entry(30.0, 24.0)},
                        copy_times={"do_bench": 13.0, "cudagraph": 12.0})
    records[2] = record("bw_add_64mb_f16", [entry(err=0.5, correct=False,
                                                  bundle="b", function="f")],
                        {"eager": entry(60.0)},
                        copy_times={"do_bench": 50.0})
    text = kernel_results.report(records, image="bench.png")
    assert text.startswith("# Bandwidth suite")
    assert "| case | MB moved | Mirage µs | copy µs | of copy | best " \
        "baseline | best baseline µs | speed-up |" in text
    assert "| bw_add_1mb_f16 | 3.15 | 10 | 9 | 0.90 | eager | 12 | 1.20x |" \
        in text
    assert "| bw_add_16mb_f16 | 50.3 | 16 (CUDA graph) | 12 | 0.75 | eager " \
        "(CUDA graph) | 24 | 1.50x |" in text
    assert "| bw_add_64mb_f16 | 201 | FAILED | – | – | eager | 60 | – |" \
        in text
    assert "13 of 15 programs reach 0.80 of the copy bandwidth; the lowest " \
        "fraction is 0.75 (bw_add_16mb_f16); below or failed: " \
        "bw_add_16mb_f16, bw_add_64mb_f16." in text
    assert "- not met: every program correct and at least 0.80 of the copy " \
        "bandwidth" in text
    assert "- bw_add_64mb_f16: no correct Mirage kernel" in text
    assert "--suite bandwidth" in text  # how to run it


def test_bandwidth_targets_and_plot_data():
    fast = bandwidth_records([0.8] * 15)
    assert kernel_results.suite_of(fast) == "bandwidth"
    assert [t["met"] for t in kernel_results.targets(fast)] == [True]
    assert "15 of 15 programs reach 0.80" in kernel_results.report(fast)
    slow = bandwidth_records([0.8] * 14 + [0.79])
    assert [t["met"] for t in kernel_results.targets(slow)] == [False]
    assert [t["met"] for t in kernel_results.targets(fast[:5])] == [False]
    assert "not measured: bw_silu_mul_64mb_f16" in \
        kernel_results.targets(fast[:5])[0]["detail"]
    assert kernel_results.plot_data(slow)[-1] == ("bw_softmax_64mb_f16",
                                                  pytest.approx(0.79))


def load_update_script():
    spec = importlib.util.spec_from_file_location("update_kernel_results",
                                                  UPDATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_update_records_the_bandwidth_suite_in_its_own_files(tmp_path):
    assert load_update_script().DESTINATIONS["bandwidth"] == (
        "bandwidth.json", "Bandwidth.md", "bandwidth.png")
    results = tmp_path / "out"
    kernel_results.save(results, bandwidth_records([0.85] * 15), plot=False)
    page = tmp_path / "B.md"
    result = run_script(UPDATE, str(results), "--json",
                        str(tmp_path / "b.json"), "--docs", str(page),
                        "--plot", str(tmp_path / "b.png"))
    assert result.returncode == 0, result.stderr
    text = page.read_text()
    assert text.startswith("# Bandwidth suite")
    assert "| bw_softmax_64mb_f16 | 134 | 10 | 8.5 | 0.85 |" in text
