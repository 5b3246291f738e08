"""Reads the plan.json of a bundle (docs/Runtime.md): its functions'
signatures, the programs recorded for testing, and the PTX file of each
chip.

Only what Python needs is checked here; the runtime library validates
everything when it loads the bundle. The runtime (mirage.runtime), the
program interpreter (mirage.interpreter) and the benchmark scripts share
this reader and its tensor types.
"""

import json
import pathlib

__all__ = [
    "DTYPES",
    "FunctionSpec",
    "Plan",
    "TensorSpec",
    "contiguous_strides",
    "read_plan",
    "read_tensor_spec",
]

#: The element types of bundle tensors.
DTYPES = ("f16", "bf16", "f32")


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


class FunctionSpec:
    """A bundle function's signature, and the programs plan.json records for
    testing, if any: `reference` (what it must compute) and `program` (what
    was compiled)."""

    def __init__(self, name, inputs, outputs, reference=None, program=None):
        self.name = name
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.reference = reference
        self.program = program

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
    ...}); raises `error` with a message starting with `where` when it is
    not one: the shape must be a list of positive integers, the dtype one
    of DTYPES."""
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


def _tensor_specs(value, where):
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list")
    return [read_tensor_spec(tensor, f"{where}[{i}]")
            for i, tensor in enumerate(value)]


def _function_spec(function, where):
    if not isinstance(function, dict):
        raise ValueError(f"{where}: expected an object")
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}.name: expected a non-empty string")
    return FunctionSpec(name,
                        _tensor_specs(function.get("inputs"),
                                      where + ".inputs"),
                        _tensor_specs(function.get("outputs"),
                                      where + ".outputs"),
                        function.get("reference"), function.get("program"))


def read_plan(directory):
    """The Plan of the bundle in `directory`; raises ValueError naming the
    file and the field when plan.json cannot be read or is malformed."""
    path = pathlib.Path(directory) / "plan.json"
    try:
        text = path.read_text()
    except OSError as error:
        raise ValueError(f"{path}: cannot read: {error.strerror}") from None
    try:
        plan = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: invalid JSON: {error}") from None
    if not isinstance(plan, dict):
        raise ValueError(f"{path}: expected an object")
    if plan.get("format") != "mirage-bundle":
        raise ValueError(f'{path}: format: expected "mirage-bundle"')
    if plan.get("version") != 1:
        raise ValueError(f"{path}: version: unsupported version "
                         f"{plan.get('version')!r} (expected 1)")
    functions = plan.get("functions")
    if not isinstance(functions, list) or not functions:
        raise ValueError(f"{path}: functions: expected a non-empty list")
    ptx = plan.get("ptx")
    if not isinstance(ptx, dict) or not ptx or not all(
            isinstance(name, str) for name in ptx.values()):
        raise ValueError(f"{path}: ptx: expected an object from chip to PTX "
                         "file name")
    specs = {}
    for i, function in enumerate(functions):
        spec = _function_spec(function, f"{path}: functions[{i}]")
        if spec.name in specs:
            raise ValueError(f"{path}: functions[{i}].name: duplicate "
                             f"function name {spec.name!r}")
        specs[spec.name] = spec
    return Plan(specs, dict(ptx))
