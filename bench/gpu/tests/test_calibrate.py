"""Tests of bench/calibrate-cost-model.py: rank correlation, and a whole
run on a small results file with the real mirage-opt."""

import importlib.util
import json
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
SCRIPT = REPO / "bench" / "calibrate-cost-model.py"
OPT = REPO / "build" / "bin" / "mirage-opt"

spec = importlib.util.spec_from_file_location("calibrate", SCRIPT)
calibrate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calibrate)


def test_ranks_share_ties():
    assert calibrate.ranks([10, 30, 20, 20]) == [1.0, 4.0, 2.5, 2.5]


def test_spearman():
    assert calibrate.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert calibrate.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # Undefined: too few points, or no spread.
    assert calibrate.spearman([1, 2], [1, 2]) is None
    assert calibrate.spearman([1, 1, 1], [1, 2, 3]) is None


SOURCE = """
func.func @small(%x: tensor<2x16xf16>, %w: tensor<16x32xf16>) -> tensor<2x32xf16> {
  %o = mirage_kernel.matmul %x, %w : tensor<2x16xf16>, tensor<16x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
func.func @large(%x: tensor<64x64xf16>, %w: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  %o = mirage_kernel.matmul %x, %w : tensor<64x64xf16>, tensor<64x4096xf16> -> tensor<64x4096xf16>
  return %o : tensor<64x4096xf16>
}
func.func @larger(%x: tensor<64x256xf16>, %w: tensor<256x4096xf16>) -> tensor<64x4096xf16> {
  %o = mirage_kernel.matmul %x, %w : tensor<64x256xf16>, tensor<256x4096xf16> -> tensor<64x4096xf16>
  return %o : tensor<64x4096xf16>
}
"""


def candidate(function, time, correct=True):
    return {"bundle": "b", "function": function, "correct": correct,
            "times": {"do_bench": time + 1, "cudagraph": time}}


@pytest.mark.skipif(not OPT.exists(), reason="mirage-opt is not built")
def test_whole_run(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "source.mlir").write_text(SOURCE)
    results = [{"case": "c", "date": "d", "device": "GPU", "commit": "abc",
                "candidates": [candidate("small", 5.0), candidate("large", 20.0),
                               candidate("larger", 50.0),
                               candidate("wrong", 1.0, correct=False)]}]
    (tmp_path / "results.json").write_text(json.dumps(results))
    output = tmp_path / "CostModel.md"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "results.json"),
         str(tmp_path), "--build", str(REPO / "build"), "--output", str(output)],
        capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    text = output.read_text()
    assert "**Pooled over 3 candidates: 1.00**" in text
    assert "| c | 3 | 1.00 |" in text
    assert "| b/small |" in text and "wrong" not in text


def test_bad_results_file(tmp_path):
    (tmp_path / "results.json").write_text("{not json")
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "results.json"), str(tmp_path)],
        capture_output=True, text=True)
    assert run.returncode == 1
    assert "cannot read" in run.stderr
