"""Tests of bench/gpu/triton_vs_ptx.py: the Triton-versus-PTX rows join the
benchmark's tuned winner with the Triton check of the same function."""

import triton_vs_ptx


def case(name, function, graph_us):
    return {"case": name, "candidates": [
        {"function": name + "_as_written", "source": "comparison",
         "times": {"cudagraph": 99.0}},
        {"function": function, "source": "pipeline",
         "times": {"cudagraph": graph_us}}]}


def test_joins_the_winner_with_its_triton_check():
    bench = [case("gqa_bs1", "gqa_bs1_candidate_6", 8.0),
             case("lora", "lora_candidate_1", 4.0),
             {"case": "failed", "candidates": []}]
    check = {"results": [
        {"function": "gqa_bs1_candidate_6", "passed": True,
         "errors": [1e-4, 3e-4], "triton_graph_us": 12.0},
        {"function": "gqa_bs1_candidate_5", "passed": True,
         "errors": [1e-4], "triton_graph_us": 1.0},
        {"module": "broken", "passed": False, "exception": "boom"}]}
    rows = triton_vs_ptx.rows(bench, check)
    assert [r["case"] for r in rows] == ["gqa_bs1", "lora"]
    gqa, lora = rows
    assert gqa["triton_us"] == 12.0 and gqa["ptx_us"] == 8.0
    assert gqa["triton_over_ptx"] == 1.5 and gqa["triton_error"] == 3e-4
    assert gqa["triton_passed"] is True
    assert lora["triton_us"] is None and lora["triton_passed"] is None
    assert lora["triton_over_ptx"] is None
