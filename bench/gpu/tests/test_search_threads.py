"""Tests of bench/search/threads.py and its remark parser: a whole run, in
process, with the compiler library built in the tree."""

import json
import pathlib

import pytest

import remarks
import threads

REPO = pathlib.Path(__file__).resolve().parents[3]
LIBRARY = REPO / "python" / "mirage" / "lib" / "libmirage_compiler.so"


def test_parse_reads_the_times():
    text = ("x.mlir:1:1: remark: superoptimized: 3 configurations, 5 "
            "states, 7 values pruned, 2 complete candidates, 2 of 3 verified "
            "in 4.50 s (time limit reached); first verified after 0.25 s, "
            "best after 1.50 s; estimated 2.0 -> 1.0 us")
    assert remarks.parse(text) == {
        "outcome": "superoptimized", "verified": "2 of 3", "first": "0.25",
        "best": "1.50", "total": "4.50", "limit": True}
    assert remarks.parse("no remark") is None
    unchanged = remarks.parse(
        "remark: left unchanged, no verified candidate: 1 configurations, 1 "
        "states, 0 values pruned, 0 complete candidates, 0 of 0 verified in "
        "0.10 s")
    assert unchanged["first"] == "–" and not unchanged["limit"]


@pytest.mark.skipif(not LIBRARY.is_file(),
                    reason="the compiler library is not built")
def test_a_run_writes_a_row_per_thread_count(tmp_path, capsys):
    out = tmp_path / "threads.json"
    program = REPO / "examples" / "benchmarks" / "rmsnorm_linear_bs1.mlir"
    assert threads.main([str(program), "--threads", "1,2", "--time-limit",
                         "20", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["case"], r["threads"]) for r in rows] == [
        ("rmsnorm_linear_bs1", 1), ("rmsnorm_linear_bs1", 2)]
    for r in rows:
        assert r["outcome"] == "superoptimized"
        assert float(r["total"]) <= r["wall"] <= 20 + 5
    assert "| rmsnorm_linear_bs1 | 2 | superoptimized |" in \
        capsys.readouterr().out
