"""Tests of bench/reachability.py: a whole run, with the real mirage-opt,
on a bundle directory holding one µGraph file and one the verifier rejects."""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
SCRIPT = REPO / "bench" / "reachability.py"
OPT = REPO / "build" / "bin" / "mirage-opt"

spec = importlib.util.spec_from_file_location("reachability", SCRIPT)
reachability = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reachability)


def test_rules_and_functions():
    assert reachability.rule("reachable") == "reachable"
    assert reachability.rule("unreachable (for-loop range): 3") == \
        "for-loop range"
    text = "\n".join(["func.func @a(", "  x", "func.func @b(", "  y"])
    assert reachability.function_at(text, 2) == "a"
    assert reachability.function_at(text, 4) == "b"


@pytest.mark.skipif(not OPT.is_file(), reason="mirage-opt is not built")
def test_a_run_names_each_verdict(tmp_path):
    lora = tmp_path / "upstream_lora"
    lora.mkdir()
    # The program as written under another name: kernel ops, not a µGraph
    # the search builds.
    text = (REPO / "examples" / "benchmarks" / "lora.mlir").read_text()
    (lora / "source.mlir").write_text(text.replace("@lora(", "@lora_0("))
    rejected = tmp_path / "upstream_qknorm_gqa_bs1"
    rejected.mkdir()
    (rejected / "source.mlir").write_text("")
    out = tmp_path / "reach.json"
    result = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path), "--out", str(out)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO / "python")})
    assert result.returncode == 0, result.stderr
    assert "qknorm_gqa_bs1: left out" in result.stdout
    table = json.loads(out.read_text())
    assert list(table["files"]) == ["lora"]
    assert table["files"]["lora"]["lora_0"].startswith(
        "unreachable (kernel ops)")
    assert table["rules"] == {"kernel ops": 1}
