"""The compiler in-process (mirage.compiler over libmirage_compiler.so) and
`superoptimize` with its kernel cache (mirage.kernel)."""

import io
import json
import os
import re
import subprocess
import sys
import time

import pytest

import mirage as mi
from mirage import compiler, kernel, progress

SOURCE = """func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
"""


def small_graph(name="rmsnorm_linear"):
    graph = mi.new_kernel_graph(name)
    X = graph.new_input((2, 64), mi.float16)
    W = graph.new_input((64, 32), mi.float16)
    graph.mark_output(graph.matmul(graph.rms_norm(X, (64,)), W))
    return graph


def test_version_and_a_pipeline(compiler_library):
    assert compiler.version().startswith("0.")
    text = compiler.run_pipeline(SOURCE, "mirage-superoptimize{time-limit=10}")
    assert "mirage_kernel.graph_def" in text
    assert "remark: superoptimized" in compiler.last_remarks()


@pytest.mark.parametrize("source, pipeline, message", [
    ("func.func @f(", "", "<graph>:1:13: error: expected non-function type"),
    (SOURCE.replace("size 64", "size 3"), "",
     "'mirage_kernel.rms_norm' op normalised size 3 is not the product"),
    (SOURCE, "no-such-pass", "'no-such-pass' does not refer to a registered"),
    (SOURCE, "mirage-superoptimize{time-limit=-1}", "time-limit"),
])
def test_rejections_raise_with_the_diagnostics(compiler_library, source,
                                               pipeline, message):
    with pytest.raises(compiler.CompilerError) as error:
        compiler.run_pipeline(source, pipeline)
    assert message in error.value.diagnostics


def test_a_missing_library_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv(compiler.LIBRARY_ENV, str(tmp_path / "nothing.so"))
    with pytest.raises(FileNotFoundError, match="nothing.so"):
        compiler.find_library()


def test_write_bundle(compiler_library, tmp_path):
    text = compiler.run_pipeline(SOURCE, "mirage-superoptimize{time-limit=10}")
    out = compiler.write_bundle(text, tmp_path / "b", chips=["sm_90a"])
    plan = json.loads((out / "plan.json").read_text())
    assert plan["ptx"] == {"sm_90a": "sm_90a.ptx"}
    with pytest.raises(compiler.CompilerError, match="sm_99"):
        compiler.write_bundle(text, tmp_path / "c", chips=["sm_99"])


def test_superoptimize_caches_its_kernel(compiler_library, kernel_cache):
    first = small_graph().superoptimize(time_limit=10, search_threads=1)
    assert "remark: superoptimized" in first.remarks
    assert "mirage_kernel.graph_def" in first.mlir
    assert (first.directory / "plan.json").is_file()
    assert first.directory.parent == kernel_cache / "kernels"
    start = time.monotonic()
    second = small_graph().superoptimize(time_limit=10, search_threads=1)
    assert second.directory == first.directory
    assert time.monotonic() - start < 0.5
    # Other options are another entry.
    third = small_graph().superoptimize(time_limit=5, search_threads=1)
    assert third.directory != first.directory


def test_tuning_needs_a_gpu(compiler_library, kernel_cache):
    # Without torch or a CUDA device: tune=True is refused with the reason,
    # and the default takes the cost model's choice.
    try:
        import torch
        if torch.cuda.is_available():
            pytest.skip("a GPU is here: test_python_api_on_gpu.py tunes")
    except ImportError:
        pass
    with pytest.raises(RuntimeError, match="tune=True needs a GPU"):
        small_graph().superoptimize(time_limit=5, search_threads=1,
                                    tune=True)
    chosen = small_graph().superoptimize(time_limit=5, search_threads=1)
    assert not (chosen.directory / "tuning.txt").exists()
    assert "the cost model chose" in chosen.remarks


def test_superoptimize_takes_the_public_map_options_with_a_warning(
        kernel_cache):
    with pytest.warns(UserWarning, match="imaps is checked and changes "
                      "nothing"):
        kernel = small_graph().superoptimize(
            time_limit=5, search_threads=1, imaps=[(0, -1, -1), (-1, 1, -1)],
            omaps=[(0, -1, -1)], fmaps=[-1, 1])
    assert kernel.directory.is_dir()


@pytest.mark.parametrize("options, error, message", [
    ({"imaps": [(0, -1)]}, ValueError, "imaps is a non-empty list of (x, y, z)"),
    ({"omaps": []}, ValueError, "omaps is a non-empty list"),
    ({"fmaps": [-2]}, ValueError, "fmaps is a non-empty list of dimensions"),
    ({"blockdims": [(128, 1, 1), (256, 1, 1)]}, ValueError,
     "blockdims must name one block shape"),
    ({"blockdims": [(128, 2, 1)]}, ValueError, "(threads, 1, 1)"),
    ({"config": "conv"}, ValueError, "config must be one of"),
    ({"no_such_option": 1}, TypeError, "unknown option 'no_such_option'"),
    ({"time_limit": 0}, ValueError, "time_limit must be a positive"),
    ({"search_threads": 0}, ValueError, "search_threads must be 1 to 256"),
    ({"griddims": [(2, 16)]}, ValueError, "griddims entries are (x, y, z)"),
    ({"franges": [0]}, ValueError, "franges are positive integers"),
])
def test_superoptimize_checks_its_options(kernel_cache, options, error,
                                          message):
    with pytest.raises(error) as raised:
        small_graph().superoptimize(**options)
    assert message in str(raised.value)


def test_public_options_become_search_options():
    assert kernel._search_options(30, 2, [(2, 16, 1), (2, 16, 4)], [1, 4],
                                  {}) == (
        "time-limit=30 search-threads=2 grid-sizes=2,4,16 "
        "forloop-ranges=1,4")
    assert kernel._search_options(
        30, 2, None, None, {"blockdims": [(256, 1, 1)],
                            "config": "attention"}) == (
        "time-limit=30 search-threads=2 threads=256")
    # Thread-block clusters (sm_90a) only when asked.
    assert kernel._search_options(30, 2, None, None, {"clusters": True}) == (
        "time-limit=30 search-threads=2 clusters=true")
    assert kernel._search_options(30, 2, None, None, {"clusters": False}) == (
        "time-limit=30 search-threads=2")
    with pytest.raises(ValueError, match="clusters is True or False"):
        kernel._search_options(30, 2, None, None, {"clusters": 1})


def test_a_kernel_checks_its_inputs_before_the_gpu(tmp_path):
    k = kernel.Kernel(tmp_path, "f", 2)
    with pytest.raises(TypeError, match="expected 2 input tensors, got 1"):
        k(object())
    with pytest.raises(TypeError, match="not both"):
        k(object(), inputs=[object()])


def test_progress_goes_to_stderr_and_not_into_the_key(compiler_library,
                                                       kernel_cache):
    script = ("import mirage as mi\n"
              "g = mi.new_kernel_graph('p')\n"
              "x = g.new_input((2, 64)); w = g.new_input((64, 32))\n"
              "g.mark_output(g.matmul(g.rms_norm(x, (64,)), w))\n"
              "print(g.superoptimize(time_limit=5, search_threads=1, "
              "progress={}).directory)\n")
    env = {**os.environ, "MIRAGE_CACHE_DIR": str(kernel_cache),
           "PYTHONPATH": str(mi.CHECKOUT / "python")}
    shown = subprocess.run([sys.executable, "-c", script.format("True")],
                           capture_output=True, text=True, env=env)
    assert shown.returncode == 0, shown.stderr
    assert "mirage-superoptimize: p: forloop 1: " in shown.stderr
    quiet = subprocess.run([sys.executable, "-c", script.format("False")],
                           capture_output=True, text=True, env=env)
    assert quiet.stderr == ""
    assert quiet.stdout == shown.stdout  # the same cache entry
    # The bar: one line rewritten in place, with what the lines said. A
    # new graph name, so that the search runs again.
    env["MIRAGE_CACHE_DIR"] = str(kernel_cache / "bar")
    bar = subprocess.run([sys.executable, "-c", script.format('"bar"')],
                         capture_output=True, env=env)
    stderr = bar.stderr.decode()  # as written: no newline translation
    assert bar.returncode == 0, stderr
    assert "mirage-superoptimize:" not in stderr
    assert re.search(r"^\r\[[#.]{24}\] \d+/5 s, 1 for-loop range, \d+ "
                     r"verified", stderr)
    assert stderr.endswith("\n") and stderr.count("\n") == 1


def test_the_progress_bar_passes_other_lines_through():
    out = io.StringIO()
    with progress.bar(60, stream=out):
        os.write(2, b"mirage-superoptimize: f: forloop 1: 3 launches, 10 "
                    b"states, 2 complete, 1 of 1 verified, best 5.2 us, "
                    b"30.0 s\n")
        os.write(2, b"warning: something else\n")
        os.write(2, b"mirage-superoptimize: f: forloop 2: 3 launches, 20 "
                    b"states, 4 complete, 2 of 2 verified, best 4.1 us, "
                    b"60.0 s (time limit)\n")
    assert out.getvalue() == (
        "\r[############............] 30/60 s, 1 for-loop range, 1 "
        "verified, best 5.2 us\nwarning: something else\n"
        "\r[########################] 60/60 s, 2 for-loop ranges, 2 "
        "verified, best 4.1 us (time limit)\n")


def test_progress_takes_the_documented_values():
    with pytest.raises(ValueError, match='"bar" or "lines"'):
        small_graph().superoptimize(progress="yes")


def test_superoptimize_a_graph_of_two_outputs(compiler_library, kernel_cache):
    # A residual sum and the norm + projection of it, both outputs: each
    # output is searched as a part, and the bundle's function returns both.
    graph = mi.new_kernel_graph("residual_norm_linear")
    X = graph.new_input((2, 64), mi.float16)
    R = graph.new_input((2, 64), mi.float16)
    W = graph.new_input((64, 32), mi.float16)
    H = graph.add(X, R)
    graph.mark_output(H)
    graph.mark_output(graph.matmul(graph.rms_norm(H, (64,)), W))
    chosen = graph.superoptimize(time_limit=10, search_threads=1)
    assert "searched its 2 outputs one at a time" in chosen.remarks
    assert "mirage_kernel.graph_def" in chosen.mlir
    plan = json.loads((chosen.directory / "plan.json").read_text())
    function = plan["functions"][0]
    assert [o["shape"] for o in function["outputs"]] == [[2, 64], [2, 32]]
