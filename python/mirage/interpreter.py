"""Interprets the programs of a bundle function: `reference` and `program`.

A program (docs/Runtime.md) lists typed values and ops over them. A
`reference` holds kernel-graph ops only. A `program` may also hold
`graph_def`s, whose bodies are block graphs (run block by block and
for-loop iteration by iteration, docs/LanguageReference.md), which may in
turn hold `thread_graph`s with bodies over scalars. The semantics mirror the C++
interpreter, lib/Semantics/Interpreter.cpp.

`Program.from_json` validates a program completely (value ids, types, the
shape rules of every op, tile maps, accumulators, loop phases, nested
bodies) without any array library; `evaluate` then runs it on a backend: an
object with

    to(x, dtype)          conversion to "f16", "bf16", "f32" or "f64"
    exp, sqrt, erf, relu  elementwise functions
    concat(xs, dim)       concatenation
    where(cond, a, b)     elementwise selection
    zeros(shape, dtype)   a new zero array ("f32" or "f64")
    index(ints)           a 1-D integer array, for indexing

Everything else uses operators and methods that torch tensors and numpy
arrays share (`+ - * / ** @ >`, `reshape`, `sum(dim)`, integer and
advanced indexing, index assignment); mirage.backends has a torch backend
(the GPU check) and a numpy one (the tests).

A graph_def runs all its blocks at once: every tile carries a leading axis
of blocks, and the body runs op by op for all blocks together, which is the
lockstep the cluster collectives need. Blocks are ordered cluster by
cluster, in rank order inside a cluster; grids too large for
`memory_budget` run in chunks of whole clusters.
"""

import math

from mirage.plan import TensorSpec, read_tensor_spec

UNARY_OPS = ("exp", "square", "sqrt", "rsqrt", "silu", "gelu", "relu", "neg")
BINARY_OPS = ("add", "sub", "mul", "div", "pow")
#: Required attributes of the kernel and block compute ops that have any,
#: with their types.
ATTRIBUTES = {
    "mul_scalar": {"value": float},
    "reduction": {"dim": int, "size": int},
    "reduction_max": {"dim": int},
    "rms_norm": {"size": int, "eps": float},
    "concat": {"dim": int},
    "chunk": {"dim": int, "parts": int},
    "cluster_gather": {"dim": int},
    "cluster_reduce_scatter": {"dim": int},
}
#: The ops of a `reference`: the predefined kernel ops.
OPS = UNARY_OPS + BINARY_OPS + ("matmul", "mul_scalar", "reduction",
                                "reduction_max", "rms_norm", "concat",
                                "chunk")
#: Elementwise ops on tensors, tiles and scalars.
ELEMENTWISE_OPS = UNARY_OPS + BINARY_OPS + ("mul_scalar",)
#: The ops of a block graph (a graph_def body).
BLOCK_OPS = ELEMENTWISE_OPS + (
    "matmul", "reduction", "reduction_max", "rms_norm", "concat",
    "input_loader",
    "output_saver", "forloop_accum", "thread_graph", "cluster_reduce",
    "cluster_gather", "cluster_reduce_scatter")
#: The ops of each level of a program.
LEVEL_OPS = {"kernel": OPS + ("graph_def",), "block": BLOCK_OPS,
             "thread": ELEMENTWISE_OPS}
ACCUM_KINDS = ("sum", "sum_last", "sum_last_to", "rms_last", "max")
#: Loop phases of block-graph ops (docs/LanguageReference.md, "Loop phases").
INVARIANT, IN_LOOP, POST_LOOP = "invariant", "in-loop", "post-loop"
#: How evaluate computes: everything in float64, everything in float32, or
#: in float32 with each op's result rounded to its value's dtype.
MODES = ("f64", "f32", "emulate")
#: Bytes of block tiles a graph_def evaluates at once, about; larger grids
#: run in chunks of whole clusters.
MEMORY_BUDGET = 1 << 30


class ProgramError(ValueError):
    """A malformed program."""


class Op:
    """One op: its name, operand and result value ids, attributes, nested
    body (a graph_def's or thread_graph's Program, else None) and, in a
    block graph, its loop phase."""

    def __init__(self, name, operands, results, attributes, body=None):
        self.name = name
        self.operands = operands
        self.results = results
        self.attributes = attributes
        self.body = body
        self.phase = None


def _fail(where, message):
    raise ProgramError(f"{where}: {message}" if where else message)


def _id_list(value, where, count):
    if not isinstance(value, list) or not all(
            type(i) is int and 0 <= i < count for i in value):
        _fail(where, f"expected a list of value ids in [0, {count})")
    return list(value)


def _attribute(op, name, kind, where):
    value = op.get(name)
    # JSON writers may print a float attribute without a fraction.
    valid = type(value) is int or (kind is float and type(value) is float)
    if not valid:
        _fail(where, f"attribute {name!r}: expected "
              f"{'a number' if kind is float else 'an integer'}")
    return kind(value)


def _triple(op, name, where, minimum, default=None):
    """A list of 3 integers >= minimum (grid, cluster, maps)."""
    value = op.get(name, default)
    if not isinstance(value, list) or len(value) != 3 or not all(
            type(v) is int and v >= minimum for v in value):
        _fail(where, f"attribute {name!r}: expected 3 integers >= {minimum}")
    return list(value)


def _broadcast(lhs, rhs, where):
    if len(lhs) != len(rhs) or any(
            a != b and 1 not in (a, b) for a, b in zip(lhs, rhs)):
        _fail(where, f"shapes {list(lhs)} and {list(rhs)} do not broadcast")
    return tuple(max(a, b) for a, b in zip(lhs, rhs))


def _check_dim(dim, rank, where):
    if not 0 <= dim < rank:
        _fail(where, f"dim {dim} out of range for rank {rank}")


def result_shapes(op, shapes, where=""):
    """The result shapes of the kernel or block compute op `op` applied to
    operands of `shapes`; raises ProgramError when the operands do not fit
    the op."""
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
    if name == "reduction_max":
        shape, dim = shapes[0], attributes["dim"]
        _check_dim(dim, len(shape), where)
        return [shape[:dim] + (1,) + shape[dim + 1:]]
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
    """(operand count, result count); None for "any positive count"."""
    if name in BINARY_OPS or name == "matmul":
        return 2, 1
    if name == "concat":
        return None, 1
    if name == "chunk":
        return 1, attributes["parts"]
    if name in ("graph_def", "thread_graph"):
        return None, None
    return 1, 1


def _op_attributes(raw, name, where):
    """The attributes of op `name` from its JSON object (bodies excluded)."""
    attributes = {key: _attribute(raw, key, kind, where)
                  for key, kind in ATTRIBUTES.get(name, {}).items()}
    if name == "graph_def":
        attributes["grid"] = _triple(raw, "grid", where, 1)
        attributes["cluster"] = _triple(raw, "cluster", where, 1, [1, 1, 1])
        attributes["forloop"] = _attribute(raw, "forloop", int, where)
        if attributes["forloop"] < 1:
            _fail(where, "attribute 'forloop': expected a positive integer")
        for axis, (g, c) in enumerate(zip(attributes["grid"],
                                          attributes["cluster"])):
            if g % c:
                _fail(where, f"cluster {'xyz'[axis]} ({c}) does not divide "
                      f"grid {'xyz'[axis]} ({g})")
    elif name in ("input_loader", "output_saver"):
        key = "imap" if name == "input_loader" else "omap"
        attributes[key] = _triple(raw, key, where, -1)
        if name == "input_loader":
            attributes["fmap"] = _attribute(raw, "fmap", int, where) \
                if "fmap" in raw else -1
    elif name == "forloop_accum":
        kind = raw.get("kind")
        if kind not in ACCUM_KINDS:
            _fail(where, f"unknown accumulator kind {kind!r} (expected one of "
                  f"{', '.join(ACCUM_KINDS)})")
        attributes["kind"] = kind
        if "size" in raw:
            attributes["size"] = _attribute(raw, "size", int, where)
        if kind == "sum_last_to" and attributes.get("size", 0) < 1:
            _fail(where, "'sum_last_to' requires a positive size")
        if "eps" in raw:
            if kind != "rms_last":
                _fail(where, "only rms_last has an eps")
            attributes["eps"] = _attribute(raw, "eps", float, where)
            if not attributes["eps"] >= 0:
                _fail(where, "a negative eps")
    return attributes


def _check_map(where, name, dims, rank):
    """A tile map sends each mapped grid axis to its own dimension."""
    for axis, dim in enumerate(dims):
        if dim >= rank:
            _fail(where, f"{name} maps grid axis {'xyz'[axis]} to dimension "
                  f"{dim}, out of range for rank {rank}")
        if dim >= 0 and dim in dims[:axis]:
            _fail(where, f"{name} maps two grid axes to dimension {dim}")


def _loaded_tile(where, attributes, source, scope):
    """The tile type an input_loader loads from kernel tensor `source`."""
    imap, fmap = attributes["imap"], attributes["fmap"]
    _check_map(where, "imap", imap, len(source.shape))
    shape = list(source.shape)
    for axis, dim in enumerate(imap):
        if dim < 0:
            continue
        if shape[dim] % scope["grid"][axis]:
            _fail(where, f"grid {'xyz'[axis]} ({scope['grid'][axis]} blocks) "
                  f"does not divide dimension {dim} of size {shape[dim]}")
        shape[dim] //= scope["grid"][axis]
    if fmap >= 0:
        _check_dim(fmap, len(shape), where)
        if shape[fmap] % scope["forloop"]:
            _fail(where, f"for-loop range {scope['forloop']} does not divide "
                  f"dimension {fmap} of the block's tile (size "
                  f"{shape[fmap]})")
        shape[fmap] //= scope["forloop"]
    elif fmap != -1:
        _fail(where, f"fmap {fmap} out of range")
    return TensorSpec(shape, source.dtype)


def _saved_tensor(where, attributes, tile, scope):
    """The kernel tensor type an output_saver writes from `tile`: every grid
    axis with more than one block maps its own dimension."""
    omap = attributes["omap"]
    _check_map(where, "omap", omap, len(tile.shape))
    shape = list(tile.shape)
    for axis, dim in enumerate(omap):
        if dim >= 0:
            shape[dim] *= scope["grid"][axis]
        elif scope["grid"][axis] > 1:
            _fail(where, f"grid axis {'xyz'[axis]} has "
                  f"{scope['grid'][axis]} blocks but omap does not map it, "
                  "so they would write the same elements")
    return TensorSpec(shape, tile.dtype)


def _accumulated(where, attributes, tile):
    """The shape of a forloop_accum's result for input `tile`."""
    kind, size = attributes["kind"], attributes.get("size")
    if size is not None and kind != "sum_last_to":
        _fail(where, "a size is only allowed with 'sum_last_to'")
    shape = list(tile.shape)
    if kind in ("sum_last", "rms_last"):
        shape[-1] = 1
    elif kind == "sum_last_to":
        if shape[-1] % size:
            _fail(where, f"size {size} does not divide the last dimension "
                  f"({shape[-1]})")
        shape[-1] = size
    return tuple(shape)


class _GraphParser:
    """Validates one graph (a program, a graph_def body or a thread_graph
    body) of JSON `data` at `level` ("kernel", "block" or "thread").
    `scope` holds the enclosing graph_def's grid, forloop and cluster for a
    block graph; `block_graphs` admits graph_defs in a kernel graph."""

    def __init__(self, data, where, level, scope=None, block_graphs=True):
        self.data = data
        self.prefix = where + "." if where else ""
        self.level = level
        self.scope = scope
        self.block_graphs = block_graphs

    def parse(self):
        data, prefix = self.data, self.prefix
        if not isinstance(data, dict):
            _fail(prefix.rstrip("."), "expected an object")
        raw_values = data.get("values")
        if not isinstance(raw_values, list):
            _fail(prefix + "values", "expected a list")
        self.values = values = [
            read_tensor_spec(v, f"{prefix}values[{i}]", ProgramError)
            for i, v in enumerate(raw_values)]
        for i, value in enumerate(values):
            if self.level == "thread" and value.shape != ():
                _fail(f"{prefix}values[{i}].shape", "expected a scalar "
                      "(shape [])")
            if self.level == "block" and value.shape == ():
                _fail(f"{prefix}values[{i}].shape", "expected at least one "
                      "dimension")
        count = len(values)
        self.inputs = _id_list(data.get("inputs"), prefix + "inputs", count)
        outputs = _id_list(data.get("outputs"), prefix + "outputs", count)
        if not outputs:
            _fail(prefix + "outputs", "expected at least one output")
        raw_ops = data.get("ops")
        if not isinstance(raw_ops, list):
            _fail(prefix + "ops", "expected a list")

        self.defined = set()
        for i in self.inputs:
            if i in self.defined:
                _fail(prefix + "inputs", f"value {i} listed twice")
            self.defined.add(i)
        # The output_savers' results, which only the body's outputs may use.
        self.saved = set()
        ops = [self.parse_op(raw, f"{prefix}ops[{index}]")
               for index, raw in enumerate(raw_ops)]
        for output in outputs:
            if output not in self.defined:
                _fail(prefix + "outputs", f"value {output} is never defined")
            if self.level == "block" and output not in self.saved:
                _fail(prefix + "outputs", f"value {output} is not the result "
                      "of an output_saver")
        program = Program(values, self.inputs, outputs, ops)
        if self.level == "block":
            _assign_loop_phases(program, self.scope["forloop"], prefix)
        return program

    def parse_op(self, raw, where):
        if not isinstance(raw, dict):
            _fail(where, "expected an object")
        name = raw.get("op")
        if name == "graph_def" and self.level == "kernel" and \
                not self.block_graphs:
            _fail(where, "graph_def is not allowed here: a reference holds "
                  "kernel ops only")
        if name not in LEVEL_OPS[self.level]:
            _fail(where, f"unknown op {name!r}" + (
                f" in a {self.level} graph" if self.level != "kernel" else ""))
        where = f"{where} ({name})"
        attributes = _op_attributes(raw, name, where)
        count = len(self.values)
        operands = _id_list(raw.get("operands"), where + ".operands", count)
        results = _id_list(raw.get("results"), where + ".results", count)
        operand_count, result_count = _arity(name, attributes)
        if (operand_count is None and not operands) or (
                operand_count is not None and len(operands) != operand_count):
            _fail(where, f"expected {operand_count or 'some'} operands, "
                  f"got {len(operands)}")
        if (result_count is None and not results) or (
                result_count is not None and len(results) != result_count):
            _fail(where, f"expected {result_count or 'some'} results, got "
                  f"{len(results)}")
        for operand in operands:
            if operand not in self.defined:
                _fail(where, f"operand {operand} is used before it is "
                      "defined")
            if operand in self.saved:
                _fail(where, f"operand {operand} is the result of an "
                      "output_saver, which may only be yielded")
            if self.level == "block" and (operand in self.inputs) != (
                    name == "input_loader"):
                _fail(where, f"operand {operand} is " + (
                    "not an argument of the graph_def (a kernel tensor)"
                    if name == "input_loader" else
                    "a kernel tensor; only input_loader reads those"))
        for result in results:
            if result in self.defined:
                _fail(where, f"value {result} is defined twice")
            self.defined.add(result)
        body = None
        if name in ("graph_def", "thread_graph"):
            body = self.parse_body(raw, name, attributes, where)
        op = Op(name, operands, results, attributes, body)
        types = self.result_types(op, [self.values[i] for i in operands],
                                  where)
        for result, (shape, dtypes) in zip(results, types):
            declared = self.values[result]
            if declared.shape != tuple(shape):
                _fail(where, f"result {result} has shape {list(shape)}, but "
                      f"values[{result}] declares {list(declared.shape)}")
            if dtypes is not None and declared.dtype not in dtypes:
                _fail(where, f"result {result} has dtype {declared.dtype}, "
                      f"expected {' or '.join(dtypes)}")
        if name == "output_saver":
            self.saved.add(results[0])
        return op

    def parse_body(self, raw, name, attributes, where):
        if name == "graph_def":
            scope = {key: attributes[key]
                     for key in ("grid", "forloop", "cluster")}
            body = _GraphParser(raw.get("body"), where + ".body", "block",
                                scope).parse()
        else:
            body = _GraphParser(raw.get("body"), where + ".body",
                                "thread").parse()
        operands, results = raw["operands"], raw["results"]
        if len(body.inputs) != len(operands):
            _fail(where, f"body has {len(body.inputs)} inputs for "
                  f"{len(operands)} operands")
        if len(body.outputs) != len(results):
            _fail(where, f"body has {len(body.outputs)} outputs for "
                  f"{len(results)} results")
        for i, (value, operand) in enumerate(zip(body.input_types, operands)):
            expected = self.values[operand]
            if name == "thread_graph":
                expected = TensorSpec((), expected.dtype)
            if value != expected:
                _fail(where, f"body input {i} is {value}, but operand {i} is "
                      f"{expected}")
        return body

    def result_types(self, op, operands, where):
        """The result types of `op` on operands of types `operands`, as
        (shape, the dtypes it may have, or None where any will do)."""
        name, attributes = op.name, op.attributes
        if name == "graph_def":
            return [(t.shape, (t.dtype,)) for t in op.body.output_types]
        if name == "thread_graph":
            shape = operands[0].shape
            for operand in operands[1:]:
                shape = _broadcast(shape, operand.shape, where)
            return [(shape, (t.dtype,)) for t in op.body.output_types]
        if name in ("input_loader", "output_saver"):
            rule = _loaded_tile if name == "input_loader" else _saved_tensor
            result = rule(where, attributes, operands[0], self.scope)
            return [(result.shape, (result.dtype,))]
        if name == "forloop_accum":
            return [(_accumulated(where, attributes, operands[0]),
                     (operands[0].dtype, "f32"))]
        if name == "cluster_reduce":
            return [(operands[0].shape, (operands[0].dtype,))]
        if name in ("cluster_gather", "cluster_reduce_scatter"):
            shape, dim = list(operands[0].shape), attributes["dim"]
            _check_dim(dim, len(shape), where)
            size = math.prod(self.scope["cluster"])
            if name == "cluster_gather":
                shape[dim] *= size
            elif shape[dim] % size:
                _fail(where, f"the cluster's {size} blocks do not divide "
                      f"dimension {dim} of size {shape[dim]}")
            else:
                shape[dim] //= size
            return [(shape, (operands[0].dtype,))]
        return [(shape, None) for shape in
                result_shapes(op, [t.shape for t in operands], where)]


def _assign_loop_phases(body, forloop, prefix):
    """Sets each op's loop phase (docs/LanguageReference.md), with the checks
    of block::analyzeLoopPhases: an input_loader with fmap runs in the loop,
    one without is invariant; forloop_accum is post-loop (and may not take
    a post-loop value); any other op takes the phase of its operands, which
    may not mix in-loop and post-loop values; an output_saver may save an
    in-loop value only when the loop has one iteration."""
    phases = {}
    # The results of `forloop_accum max`, and the values a running maximum
    # shifts (a `sub` of one from an in-loop value reads it in the loop).
    maxima, shifted = set(), set()
    for index, op in enumerate(body.ops):
        where = f"{prefix}ops[{index}] ({op.name})"
        operand_phases = {phases.get(i, INVARIANT) for i in op.operands}
        if (op.name == "sub" and phases.get(op.operands[0]) == IN_LOOP
                and op.operands[1] in maxima):
            producer = next(o for o in body.ops
                            if op.operands[1] in o.results)
            if producer.operands[0] in shifted:
                _fail(where, "reads a running maximum whose input depends "
                      "on a running maximum")
            phase = IN_LOOP
            shifted.add(op.results[0])
        elif op.name == "input_loader":
            phase = IN_LOOP if op.attributes["fmap"] >= 0 else INVARIANT
        elif op.name == "forloop_accum":
            if POST_LOOP in operand_phases:
                _fail(where, "accumulates a value that is already "
                      "accumulated; it is only available after the for-loop")
            phase = POST_LOOP
        else:
            if {IN_LOOP, POST_LOOP} <= operand_phases:
                _fail(where, "mixes a value computed in every for-loop "
                      "iteration with an accumulated one")
            phase = IN_LOOP if IN_LOOP in operand_phases else \
                POST_LOOP if POST_LOOP in operand_phases else INVARIANT
            if op.name == "output_saver" and phase == IN_LOOP and forloop > 1:
                _fail(where, f"saves a value that changes in every one of "
                      f"the {forloop} for-loop iterations")
        op.phase = phase
        for result in op.results:
            phases[result] = phase
        if op.name == "forloop_accum" and op.attributes["kind"] == "max":
            maxima.update(op.results)
        elif op.name != "forloop_accum" and shifted & set(op.operands):
            shifted.update(op.results)


class Program:
    """A validated program: a kernel graph, or the body of a graph_def or
    thread_graph (Op.body)."""

    def __init__(self, values, inputs, outputs, ops, label="program"):
        self.values = values
        self.inputs = inputs
        self.outputs = outputs
        self.ops = ops
        #: What the program is called in error messages.
        self.label = label

    @property
    def input_types(self):
        return [self.values[i] for i in self.inputs]

    @property
    def output_types(self):
        return [self.values[i] for i in self.outputs]

    @property
    def dtypes(self):
        """The dtypes of all values, those of nested bodies included."""
        dtypes = {value.dtype for value in self.values}
        for op in self.ops:
            if op.body is not None:
                dtypes |= op.body.dtypes
        return dtypes

    @property
    def has_block_graphs(self):
        return any(op.name == "graph_def" for op in self.ops)

    @classmethod
    def from_json(cls, data, label="reference", block_graphs=False):
        """Validates the JSON object of a program: value ids in range,
        every value defined once before use, known ops with their operand,
        result and attribute counts, and every declared result type equal
        to what the op computes from its operands' types. With
        `block_graphs`, graph_defs are allowed (a `program`), and their
        bodies are validated too: tile maps and shapes, accumulators,
        cluster collectives, thread_graph bodies, loop phases. Errors are
        ProgramErrors whose message starts with `label`."""
        try:
            program = _GraphParser(data, "", "kernel",
                                   block_graphs=block_graphs).parse()
        except ProgramError as error:
            raise ProgramError(f"{label}: {error}") from None
        program.label = label
        return program

    def check_signature(self, inputs, outputs):
        """Checks that the program's input and output types are `inputs`
        and `outputs` (lists of TensorSpecs)."""
        for kind, declared, expected in (("input", self.input_types, inputs),
                                         ("output", self.output_types,
                                          outputs)):
            if len(declared) != len(expected):
                _fail(f"{self.label}: {kind}s", f"{len(declared)} {kind}s, "
                      f"but the function has {len(expected)}")
            for i, (value, spec) in enumerate(zip(declared, expected)):
                if value != spec:
                    _fail(f"{self.label}: {kind}s", f"{kind} {i} is {value}, "
                          f"but the function's is {spec}")


#===---------------------------------------------------------------------===#
# Evaluation
#===---------------------------------------------------------------------===#


def _apply(op, args, backend, lead=0):
    """The results of one compute op on evaluated operands, which carry
    `lead` leading axes (the blocks of a block graph) before their own."""
    name, attributes = op.name, op.attributes
    x = args[0]
    if name == "exp":
        return [backend.exp(x)]
    if name == "square":
        return [x * x]
    if name == "sqrt":
        return [backend.sqrt(x)]
    if name == "rsqrt":
        return [1.0 / backend.sqrt(x)]
    if name == "silu":
        return [x / (1.0 + backend.exp(-x))]
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
        return [_reduce(x, lead + attributes["dim"], attributes["size"])]
    if name == "reduction_max":
        return [backend.amax(x, lead + attributes["dim"])]
    if name == "rms_norm":
        size = attributes["size"]
        rows = x.reshape((-1, size))
        mean_square = (rows * rows).sum(1).reshape((-1, 1)) / float(size)
        return [(rows / backend.sqrt(mean_square + attributes["eps"]))
                .reshape(tuple(x.shape))]
    if name == "concat":
        return [backend.concat(list(args), lead + attributes["dim"])]
    if name == "chunk":
        dim, parts = lead + attributes["dim"], attributes["parts"]
        piece = x.shape[dim] // parts
        before = (slice(None),) * dim
        return [x[before + (slice(i * piece, (i + 1) * piece),)]
                for i in range(parts)]
    raise ProgramError(f"op {name!r} cannot be evaluated here")


def _reduce(x, dim, size):
    """The strided reduction of dimension `dim` of `x` to `size`:
    out[.., j, ..] = Σ_k x[.., j + k·size, ..]."""
    shape = tuple(x.shape)
    split = shape[:dim] + (shape[dim] // size, size) + shape[dim + 1:]
    return x.reshape(split).sum(dim)


class _Evaluation:
    """The state of one evaluate call: backend, mode and rounding."""

    def __init__(self, backend, mode, memory_budget):
        self.backend = backend
        self.mode = mode
        self.compute = "f64" if mode == "f64" else "f32"
        self.memory_budget = memory_budget

    def settle(self, array, dtype):
        """`array` as a value of `dtype`: rounded to it in emulate mode, in
        the compute type in any case."""
        if self.mode == "emulate":
            array = self.backend.to(array, dtype)
        return self.backend.to(array, self.compute)

    def check_shape(self, op, value_id, array, declared, lead=()):
        if tuple(array.shape) != tuple(lead) + declared.shape:
            raise ProgramError(
                f"op {op.name} computed shape {list(array.shape)} for value "
                f"{value_id}, declared {list(declared.shape)}" +
                (f" for each of {lead[0]} blocks" if lead else ""))


def evaluate(program, inputs, backend, mode, memory_budget=MEMORY_BUDGET):
    """Runs `program` on `inputs` (backend arrays, one per program input)
    and returns its outputs, computed as `mode` says (see MODES): in
    "f64" and "f32" everything is computed in that type with no rounding in
    between; in "emulate" each op's results are rounded to their values'
    dtypes, like a low-precision execution of the program (accumulators
    stay in float32 across the for-loop; their result is rounded)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (expected one of {MODES})")
    if len(inputs) != len(program.inputs):
        raise ValueError(f"expected {len(program.inputs)} inputs, got "
                         f"{len(inputs)}")
    run = _Evaluation(backend, mode, memory_budget)
    env = {}
    for value_id, array in zip(program.inputs, inputs):
        env[value_id] = run.settle(array, program.values[value_id].dtype)
    for op in program.ops:
        args = [env[i] for i in op.operands]
        if op.name == "graph_def":
            results = _run_graph_def(op, args, run)
        else:
            results = _apply(op, args, backend)
        for value_id, array in zip(op.results, results):
            declared = program.values[value_id]
            run.check_shape(op, value_id, array, declared)
            env[value_id] = run.settle(array, declared.dtype)
    return [env[i] for i in program.outputs]


def block_order(grid, cluster):
    """The blocks of a grid as (x, y, z), cluster by cluster (x fastest),
    and inside a cluster in rank order, rank = x + cx·(y + cy·z)."""
    (gx, gy, gz), (cx, cy, cz) = grid, cluster
    return [(ox + x, oy + y, oz + z)
            for oz in range(0, gz, cz) for oy in range(0, gy, cy)
            for ox in range(0, gx, cx)
            for z in range(cz) for y in range(cy) for x in range(cx)]


def _block_bytes(body, run):
    """About how many bytes the tiles of one block take."""
    kernel = set(body.inputs) | set(body.outputs)
    elements = sum(math.prod(value.shape)
                   for i, value in enumerate(body.values) if i not in kernel)
    for op in body.ops:
        if op.name == "thread_graph":
            elements += len(op.body.values) * math.prod(
                body.values[op.results[0]].shape)
    # Temporaries (gathers, conversions) take about as much again.
    return 2 * elements * (8 if run.compute == "f64" else 4)


def _run_graph_def(op, args, run):
    """The results of graph_def `op` on kernel tensors `args`."""
    body, attributes = op.body, op.attributes
    cluster_size = math.prod(attributes["cluster"])
    blocks = block_order(attributes["grid"], attributes["cluster"])
    outputs = [run.backend.zeros(value.shape, run.compute)
               for value in body.output_types]
    clusters = max(1, run.memory_budget //
                   max(1, _block_bytes(body, run) * cluster_size))
    step = clusters * cluster_size
    for start in range(0, len(blocks), step):
        _BlockGroup(op, args, blocks[start:start + step], outputs,
                    run).run()
    return outputs


class _BlockGroup:
    """Whole clusters of blocks of one graph_def, evaluated together: each
    tile has a leading axis of blocks (in `blocks` order)."""

    def __init__(self, op, args, blocks, outputs, run):
        self.body = op.body
        self.grid = op.attributes["grid"]
        self.forloop = op.attributes["forloop"]
        self.cluster_size = math.prod(op.attributes["cluster"])
        self.kernel = dict(zip(op.body.inputs, args))
        self.blocks = blocks
        self.outputs = {value: outputs[k]
                        for k, value in enumerate(op.body.outputs)}
        self.run_state = run
        self.backend = run.backend
        self.env = {}
        self.accumulators = {}
        self.loader_indices = {}

    def run(self):
        """The body's loop phases: invariant ops in iteration 0, in-loop
        ops and accumulation steps every iteration, then the accumulators'
        results and the post-loop ops. A running maximum (a max
        accumulator an in-loop op reads) is the maximum over all
        iterations in every iteration: a first pass over the loop runs
        only what it accumulates and finishes it."""
        ops = self.body.ops
        producer = {value: index for index, op in enumerate(ops)
                    for value in op.results}
        running = {producer[operand] for op in ops if op.phase == IN_LOOP
                   for operand in op.operands
                   if operand in producer
                   and ops[producer[operand]].name == "forloop_accum"}
        first_pass = set(running)
        for index in reversed(range(len(ops))):
            if index in first_pass:
                first_pass.update(producer[operand]
                                  for operand in ops[index].operands
                                  if operand in producer)

        def loop(selected, skip_running):
            for iteration in range(self.forloop):
                for index, op in enumerate(ops):
                    if index not in selected:
                        continue
                    if op.name == "forloop_accum":
                        if not (skip_running and index in running):
                            self.accumulate(index, op, iteration)
                    elif op.phase == IN_LOOP or (op.phase == INVARIANT and
                                                 iteration == 0):
                        self.evaluate(index, op, iteration)

        if running:
            loop(first_pass, skip_running=False)
            for index in sorted(running):
                self.finish(index, ops[index])
        loop(set(range(len(ops))), skip_running=True)
        for index, op in enumerate(ops):
            if op.name == "forloop_accum":
                if index not in running:
                    self.finish(index, op)
            elif op.phase == POST_LOOP:
                self.evaluate(index, op, self.forloop)

    def box_indices(self, offsets, tile):
        """Index arrays selecting, for every block b, the box of shape
        `tile` at offsets[d][b] (per dimension d): with them, an array of
        the whole tensor indexes to (blocks, *tile)."""
        rank, count = len(tile), len(self.blocks)
        indices = []
        for dim, extent in enumerate(tile):
            start = self.backend.index(offsets[dim]).reshape(
                (count,) + (1,) * rank)
            span = self.backend.index(list(range(extent))).reshape(
                (1,) + tuple(extent if k == dim else 1 for k in range(rank)))
            indices.append(start + span)
        return indices

    def load(self, index, op, iteration):
        """input_loader: each block's box, the offset of dimension d being
        Σ blockIdx[a]·(whole[d] / grid[a]) over the axes a that imap maps to
        d, plus iteration·tile[fmap] along fmap."""
        whole = self.kernel[op.operands[0]]
        tile = self.body.values[op.results[0]].shape
        if index not in self.loader_indices:
            offsets = [[0] * len(self.blocks) for _ in tile]
            for axis, dim in enumerate(op.attributes["imap"]):
                if dim < 0:
                    continue
                chunk = whole.shape[dim] // self.grid[axis]
                for b, block in enumerate(self.blocks):
                    offsets[dim][b] += block[axis] * chunk
            self.loader_indices[index] = self.box_indices(offsets, tile)
        indices = list(self.loader_indices[index])
        fmap = op.attributes["fmap"]
        if fmap >= 0 and iteration:
            indices[fmap] = indices[fmap] + iteration * tile[fmap]
        return whole[tuple(indices)]

    def save(self, op):
        """output_saver: each block's tile into the result at offset
        blockIdx[a]·tile[d] for each axis a that omap maps to d."""
        tiles = self.env[op.operands[0]]
        tile = self.body.values[op.operands[0]].shape
        offsets = [[0] * len(self.blocks) for _ in tile]
        for axis, dim in enumerate(op.attributes["omap"]):
            if dim >= 0:
                for b, block in enumerate(self.blocks):
                    offsets[dim][b] += block[axis] * tile[dim]
        self.outputs[op.results[0]][tuple(self.box_indices(offsets, tile))] = \
            tiles

    def cluster_collective(self, op, x):
        """cluster_reduce (the sum over the cluster's blocks, in rank order)
        or cluster_gather (their tiles concatenated along `dim`, in rank
        order); every block of a cluster gets the result. With
        cluster_reduce_scatter, rank r gets chunk r of the sum along `dim`."""
        size = self.cluster_size
        tile = tuple(x.shape[1:])
        clusters = x.reshape((len(self.blocks) // size, size) + tile)
        if op.name != "cluster_gather":
            result = clusters[:, 0]
            for rank in range(1, size):
                result = result + clusters[:, rank]
            if op.name == "cluster_reduce_scatter":
                dim = 1 + op.attributes["dim"]
                extent = result.shape[dim] // size
                chunks = [result[(slice(None),) * dim
                                 + (slice(r * extent, (r + 1) * extent),)]
                          for r in range(size)]
                shape = tuple(chunks[0].shape[1:])
                return self.backend.concat(
                    [chunk.reshape((-1, 1) + shape) for chunk in chunks],
                    1).reshape((len(self.blocks),) + shape)
        else:
            result = self.backend.concat(
                [clusters[:, rank] for rank in range(size)],
                1 + op.attributes["dim"])
        shape = tuple(result.shape[1:])
        spread = self.backend.concat([result.reshape((-1, 1) + shape)] * size,
                                     1)
        return spread.reshape((len(self.blocks),) + shape)

    def thread_graph(self, op, args):
        """thread_graph: the scalar body on whole tiles of the broadcast
        shape, each body value rounded to its dtype (emulate mode)."""
        body, run = op.body, self.run_state
        shape = (len(self.blocks),) + self.body.values[op.results[0]].shape
        zeros = self.backend.zeros(shape, run.compute)
        env = {value: arg + zeros for value, arg in zip(body.inputs, args)}
        for inner in body.ops:
            [result] = _apply(inner, [env[i] for i in inner.operands],
                              self.backend)
            env[inner.results[0]] = run.settle(
                result, body.values[inner.results[0]].dtype)
        return [env[value] for value in body.outputs]

    def evaluate(self, index, op, iteration):
        """Evaluates one op (not forloop_accum) for all blocks."""
        args = [self.env[i] for i in op.operands if i not in self.kernel]
        if op.name == "output_saver":
            self.save(op)
            return
        if op.name == "input_loader":
            results = [self.load(index, op, iteration)]
        elif op.name in ("cluster_reduce", "cluster_gather",
                         "cluster_reduce_scatter"):
            results = [self.cluster_collective(op, args[0])]
        elif op.name == "thread_graph":
            results = self.thread_graph(op, args)
        else:
            results = _apply(op, args, self.backend, lead=1)
        for value_id, array in zip(op.results, results):
            declared = self.body.values[value_id]
            self.run_state.check_shape(op, value_id, array, declared,
                                       (len(self.blocks),))
            self.env[value_id] = self.run_state.settle(array, declared.dtype)

    def accumulate(self, index, op, iteration):
        """One step of forloop_accum: the input (for the *_last kinds,
        first reduced along its last dimension) added to, or maxed into,
        the accumulator, which keeps the compute type."""
        x = self.env[op.operands[0]]
        kind = op.attributes["kind"]
        last = len(x.shape) - 1
        if kind in ("sum", "max"):
            step = x
        elif kind == "sum_last":
            step = _reduce(x, last, 1)
        elif kind == "sum_last_to":
            step = _reduce(x, last, op.attributes["size"])
        else:  # rms_last
            step = _reduce(x * x, last, 1)
        if iteration == 0:
            self.accumulators[index] = step
        elif kind == "max":
            previous = self.accumulators[index]
            self.accumulators[index] = self.backend.where(
                previous > step, previous, step)
        else:
            self.accumulators[index] = self.accumulators[index] + step

    def finish(self, index, op):
        """The accumulator's result: rms_last divides by forloop·n, adds its
        eps and takes the square root; every kind is rounded to the result
        dtype."""
        result = self.accumulators.pop(index)
        if op.attributes["kind"] == "rms_last":
            count = self.forloop * self.body.values[op.operands[0]].shape[-1]
            result = self.backend.sqrt(result / float(count) +
                                       op.attributes.get("eps", 0.0))
        declared = self.body.values[op.results[0]]
        self.run_state.check_shape(op, op.results[0], result, declared,
                                   (len(self.blocks),))
        self.env[op.results[0]] = self.run_state.settle(result,
                                                        declared.dtype)
