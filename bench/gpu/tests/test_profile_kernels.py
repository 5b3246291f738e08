"""Tests of bench/gpu/profile_kernels.py without a GPU: how the targets
group by case (several functions of one case are all profiled) and the
table."""

import pytest

import profile_kernels


def test_functions_of_one_case_are_grouped_in_order():
    groups = profile_kernels.group_targets(
        ["llama3_8b_lora_r16_t16_f16:f_candidate_33",
         "gqa_bs1:g",
         "llama3_8b_lora_r16_t16_f16:f_as_written"])
    assert list(groups) == ["llama3_8b_lora_r16_t16_f16", "gqa_bs1"]
    assert groups["llama3_8b_lora_r16_t16_f16"] == ["f_candidate_33",
                                                    "f_as_written"]
    assert groups["gqa_bs1"] == ["g"]


@pytest.mark.parametrize("target", ["no_such_case:f", "gqa_bs1", "gqa_bs1:"])
def test_bad_targets_are_refused(target):
    with pytest.raises(ValueError, match="CASE:FUNCTION"):
        profile_kernels.group_targets([target])


def test_table_has_a_sum_per_variant_without_the_graph_row():
    table = profile_kernels.markdown({"case": {
        "mirage f": {"kernel0": 2.0, "kernel1": 1.0, "graph": 4.0},
        "eager": {"gemm": 5.0}}})
    assert "| case | mirage f | `graph` | 4.00 |" in table
    assert "| case | mirage f | **sum** | **3.00** |" in table
    assert "| case | eager | **sum** | **5.00** |" in table
