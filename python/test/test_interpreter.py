"""Tests of the reference interpreter: validation needs nothing, evaluation
runs on a numpy backend (the GPU check runs the same code on torch)."""

import math
import pathlib

import pytest

from mirage import interpreter
from mirage.backends import NumpyBackend
from mirage.interpreter import Program, ProgramError
from mirage.plan import TensorSpec, read_plan

REPO = pathlib.Path(__file__).resolve().parents[2]
BUNDLES = REPO / "runtime" / "test" / "bundles"


def value(shape, dtype="f16"):
    return {"shape": list(shape), "dtype": dtype}


def attention():
    """softmax(q k) v for one head, as the compiler writes it."""
    return {
        "values": [value([2, 16, 8]), value([2, 8, 32]), value([2, 32, 8]),
                   value([2, 16, 32]), value([2, 16, 32]), value([2, 16, 1]),
                   value([2, 16, 32]), value([2, 16, 8], "f32")],
        "inputs": [0, 1, 2],
        "outputs": [7],
        "ops": [
            {"op": "matmul", "operands": [0, 1], "results": [3]},
            {"op": "exp", "operands": [3], "results": [4]},
            {"op": "reduction", "operands": [4], "results": [5], "dim": 2,
             "size": 1},
            {"op": "div", "operands": [4, 5], "results": [6]},
            {"op": "matmul", "operands": [6, 2], "results": [7]},
        ],
    }


def test_accepts_a_valid_program():
    program = Program.from_json(attention())
    assert [op.name for op in program.ops] == ["matmul", "exp", "reduction",
                                               "div", "matmul"]
    assert program.input_types[1] == TensorSpec([2, 8, 32], "f16")
    assert program.output_types == [TensorSpec([2, 16, 8], "f32")]
    assert program.dtypes == {"f16", "f32"}
    assert program.ops[2].attributes == {"dim": 2, "size": 1}


def edited(edit):
    data = attention()
    edit(data)
    return data


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["ops"][1].update(op="tanh"), r"ops\[1\]: unknown op 'tanh'"),
    (lambda d: d["ops"][1].update(operands=[9]),
     r"ops\[1\] \(exp\)\.operands: expected a list of value ids in \[0, 8\)"),
    (lambda d: d["ops"][1].update(operands=[5]),
     r"ops\[1\] \(exp\): operand 5 is used before it is defined"),
    (lambda d: d["ops"][1].update(results=[3]),
     r"ops\[1\] \(exp\): value 3 is defined twice"),
    (lambda d: d["ops"][0].update(operands=[0]),
     r"ops\[0\] \(matmul\): expected 2 operands, got 1"),
    (lambda d: d["ops"][2].pop("size"),
     r"ops\[2\] \(reduction\): attribute 'size': expected an integer"),
    (lambda d: d["ops"][2].update(size=3),
     r"ops\[2\] \(reduction\): size 3 does not divide dimension 2"),
    (lambda d: d["ops"][2].update(dim=3),
     r"ops\[2\] \(reduction\): dim 3 out of range for rank 3"),
    (lambda d: d["ops"][0].update(operands=[1, 0]),
     r"ops\[0\] \(matmul\): cannot multiply \[2, 8, 32\] by \[2, 16, 8\]"),
    (lambda d: d["values"][3].update(shape=[2, 16, 16]),
     r"ops\[0\] \(matmul\): result 3 has shape \[2, 16, 32\], but "
     r"values\[3\] declares \[2, 16, 16\]"),
    (lambda d: d["values"][5].update(shape=[2, 1, 1]),
     r"ops\[2\] \(reduction\): result 5 has shape \[2, 16, 1\]"),
    (lambda d: d["values"][5].update(shape=[2, 16, 2]),
     r"ops\[2\] \(reduction\): result 5 has shape"),
    (lambda d: d["values"][0].update(dtype="f64"),
     r"values\[0\]\.dtype: unknown dtype 'f64'"),
    (lambda d: d["values"][0].update(shape=[2, 0, 8]),
     r"values\[0\]\.shape: expected a list of positive integers"),
    (lambda d: d.update(outputs=[]), r"outputs: expected at least one"),
    (lambda d: d["ops"].pop(), r"outputs: value 7 is never defined"),
    (lambda d: d.update(inputs=[0, 0, 1]), r"inputs: value 0 listed twice"),
    (lambda d: d.pop("ops"), r"ops: expected a list"),
])
def test_rejects_malformed_programs(edit, message):
    with pytest.raises(ProgramError, match=message):
        Program.from_json(edited(edit))


def shapes_of(op, attributes, *shapes):
    return interpreter.result_shapes(interpreter.Op(op, [], [], attributes),
                                   [tuple(s) for s in shapes])


def test_result_shapes():
    assert shapes_of("add", {}, [4, 1, 8], [1, 3, 8]) == [(4, 3, 8)]
    with pytest.raises(ProgramError, match="do not broadcast"):
        shapes_of("mul", {}, [4, 2], [4, 3])
    with pytest.raises(ProgramError, match="do not broadcast"):
        shapes_of("mul", {}, [4, 2], [2])
    assert shapes_of("reduction", {"dim": 1, "size": 64}, [2, 4096]) == \
        [(2, 64)]
    assert shapes_of("matmul", {}, [3, 2, 5], [3, 5, 7]) == [(3, 2, 7)]
    with pytest.raises(ProgramError, match="cannot multiply"):
        shapes_of("matmul", {}, [3, 2, 5], [4, 5, 7])
    assert shapes_of("concat", {"dim": 1}, [2, 3], [2, 5]) == [(2, 8)]
    with pytest.raises(ProgramError, match="cannot concatenate"):
        shapes_of("concat", {"dim": 1}, [2, 3], [3, 5])
    assert shapes_of("chunk", {"dim": 0, "parts": 2}, [6, 4]) == [(3, 4)] * 2
    with pytest.raises(ProgramError, match="4 parts do not divide"):
        shapes_of("chunk", {"dim": 0, "parts": 4}, [6, 4])
    assert shapes_of("rms_norm", {"size": 12, "eps": 0.0}, [2, 3, 4]) == \
        [(2, 3, 4)]
    with pytest.raises(ProgramError, match="not the product of trailing"):
        shapes_of("rms_norm", {"size": 6, "eps": 0.0}, [2, 3, 4])


def test_chunk_has_one_result_per_part():
    data = {"values": [value([4, 6]), value([4, 3]), value([4, 3])],
            "inputs": [0], "outputs": [1, 2],
            "ops": [{"op": "chunk", "operands": [0], "results": [1],
                     "dim": 1, "parts": 2}]}
    with pytest.raises(ProgramError, match="expected 2 results, got 1"):
        Program.from_json(data)
    data["ops"][0]["results"] = [1, 2]
    assert len(Program.from_json(data).ops[0].results) == 2


def test_float_attributes_may_be_written_as_integers():
    data = {"values": [value([4]), value([4])], "inputs": [0], "outputs": [1],
            "ops": [{"op": "mul_scalar", "operands": [0], "results": [1],
                     "value": 2}]}
    assert Program.from_json(data).ops[0].attributes["value"] == 2.0
    data["ops"][0]["value"] = True
    with pytest.raises(ProgramError, match="expected a number"):
        Program.from_json(data)


def test_checks_the_signature():
    program = Program.from_json(attention())
    inputs = [TensorSpec([2, 16, 8], "f16"), TensorSpec([2, 8, 32], "f16"),
              TensorSpec([2, 32, 8], "f16")]
    program.check_signature(inputs, [TensorSpec([2, 16, 8], "f32")])
    with pytest.raises(ProgramError, match=r"output 0 is f32\[2, 16, 8\], but "
                                           r"the function's is f16"):
        program.check_signature(inputs, [TensorSpec([2, 16, 8], "f16")])
    with pytest.raises(ProgramError, match="3 inputs, but the function has 2"):
        program.check_signature(inputs[:2], [TensorSpec([2, 16, 8], "f32")])


def test_the_test_bundles_references_match_their_functions():
    for bundle in ("scale_add", "cluster_exp"):
        for spec in read_plan(BUNDLES / bundle).functions.values():
            Program.from_json(spec.reference).check_signature(spec.inputs,
                                                              spec.outputs)


np = pytest.importorskip("numpy")


def run(ops, values, inputs, outputs, arrays, mode="f64"):
    program = Program.from_json({"values": values, "inputs": inputs,
                                 "outputs": outputs, "ops": ops})
    return interpreter.evaluate(program, arrays, NumpyBackend(), mode)


def test_reduction_is_strided():
    x = np.arange(8, dtype=np.float32).reshape(1, 8)
    [y] = run([{"op": "reduction", "operands": [0], "results": [1], "dim": 1,
                "size": 2}], [value([1, 8], "f32"), value([1, 2], "f32")],
              [0], [1], [x])
    assert y.tolist() == [[0 + 2 + 4 + 6, 1 + 3 + 5 + 7]]


def test_reduction_max_keeps_the_largest():
    x = np.array([[0.0, 3.0, -1.0, 2.0], [7.0, 1.0, 5.0, 6.0]],
                 dtype=np.float32)
    rows, columns = run(
        [{"op": "reduction_max", "operands": [0], "results": [1], "dim": 1},
         {"op": "reduction_max", "operands": [0], "results": [2], "dim": 0}],
        [value([2, 4], "f32"), value([2, 1], "f32"), value([1, 4], "f32")],
        [0], [1, 2], [x])
    assert rows.tolist() == [[3.0], [7.0]]
    assert columns.tolist() == [[7.0, 3.0, 5.0, 6.0]]
    assert shapes_of("reduction_max", {"dim": 2}, [2, 4, 8]) == [(2, 4, 1)]
    with pytest.raises(ProgramError, match="dim"):
        shapes_of("reduction_max", {"dim": 3}, [2, 4, 8])


def test_chunk_and_concat_round_trip():
    x = np.arange(24, dtype=np.float32).reshape(2, 12)
    values = [value([2, 12], "f32"), value([2, 4], "f32"),
              value([2, 4], "f32"), value([2, 4], "f32"),
              value([2, 12], "f32")]
    ops = [{"op": "chunk", "operands": [0], "results": [1, 2, 3], "dim": 1,
            "parts": 3},
           {"op": "concat", "operands": [3, 1, 2], "results": [4], "dim": 1}]
    first, last = run(ops, values, [0], [1, 4], [x])
    assert first.tolist() == x[:, :4].tolist()
    assert last.tolist() == np.concatenate([x[:, 8:], x[:, :8]], 1).tolist()


def test_elementwise_semantics():
    x = np.array([[-1.0, 0.5, 1.0, 4.0]], dtype=np.float32)
    names = ["exp", "square", "sqrt", "rsqrt", "silu", "gelu", "relu", "neg"]
    values = [value([1, 4], "f32")] * (len(names) + 1)
    ops = [{"op": name, "operands": [0], "results": [i + 1]}
           for i, name in enumerate(names)]
    with np.errstate(invalid="ignore"):
        results = dict(zip(names, run(ops, values, [0], list(range(1, 9)),
                                      [x])))
    for i, v in enumerate(x[0].tolist()):
        expected = {
            "exp": math.exp(v), "square": v * v,
            "sqrt": math.sqrt(v) if v >= 0 else math.nan,
            "rsqrt": 1 / math.sqrt(v) if v >= 0 else math.nan,
            "silu": v / (1 + math.exp(-v)),
            "gelu": 0.5 * v * (1 + math.erf(v / math.sqrt(2))),
            "relu": max(v, 0.0), "neg": -v}
        for name in names:
            assert results[name][0, i] == pytest.approx(expected[name],
                                                        nan_ok=True), name


def test_binary_ops_broadcast():
    a = np.array([[1.0], [2.0]], dtype=np.float32)
    b = np.array([[1.0, 2.0, 3.0]], dtype=np.float32)
    names = ["add", "sub", "mul", "div", "pow"]
    values = [value([2, 1], "f32"), value([1, 3], "f32")] + \
        [value([2, 3], "f32")] * len(names)
    ops = [{"op": name, "operands": [0, 1], "results": [i + 2]}
           for i, name in enumerate(names)]
    results = run(ops, values, [0, 1], list(range(2, 7)), [a, b])
    assert results[0].tolist() == (a + b).tolist()
    assert results[1].tolist() == (a - b).tolist()
    assert results[4].tolist() == [[1, 1, 1], [2, 4, 8]]


def test_rms_norm_and_mul_scalar():
    x = np.array([[3.0, 4.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0],
                  [0.0, 0.0, 0.0, 0.0]], dtype=np.float32)
    with np.errstate(invalid="ignore"):
        [y] = run([{"op": "rms_norm", "operands": [0], "results": [1],
                    "size": 4, "eps": 0.0},
                   {"op": "mul_scalar", "operands": [1], "results": [2],
                    "value": 2.0}],
                  [value([3, 4], "f32")] * 3, [0], [2], [x])
    # Row 0: mean(x^2) = 25 / 4, so x / 2.5, times 2.
    assert y[0].tolist() == pytest.approx([2.4, 3.2, 0.0, 0.0])
    assert y[1].tolist() == pytest.approx([2.0] * 4)
    assert np.isnan(y[2]).all()  # 0 / sqrt(0 + eps) with eps = 0


def test_attention_matches_a_direct_computation():
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(s).astype(np.float16)
               for s in ([2, 16, 8], [2, 8, 32], [2, 32, 8]))
    program = Program.from_json(attention())
    [out] = interpreter.evaluate(program, [q, k, v], NumpyBackend(), "f64")
    scores = np.exp(q.astype(np.float64) @ k.astype(np.float64))
    expected = (scores / scores.sum(2, keepdims=True)) @ v.astype(np.float64)
    assert out.dtype == np.float64
    assert np.abs(out - expected).max() < 1e-12
    [out32] = interpreter.evaluate(program, [q, k, v], NumpyBackend(), "f32")
    assert out32.dtype == np.float32
    assert np.abs(out32 - expected).max() < 1e-5


def test_emulation_rounds_every_value_to_its_dtype():
    x = np.array([1.0], dtype=np.float16)
    ops = [{"op": "mul_scalar", "operands": [0], "results": [1],
            "value": 1 / 3},
           {"op": "mul_scalar", "operands": [1], "results": [2], "value": 3.0}]
    values = [value([1]), value([1]), value([1], "f32")]
    [exact] = run(ops, values, [0], [2], [x], "f32")
    [emulated] = run(ops, values, [0], [2], [x], "emulate")
    assert exact[0] == pytest.approx(1.0, abs=1e-7)
    assert emulated[0] == float(np.float16(1 / 3)) * 3.0 != 1.0
    values[1] = value([1], "bf16")
    [bf16] = run(ops, values, [0], [2], [x], "emulate")
    assert abs(bf16[0] - 1.0) > abs(emulated[0] - 1.0)


def test_evaluate_checks_its_arguments():
    program = Program.from_json(attention())
    with pytest.raises(ValueError, match="expected 3 inputs, got 1"):
        interpreter.evaluate(program, [np.zeros(1)], NumpyBackend(), "f32")
    with pytest.raises(ValueError, match="unknown mode"):
        interpreter.evaluate(program, [], NumpyBackend(), "f16")
