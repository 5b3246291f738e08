"""Tests of bench/gpu/triton_vs_ptx.py: per tuning group, the fastest PTX
and Triton forms, the PTX winner's own Triton time and the choice."""

import triton_vs_ptx


def ok(function, us, backend=None):
    m = {"function": function, "status": "ok", "median_us": us}
    if backend:
        m["backend"] = backend
    return m


def test_rows_compare_the_backends_of_each_group():
    database = {"entries": [
        {"winner": {"function": "lora_candidate_1", "backend": "triton"},
         "measurements": [
             ok("lora_as_written", 9.0), ok("lora_candidate_1", 5.0),
             {"function": "lora_candidate_2", "status": "wrong"},
             ok("lora_as_written", 8.0, "triton"),
             ok("lora_candidate_1", 4.0, "triton"),
             {"function": "lora_candidate_2", "status": "failed",
              "backend": "triton"}]},
        {"winner": {"function": "gqa_bs1_candidate_0"},
         "measurements": [ok("gqa_bs1_as_written", 20.0),
                          ok("gqa_bs1_candidate_0", 7.0)]}]}
    gqa, lora = triton_vs_ptx.rows(database)
    assert lora["case"] == "lora" and lora["backend"] == "triton"
    assert lora["ptx_us"] == 5.0 and lora["triton_us"] == 4.0
    assert lora["triton_same_us"] == 4.0
    assert lora["triton"] == {"ok": 2, "wrong": 0, "failed": 1}
    assert gqa["case"] == "gqa_bs1" and gqa["backend"] == "ptx"
    assert gqa["triton_us"] is None and gqa["triton_same_us"] is None
    assert gqa["triton"] == {"ok": 0, "wrong": 0, "failed": 0}
