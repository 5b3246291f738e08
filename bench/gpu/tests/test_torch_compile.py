"""Tests of bench/gpu/torch_compile.py's rows without a GPU."""

import pytest

pytest.importorskip("torch")
import torch_compile  # noqa: E402


def test_a_row_without_mirage_has_no_speedup():
    # A run of max-autotune alone (--variants max_autotune) once raised
    # KeyError: 'mirage_us' after timing it.
    row = {"max_autotune_us": 300.0, "max_autotune_gpu_us": 290.0}
    torch_compile.add_speedups(row)
    assert "speedup_vs_max_autotune" not in row


def test_a_row_with_both_has_both_speedups():
    row = {"max_autotune_us": 300.0, "max_autotune_gpu_us": 290.0,
           "mirage_us": 250.0, "mirage_gpu_us": 145.0}
    torch_compile.add_speedups(row)
    assert row["speedup_vs_max_autotune"] == pytest.approx(1.2)
    assert row["gpu_speedup_vs_max_autotune"] == pytest.approx(2.0)


def test_the_layer_attends_over_keys_the_tilings_divide():
    # Over 1025 keys the search finds no attention kernel that helps
    # (docs/TorchCompile.md, "Attention"): 1023 cached keys and the new one.
    model, inputs = torch_compile.layer_case(1)
    cached = inputs[1].shape[2]
    assert cached + 1 == 1024


def test_each_case_process_gets_the_profile_and_trace_options():
    args = torch_compile.parse_arguments(
        ["--variants", "mirage", "--time-limit", "5", "--trace", "/t"])
    command = torch_compile.case_command(args, "layer:8")
    assert command[2:] == ["--case", "layer:8", "--variants", "mirage",
                           "--time-limit", "5.0", "--trace", "/t"]
    args = torch_compile.parse_arguments(["--profile"])
    assert torch_compile.case_command(args, "llama:1")[-1] == "--profile"
