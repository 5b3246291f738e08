"""Tests of the GPU check's comparisons (bench/gpu/check.py) without a GPU:
the error measure, the program and reference comparisons, the summary."""

import math

import pytest

import check
from mirage import interpreter
from mirage.backends import NumpyBackend, TorchBackend
from mirage.plan import TensorSpec

np = pytest.importorskip("numpy")

nan, inf = math.nan, math.inf


def error(output, expected):
    return check.relative_error(np.array(output), np.array(expected),
                                NumpyBackend())


def test_relative_error_is_relative_to_the_largest_expected_value():
    assert error([1.0, 2.5], [1.0, 2.0]) == 0.25
    assert error([0.5, 0.0], [0.0, 0.0]) == 0.5  # absolute for all zeros
    assert error([], []) == 0.0


def test_matching_nan_and_infinities_count_as_equal():
    assert error([nan, inf, -inf, 1.1], [nan, inf, -inf, 1.0]) == \
        pytest.approx(0.1)
    assert error([nan, inf], [nan, inf]) == 0.0


@pytest.mark.parametrize("output, expected", [
    ([nan, 1.0], [0.0, 1.0]),   # NaN where a number is expected
    ([0.0, 1.0], [nan, 1.0]),   # a number where NaN is expected
    ([inf, 1.0], [-inf, 1.0]),  # infinities of opposite signs
    ([inf, 1.0], [nan, 1.0]),
    ([inf, 1.0], [1e30, 1.0]),
])
def test_other_non_finite_mismatches_fail(output, expected):
    assert error(output, expected) == inf


def value(shape, dtype="f32"):
    return {"shape": list(shape), "dtype": dtype}


def scaling(factor, dtype="f32"):
    """A program computing x * factor of x [2, 4]."""
    return interpreter.Program.from_json({
        "values": [value([2, 4], dtype), value([2, 4], dtype)],
        "inputs": [0], "outputs": [1],
        "ops": [{"op": "mul_scalar", "operands": [0], "results": [1],
                 "value": factor}]}, "program", block_graphs=True)


def test_the_program_decides_and_the_reference_is_reported():
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    fields = check.compare_outputs([x * 2], [x], scaling(2.0), scaling(3.0),
                                   NumpyBackend())
    assert fields["criterion"] == "program"
    assert fields["bound"] == check.BOUNDS["f32"]
    assert fields["max_rel_err"] == [0.0]
    assert fields["reference_rel_err"] == [pytest.approx(1 / 3)]
    assert fields["matches_reference"] is False
    assert set(fields["outputs"][0]) == {
        "index", "max_rel_err", "max_rel_err_f64", "emulated_rel_err_f64",
        "reference_rel_err", "reference_rel_err_f64"}


def test_without_a_program_the_reference_decides():
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    fields = check.compare_outputs([x * 2], [x], None, scaling(2.0, "f16"),
                                   NumpyBackend())
    assert fields["criterion"] == "reference"
    assert fields["bound"] == check.BOUNDS["f16"]
    assert fields["max_rel_err"] == [0.0]
    assert fields["matches_reference"] is True


def test_a_reference_that_cannot_run_is_reported_not_raised():
    x = np.ones([2, 4], dtype=np.float32)

    ref = scaling(2.0)
    ref.ops[0].name = "tanh"  # Not evaluable.
    fields = check.compare_outputs([x * 2], [x], scaling(2.0), ref,
                                   NumpyBackend())
    assert fields["matches_reference"] is False
    assert "tanh" in fields["reference_error"]
    with pytest.raises(interpreter.ProgramError, match="tanh"):
        check.compare_outputs([x * 2], [x], None, ref, NumpyBackend())


def test_a_non_finite_float64_result_is_noted():
    x = np.array([[1.0, 0.0, 0.0, 0.0]] * 2, dtype=np.float32)
    program = interpreter.Program.from_json({
        "values": [value([2, 4]), value([2, 4])], "inputs": [0],
        "outputs": [1], "ops": [{"op": "rsqrt", "operands": [0],
                                 "results": [1]}]})
    with np.errstate(divide="ignore"):
        fields = check.compare_outputs([1 / np.sqrt(x)], [x], program, None,
                                       NumpyBackend())
    assert fields["max_rel_err"] == [0.0]
    assert fields["notes"] == ["output 0: the float64 program is not finite "
                               "(inputs scaled too large?)"]


def record(passed, matches, errors=(1e-3,)):
    r = check.new_record("b", "f", "GPU")
    r.update(passed=passed, matches_reference=matches,
             reference_rel_err=list(errors))
    return r


def test_summary_counts_the_reference_mismatches_apart():
    records = [record(True, True), record(True, False), record(False, None),
               record(False, False)]
    assert check.summary(records) == \
        "GPU check: 2 passed, 2 failed (2 differ from their reference)"
    assert check.format_reference(records[0]) == "yes (1.00e-03)"
    assert check.format_reference(records[1]) == "no (1.00e-03)"
    assert check.format_reference(records[2]) == "-"


class FakeSpec:
    def __init__(self, program, ref):
        self.inputs = self.outputs = [TensorSpec((2, 4), "f32")]
        self.program, self.reference = program, ref


def test_load_programs_checks_both_signatures():
    data = {"values": [value([2, 4]), value([2, 4])], "inputs": [0],
            "outputs": [1], "ops": [{"op": "neg", "operands": [0],
                                     "results": [1]}]}
    program, ref, error = check.load_programs(FakeSpec(data, data))
    assert program.label == "program" and ref.label == "reference"
    assert error is None
    wrong = dict(data, values=[value([2, 4]), value([2, 4], "f16")])
    # Only reported while the program decides...
    program, ref, error = check.load_programs(FakeSpec(data, wrong))
    assert program is not None and ref is None
    assert error.startswith("reference: outputs: output 0 is f16")
    # ...and raised when the reference decides.
    with pytest.raises(interpreter.ProgramError,
                       match=r"^reference: outputs: output 0 is f16"):
        check.load_programs(FakeSpec(None, wrong))
    with pytest.raises(interpreter.ProgramError,
                       match=r"^program: outputs: output 0 is f16"):
        check.load_programs(FakeSpec(wrong, data))


def test_the_report_has_a_reference_column_and_lists_the_mismatches(
        tmp_path):
    records = [record(True, True), record(True, False, (0.5,))]
    for r in records:
        r.update(criterion="program", max_rel_err=[1e-4], bound=0.02,
                 reference_bound=0.02)
    records[1]["function"] = "g"
    path = tmp_path / "gpu-check.md"
    check.write_markdown(path, records, ["b/h"], "GPU")
    text = path.read_text()
    assert "| checked against | max rel err | bound | matches reference |" \
        in text
    assert "| program | 1.00e-04 | 0.02 | no (5.00e-01) |" in text
    assert "## Differ from their reference\n\n- b/g (-): no (5.00e-01), " \
        "bound 0.02\n" in text
    assert "not checked): b/h." in text


def test_relative_error_on_torch_tensors():
    torch = pytest.importorskip("torch")
    backend = TorchBackend(torch)
    output = torch.tensor([nan, inf, 1.5], dtype=torch.float16)
    expected = torch.tensor([nan, inf, 1.0])
    assert check.relative_error(output, expected, backend) == 0.5
    assert check.relative_error(output, torch.tensor([0.0, inf, 1.0]),
                                backend) == inf
