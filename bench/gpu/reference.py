"""Interprets the `reference` program of a bundle function.

A reference program (docs/Runtime.md) lists typed values and kernel-graph
ops over them. `Program.from_json` validates it completely, types included,
without any array library; `evaluate` then runs it on a backend: an object
with `to(x, dtype)` ("f16", "bf16", "f32", "f64"), `exp`, `sqrt`, `erf`,
`sigmoid`, `relu` and `concat(xs, dim)`. Everything else uses operators
and methods that torch tensors and numpy arrays share (`+ - * / ** @`,
`reshape`, `sum(dim)`, slicing), so the GPU check runs it with torch and
the unit tests with numpy.
"""

import math

DTYPES = ("f16", "bf16", "f32")
UNARY_OPS = ("exp", "square", "sqrt", "rsqrt", "silu", "gelu", "relu", "neg",
             "all_reduce")
BINARY_OPS = ("add", "sub", "mul", "div", "pow")
#: Required attributes of the ops that have any, with their types.
ATTRIBUTES = {
    "mul_scalar": {"value": float},
    "reduction": {"dim": int, "size": int},
    "rms_norm": {"size": int, "eps": float},
    "concat": {"dim": int},
    "chunk": {"dim": int, "parts": int},
}
OPS = UNARY_OPS + BINARY_OPS + ("matmul",) + tuple(ATTRIBUTES)
#: How evaluate computes: everything in float64, everything in float32, or
#: in float32 with each op's result rounded to its value's dtype.
MODES = ("f64", "f32", "emulate")


class ProgramError(ValueError):
    """A malformed reference program."""


class ValueType:
    """The shape and dtype of one value."""

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = dtype

    def __eq__(self, other):
        return (self.shape, self.dtype) == (other.shape, other.dtype)

    def __repr__(self):
        return f"{self.dtype}{list(self.shape)}"


class Op:
    """One op: its name, operand and result value ids, and attributes."""

    def __init__(self, name, operands, results, attributes):
        self.name = name
        self.operands = operands
        self.results = results
        self.attributes = attributes


def _fail(where, message):
    raise ProgramError(f"reference: {where}: {message}" if where else
                       f"reference: {message}")


def _id_list(value, where, count):
    if not isinstance(value, list) or not all(
            type(i) is int and 0 <= i < count for i in value):
        _fail(where, f"expected a list of value ids in [0, {count})")
    return list(value)


def _value_type(value, where):
    if not isinstance(value, dict):
        _fail(where, "expected an object")
    shape, dtype = value.get("shape"), value.get("dtype")
    if not isinstance(shape, list) or not all(
            type(extent) is int and extent > 0 for extent in shape):
        _fail(where + ".shape", "expected a list of positive integers")
    if dtype not in DTYPES:
        _fail(where + ".dtype", f"unknown dtype {dtype!r}")
    return ValueType(shape, dtype)


def _attribute(op, name, kind, where):
    value = op.get(name)
    # JSON writers may print a float attribute without a fraction.
    valid = type(value) is int or (kind is float and type(value) is float)
    if not valid:
        _fail(where, f"attribute {name!r}: expected "
              f"{'a number' if kind is float else 'an integer'}")
    return kind(value)


def _broadcast(lhs, rhs, where):
    if len(lhs) != len(rhs) or any(
            a != b and 1 not in (a, b) for a, b in zip(lhs, rhs)):
        _fail(where, f"shapes {list(lhs)} and {list(rhs)} do not broadcast")
    return tuple(max(a, b) for a, b in zip(lhs, rhs))


def _check_dim(dim, rank, where):
    if not 0 <= dim < rank:
        _fail(where, f"dim {dim} out of range for rank {rank}")


def result_shapes(op, shapes, where=""):
    """The result shapes of `op` applied to operands of `shapes`; raises
    ProgramError when the operands do not fit the op."""
    name, attributes = op.name, op.attributes
    if name in UNARY_OPS or name == "mul_scalar":
        return [shapes[0]]
    if name in BINARY_OPS:
        return [_broadcast(shapes[0], shapes[1], where)]
    if name == "matmul":
        lhs, rhs = shapes
        if len(lhs) < 2 or len(lhs) != len(rhs) or lhs[:-2] != rhs[:-2] or \
                lhs[-1] != rhs[-2]:
            _fail(where, f"cannot multiply {list(lhs)} by {list(rhs)}")
        return [lhs[:-1] + rhs[-1:]]
    if name == "reduction":
        shape, dim, size = shapes[0], attributes["dim"], attributes["size"]
        _check_dim(dim, len(shape), where)
        if size <= 0 or shape[dim] % size:
            _fail(where, f"size {size} does not divide dimension {dim} of "
                  f"{list(shape)}")
        return [shape[:dim] + (size,) + shape[dim + 1:]]
    if name == "rms_norm":
        shape, size = shapes[0], attributes["size"]
        trailing, fits = 1, False
        for extent in reversed(shape):
            trailing *= extent
            fits |= trailing == size
        if not fits:
            _fail(where, f"size {size} is not the product of trailing "
                  f"dimensions of {list(shape)}")
        return [shape]
    if name == "concat":
        dim = attributes["dim"]
        first = shapes[0]
        _check_dim(dim, len(first), where)
        kept = first[:dim] + first[dim + 1:]
        for shape in shapes[1:]:
            if shape[:dim] + shape[dim + 1:] != kept or \
                    len(shape) != len(first):
                _fail(where, f"cannot concatenate {list(first)} and "
                      f"{list(shape)} along dim {dim}")
        return [first[:dim] + (sum(s[dim] for s in shapes),) + first[dim + 1:]]
    if name == "chunk":
        shape, dim, parts = shapes[0], attributes["dim"], attributes["parts"]
        _check_dim(dim, len(shape), where)
        if parts < 1 or shape[dim] % parts:
            _fail(where, f"{parts} parts do not divide dimension {dim} of "
                  f"{list(shape)}")
        piece = shape[:dim] + (shape[dim] // parts,) + shape[dim + 1:]
        return [piece] * parts
    _fail(where, f"unknown op {name!r}")


def _arity(name, attributes):
    """(operand count or None for any positive count, result count)."""
    if name in BINARY_OPS or name == "matmul":
        return 2, 1
    if name == "concat":
        return None, 1
    if name == "chunk":
        return 1, attributes["parts"]
    return 1, 1


class Program:
    """A validated reference program."""

    def __init__(self, values, inputs, outputs, ops):
        self.values = values
        self.inputs = inputs
        self.outputs = outputs
        self.ops = ops

    @property
    def input_types(self):
        return [self.values[i] for i in self.inputs]

    @property
    def output_types(self):
        return [self.values[i] for i in self.outputs]

    @property
    def dtypes(self):
        """The dtypes of all values."""
        return {value.dtype for value in self.values}

    @classmethod
    def from_json(cls, data):
        """Validates the JSON object of a `reference`: value ids in range,
        every value defined once before use, known ops with their operand,
        result and attribute counts, and every declared result shape equal
        to what the op computes from its operands' shapes."""
        if not isinstance(data, dict):
            _fail("", "expected an object")
        raw_values = data.get("values")
        if not isinstance(raw_values, list):
            _fail("values", "expected a list")
        values = [_value_type(v, f"values[{i}]")
                  for i, v in enumerate(raw_values)]
        count = len(values)
        inputs = _id_list(data.get("inputs"), "inputs", count)
        outputs = _id_list(data.get("outputs"), "outputs", count)
        if not outputs:
            _fail("outputs", "expected at least one output")
        raw_ops = data.get("ops")
        if not isinstance(raw_ops, list):
            _fail("ops", "expected a list")

        defined = set()
        for i in inputs:
            if i in defined:
                _fail("inputs", f"value {i} listed twice")
            defined.add(i)
        ops = []
        for index, raw in enumerate(raw_ops):
            where = f"ops[{index}]"
            if not isinstance(raw, dict):
                _fail(where, "expected an object")
            name = raw.get("op")
            if name not in OPS:
                _fail(where, f"unknown op {name!r}")
            where = f"{where} ({name})"
            attributes = {key: _attribute(raw, key, kind, where)
                          for key, kind in ATTRIBUTES.get(name, {}).items()}
            operands = _id_list(raw.get("operands"), where + ".operands",
                                count)
            results = _id_list(raw.get("results"), where + ".results", count)
            operand_count, result_count = _arity(name, attributes)
            if (operand_count is None and not operands) or (
                    operand_count is not None and
                    len(operands) != operand_count):
                _fail(where, f"expected {operand_count or 'some'} operands, "
                      f"got {len(operands)}")
            if len(results) != result_count:
                _fail(where, f"expected {result_count} results, got "
                      f"{len(results)}")
            for operand in operands:
                if operand not in defined:
                    _fail(where, f"operand {operand} is used before it is "
                          "defined")
            for result in results:
                if result in defined:
                    _fail(where, f"value {result} is defined twice")
                defined.add(result)
            op = Op(name, operands, results, attributes)
            shapes = result_shapes(op, [values[i].shape for i in operands],
                                   where)
            for result, shape in zip(results, shapes):
                if values[result].shape != shape:
                    _fail(where, f"result {result} has shape "
                          f"{list(shape)}, but values[{result}] declares "
                          f"{list(values[result].shape)}")
            ops.append(op)
        for output in outputs:
            if output not in defined:
                _fail("outputs", f"value {output} is never defined")
        return cls(values, inputs, outputs, ops)

    def check_signature(self, inputs, outputs):
        """Checks that the program's input and output types are `inputs`
        and `outputs` (lists of objects with `shape` and `dtype`)."""
        for kind, declared, expected in (("input", self.input_types, inputs),
                                         ("output", self.output_types,
                                          outputs)):
            if len(declared) != len(expected):
                _fail(kind + "s", f"{len(declared)} {kind}s, but the function "
                      f"has {len(expected)}")
            for i, (value, spec) in enumerate(zip(declared, expected)):
                if value != ValueType(spec.shape, spec.dtype):
                    _fail(kind + "s", f"{kind} {i} is {value}, but the "
                          f"function's is {spec.dtype}{list(spec.shape)}")


def _apply(op, args, backend):
    """The results of one op on evaluated operands."""
    name, attributes = op.name, op.attributes
    x = args[0]
    if name in ("all_reduce",):  # The identity on one GPU.
        return [x]
    if name == "exp":
        return [backend.exp(x)]
    if name == "square":
        return [x * x]
    if name == "sqrt":
        return [backend.sqrt(x)]
    if name == "rsqrt":
        return [1.0 / backend.sqrt(x)]
    if name == "silu":
        return [x * backend.sigmoid(x)]
    if name == "gelu":
        return [0.5 * x * (1.0 + backend.erf(x * (1.0 / math.sqrt(2.0))))]
    if name == "relu":
        return [backend.relu(x)]
    if name == "neg":
        return [-x]
    if name == "mul_scalar":
        return [x * attributes["value"]]
    if name == "add":
        return [x + args[1]]
    if name == "sub":
        return [x - args[1]]
    if name == "mul":
        return [x * args[1]]
    if name == "div":
        return [x / args[1]]
    if name == "pow":
        return [x ** args[1]]
    if name == "matmul":
        return [x @ args[1]]
    if name == "reduction":
        shape, dim = tuple(x.shape), attributes["dim"]
        size = attributes["size"]
        split = shape[:dim] + (shape[dim] // size, size) + shape[dim + 1:]
        return [x.reshape(split).sum(dim)]
    if name == "rms_norm":
        size = attributes["size"]
        rows = x.reshape((-1, size))
        mean_square = (rows * rows).sum(1).reshape((-1, 1)) * (1.0 / size)
        return [(rows / backend.sqrt(mean_square + attributes["eps"]))
                .reshape(tuple(x.shape))]
    if name == "concat":
        return [backend.concat(list(args), attributes["dim"])]
    if name == "chunk":
        dim, parts = attributes["dim"], attributes["parts"]
        piece = x.shape[dim] // parts
        lead = (slice(None),) * dim
        return [x[lead + (slice(i * piece, (i + 1) * piece),)]
                for i in range(parts)]
    raise ProgramError(f"reference: unknown op {name!r}")


def evaluate(program, inputs, backend, mode):
    """Runs `program` on `inputs` (backend arrays, one per program input)
    and returns its outputs, computed as `mode` says (see MODES): in
    "f64" and "f32" everything is computed in that type with no rounding in
    between; in "emulate" each op's results are rounded to their values'
    dtypes, like a low-precision execution of the program."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (expected one of {MODES})")
    if len(inputs) != len(program.inputs):
        raise ValueError(f"expected {len(program.inputs)} inputs, got "
                         f"{len(inputs)}")
    compute = "f64" if mode == "f64" else "f32"

    def settle(value_id, array):
        if mode == "emulate":
            array = backend.to(array, program.values[value_id].dtype)
        return backend.to(array, compute)

    env = {}
    for value_id, array in zip(program.inputs, inputs):
        env[value_id] = settle(value_id, array)
    for op in program.ops:
        results = _apply(op, [env[i] for i in op.operands], backend)
        for value_id, array in zip(op.results, results):
            if tuple(array.shape) != program.values[value_id].shape:
                raise ProgramError(
                    f"reference: op {op.name} computed shape "
                    f"{list(array.shape)} for value {value_id}, declared "
                    f"{list(program.values[value_id].shape)}")
            env[value_id] = settle(value_id, array)
    return [env[i] for i in program.outputs]
