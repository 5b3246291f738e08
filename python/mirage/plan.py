"""Reads the plan.json of a bundle (docs/Runtime.md): its functions'
signatures, the programs recorded for testing, and the PTX file of each
chip.

One schema, two readers: this module checks everything the runtime
library's reader (runtime/lib/Plan.cpp) checks, in the same order and with
the same messages ("plan.json: functions[0].launches[1].grid: expected 3
positive integers"), so both accept exactly the same plans; both are tested
on the corpus of runtime/test/plans. The runtime (mirage.runtime), the
program interpreter (mirage.interpreter) and the benchmark scripts share
this reader and its tensor types.
"""

import json
import math
import os
import pathlib
import re

__all__ = [
    "CHIPS",
    "DTYPES",
    "FunctionSpec",
    "Plan",
    "PlanError",
    "TensorSpec",
    "contiguous_strides",
    "parse_plan",
    "read_plan",
    "read_tensor_spec",
]

#: The element types of bundle tensors.
DTYPES = ("f16", "bf16", "f32")

#: The chips a bundle may carry PTX for.
CHIPS = ("sm_80", "sm_90a")

_DTYPE_BYTES = {"f16": 2, "bf16": 2, "f32": 4}
_INT32_MAX = 2 ** 31 - 1
_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1
#: Bounds any tensor or buffer size, as the runtime does.
_MAX_BYTES = 1 << 48
#: Hardware launch limits shared by sm_80 and sm_90.
_MAX_GRID = (_INT32_MAX, 65535, 65535)
_MAX_BLOCK = (1024, 1024, 64)
_MAX_THREADS_PER_BLOCK = 1024
_MAX_PORTABLE_CLUSTER_SIZE = 8
#: The deepest nesting of arrays and objects the readers take.
_MAX_DEPTH = 256


class PlanError(ValueError):
    """A plan.json that cannot be read or is malformed. The message names the
    bundle, the field ("plan.json: functions[0].inputs[1].dtype: ...") or,
    for text that is not JSON, the line and column."""


def contiguous_strides(shape):
    """The row-major contiguous strides, in elements, of `shape`."""
    strides, stride = [], 1
    for extent in reversed(shape):
        strides.append(stride)
        stride *= extent
    return tuple(reversed(strides))


class TensorSpec:
    """The type of a dense row-major tensor: a function's input or output,
    or a value of a program."""

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.strides = contiguous_strides(self.shape)

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and \
            (self.shape, self.dtype) == (other.shape, other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __str__(self):
        return f"{self.dtype}{list(self.shape)}"

    def __repr__(self):
        return f"TensorSpec({list(self.shape)}, {self.dtype!r})"

    @property
    def bytes(self):
        """The size of the tensor in bytes."""
        return math.prod(self.shape) * _DTYPE_BYTES[self.dtype]


class FunctionSpec:
    """A bundle function's signature, and the programs plan.json records for
    testing, if any: `reference` (what it must compute) and `program` (what
    was compiled); `tuning`, the function's tuning object when it belongs
    to a tuning group (docs/Runtime.md, "Tuning"), else None;
    `may_overlap`, whether the plan lets a kernel launch overlap the one
    before it (programmatic dependent launch: two kernels in a row, and no
    `"overlap": false`; the runtime also needs the later kernel to wait for
    its grid dependencies, which its PTX says; docs/Runtime.md,
    "Overlap")."""

    def __init__(self, name, inputs, outputs, reference=None, program=None,
                 tuning=None, may_overlap=False):
        self.name = name
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.reference = reference
        self.program = program
        self.tuning = tuning
        self.may_overlap = may_overlap

    def __repr__(self):
        return (f"FunctionSpec({self.name!r}, inputs={self.inputs}, "
                f"outputs={self.outputs})")


class Plan:
    """What Python reads of a plan.json: `functions`, a dict from name to
    FunctionSpec in plan order, and `ptx`, a dict from chip ("sm_80",
    "sm_90a") to the name of its PTX file in the bundle."""

    def __init__(self, functions, ptx):
        self.functions = functions
        self.ptx = ptx


def read_tensor_spec(value, where, error=ValueError):
    """The TensorSpec of the JSON object `value` ({"shape": [...], "dtype":
    ...}), a value of a program; raises `error` with a message starting
    with `where` when it is not one: the shape must be a list of positive
    integers, the dtype one of DTYPES."""
    if not isinstance(value, dict):
        raise error(f"{where}: expected an object")
    shape, dtype = value.get("shape"), value.get("dtype")
    if not isinstance(shape, list) or not all(
            type(extent) is int and extent > 0 for extent in shape):
        raise error(f"{where}.shape: expected a list of positive integers")
    if dtype not in DTYPES:
        raise error(f"{where}.dtype: unknown dtype {dtype!r} (expected "
                    f"{', '.join(DTYPES)})")
    return TensorSpec(shape, dtype)


# JSON text. The runtime's JSON reader (runtime/lib/Json.cpp) is strict RFC
# 8259 in UTF-8 and keeps integers apart from other numbers. Python's json
# module takes more: it is run with hooks that turn what the runtime rejects
# into _JsonFault values, which _find_json_fault then reports.


class _JsonFault:
    """Stands in for a value that the runtime's JSON reader rejects but
    Python's json module takes: an object with a duplicate key, NaN or
    Infinity, a number beyond a double."""

    def __init__(self, message):
        self.message = message


def _json_object(pairs):
    keys = set()
    for key, _ in pairs:
        if key in keys:
            return _JsonFault(f'duplicate key "{key}"')
        keys.add(key)
    return dict(pairs)


def _json_number(text):
    """A number with a fraction or an exponent, or an integer beyond int64:
    a float, unless it overflows or underflows to zero."""
    value = float(text)
    mantissa = re.split("[eE]", text)[0]
    if math.isinf(value) or (value == 0 and re.search("[1-9]", mantissa)):
        return _JsonFault("number out of range")
    return value


def _json_integer(text):
    """An integer that fits int64 is an int; others are numbers."""
    if len(text) <= len(str(_INT64_MIN)):
        value = int(text)
        if _INT64_MIN <= value <= _INT64_MAX:
            return value
    return _json_number(text)


_DECODER = json.JSONDecoder(
    object_pairs_hook=_json_object, parse_float=_json_number,
    parse_int=_json_integer,
    parse_constant=lambda name: _JsonFault(f"{name} is not a JSON number"))

#: A string, or a bracket opening or closing an array or an object.
_BRACKETS = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*"|(?P<open>[\[{])|(?P<close>[\]}])', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")


def _text_fault(data, offset, message):
    """A PlanError at byte `offset` of `data`, by line and column."""
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return PlanError(f"plan.json: line {line}, column {column}: {message}")


def _find_json_fault(value, path=""):
    """The (path, message) of the first _JsonFault or unpaired UTF-16
    surrogate (a lone \\ud800 escape) in `value`, or None."""
    if isinstance(value, _JsonFault):
        return path, value.message
    if isinstance(value, str):
        return (path, "unpaired UTF-16 surrogate") \
            if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, member in value.items():
            if _SURROGATE.search(key):
                return path, "unpaired UTF-16 surrogate in a key"
            fault = _find_json_fault(member, _member(path, key))
            if fault:
                return fault
    if isinstance(value, list):
        for index, element in enumerate(value):
            fault = _find_json_fault(element, _indexed(path, index))
            if fault:
                return fault
    return None


def _parse_json(data):
    """The JSON value of the bytes `data`, taken exactly as the runtime's
    JSON reader takes them."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _text_fault(data, error.start, "invalid UTF-8") from None
    depth = 0
    for token in _BRACKETS.finditer(text):
        if token.lastgroup == "open":
            depth += 1
            if depth > _MAX_DEPTH:
                raise _text_fault(data, len(text[:token.start()].encode()),
                                  f"nesting deeper than {_MAX_DEPTH} levels")
        elif token.lastgroup == "close":
            depth -= 1
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise _text_fault(data, len(text[:error.pos].encode()),
                          error.msg) from None
    fault = _find_json_fault(value)
    if fault:
        _fail(*fault)
    return value


# Field checks, as runtime/lib/JsonReader.cpp makes them.


def _fail(path, message):
    raise PlanError(f"plan.json: {path}: {message}" if path
                    else f"plan.json: {message}")


def _member(path, key):
    return f"{path}.{key}" if path else key


def _indexed(path, index):
    return f"{path}[{index}]"


def _kind_name(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _require_object(value, path):
    if not isinstance(value, dict):
        _fail(path, f"expected an object, got {_kind_name(value)}")
    return value


def _check_object(value, path, allowed):
    """`value`, which must be an object whose keys are all in `allowed`."""
    for key in _require_object(value, path):
        if key not in allowed:
            _fail(path, f'unknown field "{key}"')
    return value


def _field(value, path, key):
    """The required member `key` of the object `value` at `path`."""
    if key not in value:
        _fail(path, f'missing field "{key}"')
    return value[key]


def _string(value, path):
    if not isinstance(value, str):
        _fail(path, f"expected a string, got {_kind_name(value)}")
    return value


def _non_empty_string(value, path):
    if not _string(value, path):
        _fail(path, "expected a non-empty string")
    return value


def _name(value, path):
    """A non-empty string without NUL characters (the runtime passes names
    on as C strings)."""
    if "\0" in _non_empty_string(value, path):
        _fail(path, "expected a name without NUL characters")
    return value


def _integer(value, path, low, high):
    """An integer (written as one) in [low, high]."""
    if type(value) is not int or not low <= value <= high:
        _fail(path, f"expected an integer in [{low}, {high}]")
    return value


def _array(value, path):
    if not isinstance(value, list):
        _fail(path, f"expected an array, got {_kind_name(value)}")
    return value


def _format_list(values):
    return f"[{', '.join(str(value) for value in values)}]"


# The plan, as runtime/lib/Plan.cpp reads it.


def _read_ptx(value):
    """The PTX file by chip: plain file names next to plan.json."""
    if not isinstance(value, dict):
        _fail("ptx", f"expected an object, got {_kind_name(value)}")
    if not value:
        _fail("ptx", "expected at least one chip (sm_80, sm_90a)")
    for chip, file in value.items():
        if chip not in CHIPS:
            _fail("ptx", f'unknown chip "{chip}" (expected sm_80 or sm_90a)')
        path = _member("ptx", chip)
        if "/" in _name(file, path) or "\\" in file or file in (".", ".."):
            _fail(path, "expected a file name next to plan.json, got "
                        f'"{file}"')
    return dict(value)


def _read_shape(value, path):
    shape, elements = [], 1
    for extent in _array(value, path):
        if type(extent) is not int or extent <= 0:
            _fail(path, "expected an array of positive integers")
        if extent > _MAX_BYTES // elements:
            _fail(path, "tensor too large")
        elements *= extent
        shape.append(extent)
    return shape


def _read_tensor(value, path):
    """A function's input or output, or a TMA descriptor's tensor: shape,
    dtype and the contiguous strides."""
    _check_object(value, path, ("shape", "dtype", "strides"))
    shape = _read_shape(_field(value, path, "shape"), _member(path, "shape"))
    dtype = _read_dtype(value, path, "dtype")
    strides_path = _member(path, "strides")
    strides = _array(_field(value, path, "strides"), strides_path)
    expected = contiguous_strides(shape)
    if tuple(stride if type(stride) is int else -1
             for stride in strides) != expected:
        _fail(strides_path,
              f"expected the contiguous strides {_format_list(expected)}")
    if math.prod(shape) > _MAX_BYTES // _DTYPE_BYTES[dtype]:
        _fail(_member(path, "shape"), "tensor too large")
    return TensorSpec(shape, dtype)


def _read_dtype(value, path, key):
    """The dtype in the field `key` of `value`."""
    dtype_path = _member(path, key)
    dtype = _string(_field(value, path, key), dtype_path)
    if dtype not in DTYPES:
        _fail(dtype_path,
              f'unknown dtype "{dtype}" (expected f16, bf16 or f32)')
    return dtype


def _read_tensors(value, path):
    return [_read_tensor(tensor, _indexed(path, i))
            for i, tensor in enumerate(_array(value, path))]


def _read_buffers(value, path):
    """The buffers' sizes in bytes (a buffer's optional "zeroed", which asks
    the runtime to zero it once, is checked and not kept)."""
    sizes = []
    for i, buffer in enumerate(_array(value, path)):
        where = _indexed(path, i)
        _check_object(buffer, where, ("bytes", "zeroed"))
        sizes.append(_integer(_field(buffer, where, "bytes"),
                              _member(where, "bytes"), 1, _MAX_BYTES))
        if "zeroed" in buffer and type(buffer["zeroed"]) is not bool:
            _fail(_member(where, "zeroed"), "expected true or false")
    return sizes


def _dim3(value, path):
    if not (isinstance(value, list) and len(value) == 3 and all(
            type(extent) is int and 0 < extent <= _INT32_MAX
            for extent in value)):
        _fail(path, "expected 3 positive integers")
    return value


def _check_launch_limits(grid, block, cluster, non_portable, path):
    if any(extent > limit for extent, limit in zip(grid, _MAX_GRID)):
        _fail(_member(path, "grid"),
              f"exceeds the limits {_format_list(_MAX_GRID)}")
    block_path = _member(path, "block")
    if any(extent > limit for extent, limit in zip(block, _MAX_BLOCK)):
        _fail(block_path, f"exceeds the limits {_format_list(_MAX_BLOCK)}")
    threads = math.prod(block)
    if threads > _MAX_THREADS_PER_BLOCK:
        _fail(block_path, f"{threads} threads exceed the limit of "
                          f"{_MAX_THREADS_PER_BLOCK} per block")
    cluster_path = _member(path, "cluster")
    if any(extent % size for extent, size in zip(grid, cluster)):
        _fail(cluster_path, f"{_format_list(cluster)} does not divide the "
                            f"grid {_format_list(grid)}")
    size = math.prod(cluster)
    if size > _MAX_PORTABLE_CLUSTER_SIZE and not non_portable:
        _fail(cluster_path, f"{size} blocks exceed the portable cluster size "
                            f"of {_MAX_PORTABLE_CLUSTER_SIZE} and "
                            "non_portable_cluster is false")


def _read_tensor_map(value, path, available):
    """A TMA descriptor of memory of `available` bytes: its tensor, which
    must fit, and its box, within the limits of the TMA unit."""
    _check_object(value, path, ("tensor", "box", "swizzle"))
    tensor_path, box_path = _member(path, "tensor"), _member(path, "box")
    tensor_value = _field(value, path, "tensor")
    box_value = _field(value, path, "box")
    tensor = _read_tensor(tensor_value, tensor_path)
    rank = len(tensor.shape)
    if not 1 <= rank <= 5:
        _fail(tensor_path, f"has {rank} dimensions (a TMA tensor has 1 to 5)")
    if tensor.bytes > available:
        _fail(tensor_path, f"needs {tensor.bytes} bytes, more than the "
                           f"{available} of the argument")
    box = [_integer(extent, _indexed(box_path, d), 1, 256)
           for d, extent in enumerate(_array(box_value, box_path))]
    element_bytes = _DTYPE_BYTES[tensor.dtype]
    if len(box) != rank:
        _fail(box_path, f"has {len(box)} dimensions for a tensor of {rank} "
                        "(a TMA box has as many)")
    row_bytes = (box[-1] * element_bytes, tensor.shape[-1] * element_bytes)
    if any(size % 16 for size in row_bytes):
        _fail(box_path,
              "rows of the box and of the tensor must be whole 16-byte chunks")
    if "swizzle" in value:
        swizzle_path = _member(path, "swizzle")
        swizzle = _integer(value["swizzle"], swizzle_path, 32, 128)
        if swizzle not in (32, 64, 128) or swizzle != box[-1] * element_bytes:
            _fail(swizzle_path, "must be the bytes of a row of the box (32, "
                                f"64 or 128), not {swizzle}")


def _read_tuning(value, path):
    _check_object(value, path, ("key", "compiler", "candidate"))
    key_path = _member(path, "key")
    key = _field(value, path, "key")
    if not isinstance(key, str) or not re.fullmatch("[0-9a-f]{64}", key):
        _fail(key_path, "expected 64 lowercase hex digits")
    _non_empty_string(_field(value, path, "compiler"),
                      _member(path, "compiler"))
    _integer(_field(value, path, "candidate"), _member(path, "candidate"), -1,
             _INT32_MAX)


class _PlanReader:
    """Checks plan.json's JSON tree, field by field in the order of the
    runtime's PlanReader, and raises PlanError at the first fault."""

    def __init__(self):
        #: The chips of `ptx`.
        self.chips = ()
        #: The paths of the launches with thread-block clusters.
        self.cluster_launches = []

    def read(self, root):
        _check_object(root, "", ("format", "version", "ptx", "functions"))
        if _string(_field(root, "", "format"), "format") != "mirage-bundle":
            _fail("format", 'expected "mirage-bundle"')
        version = _integer(_field(root, "", "version"), "version", 0,
                           _INT32_MAX)
        if version != 1:
            _fail("version", f"unsupported version {version} (this runtime "
                             "reads version 1)")
        ptx = _read_ptx(_field(root, "", "ptx"))
        self.chips = sorted(ptx)
        functions = self.read_functions(_field(root, "", "functions"))
        if "sm_80" in ptx and self.cluster_launches:
            _fail(self.cluster_launches[0], "thread-block clusters need "
                                            "sm_90a, but ptx also lists sm_80")
        return Plan(functions, ptx)

    def read_functions(self, value):
        if not _array(value, "functions"):
            _fail("functions", "expected at least one function")
        functions = {}
        for i, function in enumerate(value):
            spec = self.read_function(function, _indexed("functions", i))
            if spec.name in functions:
                _fail(_member(_indexed("functions", i), "name"),
                      f'duplicate function name "{spec.name}"')
            functions[spec.name] = spec
        return functions

    def read_function(self, value, path):
        _check_object(value, path,
                      ("name", "inputs", "outputs", "buffers", "launches",
                       "program", "reference", "tuning", "overlap"))
        name = _name(_field(value, path, "name"), _member(path, "name"))
        inputs = _read_tensors(_field(value, path, "inputs"),
                               _member(path, "inputs"))
        outputs = _read_tensors(_field(value, path, "outputs"),
                                _member(path, "outputs"))
        if not outputs:
            _fail(_member(path, "outputs"), "expected at least one output")
        buffers = _read_buffers(_field(value, path, "buffers"),
                                _member(path, "buffers"))
        # The bytes of the memory each argument kind's indices name.
        memory = {"input": [tensor.bytes for tensor in inputs],
                  "output": [tensor.bytes for tensor in outputs],
                  "buffer": buffers}
        launches_path = _member(path, "launches")
        if not _array(_field(value, path, "launches"), launches_path):
            _fail(launches_path, "expected at least one launch")
        for i, launch in enumerate(value["launches"]):
            self.read_launch(launch, _indexed(launches_path, i), memory)
        # The runtime does not interpret the programs; it checks their kind.
        for key in ("program", "reference"):
            if key in value:
                _require_object(value[key], _member(path, key))
        if "tuning" in value:
            _read_tuning(value["tuning"], _member(path, "tuning"))
        if not isinstance(value.get("overlap", True), bool):
            _fail(_member(path, "overlap"), "expected true or false")
        kernels = ["library" not in launch for launch in value["launches"]]
        may_overlap = value.get("overlap", True) and any(
            a and b for a, b in zip(kernels, kernels[1:]))
        return FunctionSpec(name, inputs, outputs, value.get("reference"),
                            value.get("program"), value.get("tuning"),
                            may_overlap)

    def read_launch(self, value, path, memory):
        if isinstance(value, dict) and "library" in value:
            self.read_library_call(value, path, memory)
            return
        _check_object(value, path,
                      ("kernel", "grid", "block", "cluster",
                       "non_portable_cluster", "shared_memory", "args"))
        _name(_field(value, path, "kernel"), _member(path, "kernel"))
        grid, block, cluster = [
            _dim3(_field(value, path, key), _member(path, key))
            for key in ("grid", "block", "cluster")]
        non_portable = _field(value, path, "non_portable_cluster")
        if not isinstance(non_portable, bool):
            _fail(_member(path, "non_portable_cluster"), "expected a boolean")
        self.read_shared_memory(_field(value, path, "shared_memory"),
                                _member(path, "shared_memory"))
        args_path = _member(path, "args")
        for i, arg in enumerate(_array(_field(value, path, "args"),
                                       args_path)):
            self.read_arg(arg, _indexed(args_path, i), memory)
        _check_launch_limits(grid, block, cluster, non_portable, path)
        if cluster != [1, 1, 1]:
            self.cluster_launches.append(_member(path, "cluster"))

    def read_library_call(self, value, path, memory):
        """A library call: "library": "matmul", its sizes and dtypes, and its
        arguments (lhs, rhs, result and an optional addend), each bound to
        memory that holds its whole matrix batch; the addend is not the
        result."""
        _check_object(value, path, ("library", "batch", "m", "n", "k",
                                    "dtype", "result_dtype", "args"))
        library_path = _member(path, "library")
        library = _string(value["library"], library_path)
        if library != "matmul":
            _fail(library_path,
                  f'unknown library call "{library}" (expected matmul)')
        batch, m, n, k = [
            _integer(_field(value, path, key), _member(path, key), 1,
                     _INT32_MAX)
            for key in ("batch", "m", "n", "k")]
        dtype = _read_dtype(value, path, "dtype")
        result_dtype = _read_dtype(value, path, "result_dtype")
        if result_dtype not in (dtype, "f32"):
            _fail(_member(path, "result_dtype"), "must be the dtype or f32")
        args_path = _member(path, "args")
        args = _array(_field(value, path, "args"), args_path)
        if len(args) not in (3, 4):
            _fail(args_path, "expected 3 or 4 arguments (lhs, rhs, "
                             f"result[, addend]), got {len(args)}")
        matrices = [(m, k, dtype), (k, n, dtype), (m, n, result_dtype),
                    (m, n, result_dtype)]
        for i, (arg, (rows, cols, element)) in enumerate(zip(args, matrices)):
            arg_path = _indexed(args_path, i)
            available = self.read_arg(arg, arg_path, memory)
            if "tensor_map" in arg or "chip" in arg:
                _fail(arg_path,
                      "a library call's argument has no tensor_map or chip")
            needed = batch * rows * cols * _DTYPE_BYTES[element]
            if needed > available:
                amount = ("more than 2^48" if needed > _MAX_BYTES
                          else str(needed))
                _fail(arg_path, f"is bound to {available} bytes; the matmul "
                                f"needs {amount}")
            if i == 3 and (arg.get("kind"), arg.get("index")) == (
                    args[2].get("kind"), args[2].get("index")):
                _fail(arg_path, "is the result; a library matmul's addend is "
                                "another buffer")

    def read_shared_memory(self, value, path):
        """Dynamic shared memory: bytes for every chip, or an object of bytes
        by chip naming each chip of `ptx`."""
        if not isinstance(value, dict):
            _integer(value, path, 0, _INT32_MAX)
            return
        for chip, count in value.items():
            if chip not in self.chips:
                _fail(path, f'"{chip}" is not a chip of ptx')
            _integer(count, _member(path, chip), 0, _INT32_MAX)
        for chip in self.chips:
            if chip not in value:
                _fail(path, f"no bytes for {chip}, a chip of ptx")

    def read_arg(self, value, path, memory):
        """A launch argument; returns the bytes of the memory it is bound
        to."""
        _check_object(value, path, ("kind", "index", "tensor_map", "chip"))
        kind_path, index_path = _member(path, "kind"), _member(path, "index")
        kind = _field(value, path, "kind")
        index = _field(value, path, "index")
        if _string(kind, kind_path) not in memory:
            _fail(kind_path, f'unknown argument kind "{kind}" (expected '
                             "input, output or buffer)")
        count = len(memory[kind])
        if _integer(index, index_path, 0, _MAX_BYTES) >= count:
            _fail(index_path, f"{index} is out of range: the function has "
                              f"{count} {kind}s")
        if "chip" in value:
            chip_path = _member(path, "chip")
            chip = _string(value["chip"], chip_path)
            if chip not in self.chips:
                _fail(chip_path, f'"{chip}" is not a chip of ptx')
        if "tensor_map" in value:
            _read_tensor_map(value["tensor_map"], _member(path, "tensor_map"),
                             memory[kind][index])
        return memory[kind][index]


def parse_plan(data):
    """The Plan of the plan.json text `data` (bytes), checked as the
    runtime library checks it; raises PlanError naming the field, or the
    line and column of text that is not JSON."""
    return _PlanReader().read(_parse_json(data))


def read_plan(directory):
    """The Plan of the bundle in `directory`: parse_plan of its plan.json,
    whose PTX files must exist. Raises PlanError naming the bundle and the
    field."""
    root = pathlib.Path(directory)
    if not root.is_dir():
        raise PlanError(f"bundle {directory}: not a directory")
    try:
        data = (root / "plan.json").read_bytes()
    except OSError:
        raise PlanError(f"bundle {directory}: cannot read "
                        f"{root / 'plan.json'}") from None
    try:
        plan = parse_plan(data)
    except PlanError as error:
        raise PlanError(f"bundle {directory}: {error}") from None
    for chip, file in sorted(plan.ptx.items()):
        if not os.path.isfile(root / file):
            raise PlanError(f"bundle {directory}: plan.json: ptx.{chip}: "
                            f'file "{file}" not found')
    return plan
