"""triton_precompile.py on stand-in modules (plain Python functions on the
CPU): every function runs once, a failure is reported, and a function that
outlasts the limit is given up and listed without stopping the others."""

import os
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "triton_precompile.py"
PYTHON_PACKAGE = pathlib.Path(__file__).resolve().parents[3] / "python"

MODULE = """
import time
import torch
def quick(*inputs):
    return 1
def slow(*inputs):
    time.sleep(60)
def broken(*inputs):
    raise ValueError("no")
def each(function):
    return lambda *inputs: function(*inputs)
FUNCTIONS = {
%s
}
"""


def write_bundle(root, name, kinds):
    bundle = root / name
    bundle.mkdir()
    rows = "\n".join(
        f'    "f{i}": (each({kind}), [((2, 2), torch.float16)], []),'
        for i, kind in enumerate(kinds))
    (bundle / "triton.py").write_text(MODULE % rows)
    return bundle


def test_slow_functions_are_given_up(tmp_path):
    kinds = ["quick"] * 12
    kinds[3] = kinds[10] = "slow"
    kinds[5] = "broken"
    first = write_bundle(tmp_path, "pipeline_a", kinds)
    second = write_bundle(tmp_path, "pipeline_b", ["quick", "quick"])
    slow = tmp_path / "slow.txt"
    result = subprocess.run(
        [sys.executable, str(SCRIPT), str(first), str(second), "--device",
         "cpu", "--limit", "3", "--jobs", "4", "--slow", str(slow)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(PYTHON_PACKAGE)})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "compiled pipeline_a" in out and "compiled pipeline_b" in out
    assert "exit" not in out
    assert out.count("f5: ValueError") == 1
    assert "f3: no compile in 3.0 s" in out
    assert "f10: no compile in 3.0 s" in out
    assert sorted(slow.read_text().splitlines()) == [
        "pipeline_a f10", "pipeline_a f3"]


def test_a_form_listed_under_several_names_runs_once(tmp_path):
    bundle = tmp_path / "pipeline_c"
    bundle.mkdir()
    calls = tmp_path / "calls.txt"
    (bundle / "triton.py").write_text(f"""
import torch
def counted(*inputs):
    with open({str(calls)!r}, "a") as f:
        f.write("call\\n")
FUNCTIONS = {{
    "f0": (counted, [((2, 2), torch.float16)], []),
    "f1": (counted, [((2, 2), torch.float16)], []),  # the Triton form of @f0
}}
""")
    result = subprocess.run(
        [sys.executable, str(SCRIPT), str(bundle), "--device", "cpu",
         "--limit", "30", "--slow", str(tmp_path / "slow.txt")],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(PYTHON_PACKAGE)})
    assert result.returncode == 0, result.stderr
    assert "compiled pipeline_c" in result.stdout
    assert calls.read_text().splitlines() == ["call"]
