"""Tests of bench/gpu/ceilings.py without a GPU: which records count, the
bound of a memory-bound and of a compute-bound case, the geometric means
and the table."""

import json
import math

import pytest

import ceilings


def record(case, speedup, baseline_us, status="ok"):
    return {"case": case, "status": status, "bytes": 4_000_000,
            "mirage_us": baseline_us / speedup, "best_baseline": "eager",
            "best_baseline_us": baseline_us, "speedup": speedup,
            "commit": "abc1234", "date": "2026-12-01"}


def test_later_records_replace_earlier_ones(tmp_path):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(json.dumps([record("a", 1.1, 10.0),
                                 record("b", 1.2, 20.0)]))
    second.write_text(json.dumps([record("a", 1.5, 12.0),
                                  record("b", 0.5, 9.0, status="failed")]))
    latest = ceilings.latest_records([first, second])
    assert sorted(latest) == ["a", "b"]
    assert latest["a"]["speedup"] == 1.5
    assert latest["a"]["source"] == str(second)
    # A failed case keeps its last good row.
    assert latest["b"]["speedup"] == 1.2


def test_bounds():
    memory_bound = record("decode", 1.2, 12.0)
    assert ceilings.bound_of(memory_bound, 4.0, set()) == pytest.approx(3.0)
    # A compute-bound case is bounded by 1.0x, or by what it measured.
    assert ceilings.bound_of(record("prefill", 0.9, 10.0), 1.0,
                             {"prefill"}) == 1.0
    assert ceilings.bound_of(record("prefill", 1.2, 10.0), 1.0,
                             {"prefill"}) == pytest.approx(1.2)


def test_summary_and_table():
    rows = [dict(record("a", 1.0, 8.0), ceiling_us=2.0, source="x"),
            dict(record("b", 4.0, 8.0), ceiling_us=1.0, source="x")]
    summary = ceilings.summarise(rows, {"b"})
    assert summary["speedup_geomean"] == pytest.approx(2.0)
    # a: 8 / 2 = 4x; b: compute-bound, its measured 4x.
    assert summary["bound_geomean"] == pytest.approx(4.0)
    assert [r["compute_bound"] for r in summary["rows"]] == [False, True]
    text = ceilings.table(summary)
    assert "| a | 4.0 | 2.00 | 8.00 | 8.00 | 1.00x | 4.00x | 0.25 |" in text
    assert "| b (compute-bound) |" in text
    assert "speed-up 2.000x, bound 4.000x" in text


def test_geomean():
    assert ceilings.geomean([1.0, 4.0]) == pytest.approx(2.0)
    assert ceilings.geomean([math.e]) == pytest.approx(math.e)
