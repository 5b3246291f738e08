"""Kernel graphs built from Python, as the public Mirage API builds them.

    import mirage as mi
    graph = mi.new_kernel_graph()
    X = graph.new_input(dims=(8, 4096), dtype=mi.float16)
    W = graph.new_input(dims=(4096, 6144), dtype=mi.float16)
    Z = graph.matmul(graph.rms_norm(X, normalized_shape=(4096,)), W)
    graph.mark_output(Z)
    print(graph.to_mlir())

Every op checks its operands when it is added, with the dialect's rules
(docs/LanguageReference.md), and raises ValueError naming the op and the
shapes; `to_mlir()` prints the graph as a `mirage_kernel` function, which
`verify()` hands to the compiler (mirage.compiler) for the final word.
"""

import math
import re
import struct

from mirage import compiler, kernel, visualize

__all__ = ["DType", "float16", "bfloat16", "float32", "Tensor", "KernelGraph",
           "new_kernel_graph", "new_graph", "from_mlir", "load",
           "UNARY_OPS", "BINARY_OPS"]


class DType:
    """An element type: its MLIR name and its torch name."""

    def __init__(self, mlir, torch_name):
        self.mlir, self.torch_name = mlir, torch_name

    def __repr__(self):
        return f"mirage.{self.torch_name}"


float16 = DType("f16", "float16")
bfloat16 = DType("bf16", "bfloat16")
float32 = DType("f32", "float32")
DTYPES = (float16, bfloat16, float32)

#: Elementwise functions of one operand and of two (broadcasting), by
#: mnemonic, as the dialect defines them.
UNARY_OPS = ("exp", "square", "sqrt", "rsqrt", "silu", "gelu", "relu", "neg")
BINARY_OPS = ("add", "sub", "mul", "div", "pow")


def _dtype(value, op):
    if isinstance(value, DType):
        return value
    for dtype in DTYPES:
        if value in (dtype.mlir, dtype.torch_name) or (
                getattr(value, "__module__", "") == "torch"
                and str(value) == f"torch.{dtype.torch_name}"):
            return dtype
    raise ValueError(f"{op}: unsupported dtype {value!r}; use mirage.float16, "
                     "mirage.bfloat16 or mirage.float32")


def _float_text(value):
    """`value`, rounded to f32 (the attributes' type), as an MLIR float
    literal (which needs its decimal point)."""
    return f"{struct.unpack('f', struct.pack('f', value))[0]:.9e}"


def eps_text(op, eps):
    """The ` eps E` of `op` (rms_norm, forloop_accum rms_last), checked;
    empty for 0."""
    if not math.isfinite(eps) or eps < 0:
        raise ValueError(f"{op}: eps must be finite and >= 0, got {eps}")
    return f" eps {_float_text(float(eps))}" if eps else ""


def _shape_text(dims):
    return "(" + ", ".join(str(d) for d in dims) + ")"


def rms_norm_text(A, normalized_shape, eps):
    """The `rms_norm` op on `A` (a kernel tensor or a tile), checked: its
    text after the result's name."""
    shape = tuple(normalized_shape)
    if not shape or A.dims[-len(shape):] != shape:
        raise ValueError(f"rms_norm: normalized_shape {_shape_text(shape)} "
                         f"is not the trailing dimensions of "
                         f"{_shape_text(A.dims)}")
    text = f"rms_norm {A.name} size {math.prod(shape)}"
    text += eps_text("rms_norm", eps)
    return f"{text} : {A.type}"


def trailing_shape(dims, size):
    """The trailing dimensions of `dims` whose product is `size`."""
    product = 1
    for count in range(1, len(dims) + 1):
        product *= dims[-count]
        if product == size:
            return dims[-count:]
    raise ValueError(f"rms_norm: size {size} is not the product of trailing "
                     f"dimensions of {_shape_text(dims)}")


class Tensor:
    """A value of a kernel graph: its shape (`dims`), dtype and SSA name."""

    def __init__(self, graph, name, dims, dtype):
        self.graph, self.name = graph, name
        self.dims, self.dtype = tuple(dims), dtype

    @property
    def num_dims(self):
        return len(self.dims)

    def dim(self, i):
        return self.dims[i]

    @property
    def type(self):
        """The MLIR type, e.g. `tensor<8x4096xf16>`."""
        return "tensor<" + "x".join(map(str, self.dims)) + \
            f"x{self.dtype.mlir}>"

    def __repr__(self):
        return f"Tensor({_shape_text(self.dims)}, {self.dtype!r})"


class KernelGraph:
    """A kernel graph under construction: inputs, ops and outputs."""

    def __init__(self, name="graph"):
        if not name.isidentifier():
            raise ValueError(f"new_kernel_graph: the name {name!r} is not an "
                             "identifier")
        self.name = name
        self.inputs, self.outputs, self._lines = [], [], []
        self._count = 0

    # -- values --------------------------------------------------------------

    def _value(self, dims, dtype):
        tensor = Tensor(self, f"%v{self._count}", dims, dtype)
        self._count += 1
        return tensor

    def _own(self, op, *tensors):
        for tensor in tensors:
            if not isinstance(tensor, Tensor):
                raise TypeError(f"{op}: expected a mirage Tensor, got "
                                f"{type(tensor).__name__}")
            if tensor.graph is not self:
                raise ValueError(f"{op}: {tensor!r} belongs to another graph")

    def new_input(self, dims, dtype=float16, strides=None):
        """A new input of shape `dims`; `strides`, when given, must be the
        row-major ones (inputs are contiguous)."""
        dims = tuple(dims)
        if not dims or any(not isinstance(d, int) or d <= 0 for d in dims):
            raise ValueError(f"new_input: dims must be positive integers, got "
                             f"{_shape_text(dims)}")
        dtype = _dtype(dtype, "new_input")
        if strides is not None:
            contiguous = tuple(math.prod(dims[i + 1:]) for i in
                               range(len(dims)))
            if tuple(strides) != contiguous:
                raise ValueError(
                    f"new_input: strides {_shape_text(strides)} for dims "
                    f"{_shape_text(dims)} are not row-major "
                    f"{_shape_text(contiguous)}; inputs are contiguous")
        tensor = Tensor(self, f"%arg{len(self.inputs)}", dims, dtype)
        self.inputs.append(tensor)
        return tensor

    def mark_output(self, tensor):
        """Makes `tensor` an output of the graph (in call order)."""
        self._own("mark_output", tensor)
        self.outputs.append(tensor)

    # -- ops -----------------------------------------------------------------

    def _emit(self, text, result):
        self._lines.append(f"  {result.name} = mirage_kernel.{text}")
        return result

    def matmul(self, A, B, out_dtype=None):
        """Batched A @ B: (..., m, k) by (..., k, n) -> (..., m, n), in the
        operands' dtype or f32 (`out_dtype`)."""
        self._own("matmul", A, B)
        where = f"matmul: {_shape_text(A.dims)} by {_shape_text(B.dims)}"
        if A.num_dims < 2 or A.num_dims != B.num_dims:
            raise ValueError(f"{where}: operands need the same rank, 2 or more")
        if A.dtype is not B.dtype:
            raise ValueError(f"{where}: dtypes differ ({A.dtype!r}, "
                             f"{B.dtype!r})")
        if A.dims[:-2] != B.dims[:-2]:
            raise ValueError(f"{where}: batch dimensions differ")
        if A.dims[-1] != B.dims[-2]:
            raise ValueError(f"{where}: contracting dimensions differ "
                             f"({A.dims[-1]} vs {B.dims[-2]})")
        dtype = A.dtype if out_dtype is None else _dtype(out_dtype, "matmul")
        if dtype not in (A.dtype, float32):
            raise ValueError(f"{where}: out_dtype must be the operands' or "
                             "float32")
        C = self._value(A.dims[:-1] + (B.dims[-1],), dtype)
        return self._emit(f"matmul {A.name}, {B.name} : {A.type}, {B.type} "
                          f"-> {C.type}", C)

    def _unary(self, op, A):
        self._own(op, A)
        return self._emit(f"{op} {A.name} : {A.type}",
                          self._value(A.dims, A.dtype))

    def _binary(self, op, A, B):
        self._own(op, A, B)
        where = f"{op}: {_shape_text(A.dims)} and {_shape_text(B.dims)}"
        if A.dtype is not B.dtype:
            raise ValueError(f"{where}: dtypes differ ({A.dtype!r}, "
                             f"{B.dtype!r})")
        if A.num_dims != B.num_dims:
            raise ValueError(f"{where}: ranks differ (broadcasting needs the "
                             "same rank, with 1 where a dimension repeats)")
        dims = []
        for i, (a, b) in enumerate(zip(A.dims, B.dims)):
            if a != b and 1 not in (a, b):
                raise ValueError(f"{where}: dimension {i} does not broadcast "
                                 f"({a} vs {b})")
            dims.append(max(a, b))
        C = self._value(dims, A.dtype)
        return self._emit(f"{op} {A.name}, {B.name} : {A.type}, {B.type} -> "
                          f"{C.type}", C)

    def mul_scalar(self, A, value):
        """A * value, for a Python number."""
        self._own("mul_scalar", A)
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"mul_scalar: the factor must be finite, got "
                             f"{value}")
        return self._emit(f"mul_scalar {A.name} by {_float_text(value)} : {A.type}",
                          self._value(A.dims, A.dtype))

    def reduction(self, A, dim, size=1):
        """Strided sum of dimension `dim` down to `size` elements."""
        self._own("reduction", A)
        if not -A.num_dims <= dim < A.num_dims:
            raise ValueError(f"reduction: dim {dim} is out of range for "
                             f"{_shape_text(A.dims)}")
        dim %= A.num_dims
        if size <= 0 or A.dims[dim] % size:
            raise ValueError(f"reduction: size {size} does not divide "
                             f"dimension {dim} of {_shape_text(A.dims)}")
        dims = list(A.dims)
        dims[dim] = size
        C = self._value(dims, A.dtype)
        suffix = f" size {size}" if size != 1 else ""
        return self._emit(f"reduction {A.name} dim {dim}{suffix} : {A.type} "
                          f"-> {C.type}", C)

    def reduction_max(self, A, dim):
        """Maximum of dimension `dim`, which becomes 1: the stabiliser of
        softmax as models write it, exp(x - max(x)) / sum(exp(x - max(x)))."""
        self._own("reduction_max", A)
        if not -A.num_dims <= dim < A.num_dims:
            raise ValueError(f"reduction_max: dim {dim} is out of range for "
                             f"{_shape_text(A.dims)}")
        dim %= A.num_dims
        dims = list(A.dims)
        dims[dim] = 1
        C = self._value(dims, A.dtype)
        return self._emit(f"reduction_max {A.name} dim {dim} : {A.type} -> "
                          f"{C.type}", C)

    def rms_norm(self, A, normalized_shape, eps=0.0):
        """x / sqrt(mean(x²) + eps) over the trailing `normalized_shape`."""
        self._own("rms_norm", A)
        return self._emit(rms_norm_text(A, normalized_shape, eps),
                          self._value(A.dims, A.dtype))

    def concat(self, A, B, dim):
        """A and B joined along `dim`."""
        self._own("concat", A, B)
        where = f"concat: {_shape_text(A.dims)} and {_shape_text(B.dims)}"
        if A.dtype is not B.dtype or A.num_dims != B.num_dims:
            raise ValueError(f"{where}: dtypes and ranks must agree")
        if not 0 <= dim < A.num_dims:
            raise ValueError(f"{where}: dim {dim} is out of range")
        if any(a != b for i, (a, b) in enumerate(zip(A.dims, B.dims))
               if i != dim):
            raise ValueError(f"{where}: they differ outside dimension {dim}")
        dims = list(A.dims)
        dims[dim] += B.dims[dim]
        C = self._value(dims, A.dtype)
        return self._emit(f"concat {A.name}, {B.name} dim {dim} : {A.type}, "
                          f"{B.type} -> {C.type}", C)

    def chunk(self, A, chunks, dim):
        """`chunks` equal parts of A along `dim`, as a list."""
        self._own("chunk", A)
        if not 0 <= dim < A.num_dims or chunks < 2 or A.dims[dim] % chunks:
            raise ValueError(f"chunk: {chunks} parts of dimension {dim} of "
                             f"{_shape_text(A.dims)} are not equal")
        dims = list(A.dims)
        dims[dim] //= chunks
        parts = [self._value(dims, A.dtype) for _ in range(chunks)]
        names = ", ".join(p.name for p in parts)
        types = ", ".join(p.type for p in parts)
        self._lines.append(f"  {names} = mirage_kernel.chunk {A.name} dim "
                           f"{dim} parts {chunks} : {A.type} -> {types}")
        return parts

    def customized(self, inputs, tb_graph):
        """Adds the custom kernel that thread-block graph `tb_graph`
        describes (mirage.blockgraph), on kernel tensors `inputs` (those its
        new_input calls named, in order); returns its outputs, a list."""
        self._own("customized", *inputs)
        expected = [dtensor for dtensor, *_ in tb_graph.inputs]
        if len(inputs) != len(expected) or any(
                a is not b for a, b in zip(inputs, expected)):
            raise ValueError("customized: inputs must be the tensors the "
                             "thread-block graph's new_input calls took, in "
                             "order")
        if not tb_graph.outputs:
            raise ValueError("customized: the thread-block graph has no "
                             "output; call new_output")
        lines, results = tb_graph.body([t.name for t in inputs])
        outputs = [self._value(dims, dtype) for dims, dtype in results]
        names = ", ".join(t.name for t in outputs)
        self._lines.append(f"  {names} = {lines[0]}")
        self._lines.extend("  " + line for line in lines[1:])
        return outputs

    # -- printing ------------------------------------------------------------

    def to_mlir(self, name=None):
        """The graph as one `func.func` of `mirage_kernel` ops."""
        if not self.outputs:
            raise ValueError("to_mlir: the graph has no output; call "
                             "mark_output")
        name = name or self.name
        if not name.isidentifier():
            raise ValueError(f"to_mlir: the name {name!r} is not an "
                             "identifier")
        arguments = ", ".join(f"{t.name}: {t.type}" for t in self.inputs)
        results = ", ".join(t.type for t in self.outputs)
        returned = ", ".join(t.name for t in self.outputs)
        return "\n".join(
            [f"func.func @{name}({arguments}) -> ({results}) {{", *self._lines,
             f"  return {returned} : {results}", "}", ""])

    def superoptimize(self, time_limit=60, search_threads=None,
                      griddims=None, franges=None, chips=(), progress=None,
                      tune=None, **options):
        """Searches, verifies and compiles the graph: a mirage.kernel.Kernel
        callable on torch tensors (see mirage.kernel.superoptimize)."""
        return kernel.superoptimize(self, time_limit, search_threads,
                                    griddims, franges, chips, progress, tune,
                                    **options)

    def visualize(self, path):
        """Draws the graph with Graphviz into `path` (.svg, .png, .pdf, or
        .dot for the source; mirage.visualize)."""
        return visualize.render(self.to_mlir(), path, self.name)

    def generate_triton_program(self, path):
        """Writes the graph as a Triton Python module to `path`
        (docs/Triton.md), as the public implementation's method does."""
        return compiler.write_triton_program(self.to_mlir(), path,
                                             name=f"{self.name}.mlir")

    def save(self, path):
        """Writes the graph to `path`: as the public implementation's µGraph
        JSON for a `.json` path, else as MLIR (to_mlir); mirage.load reads
        either back."""
        text = self.to_mlir()
        if str(path).endswith(".json"):
                text = compiler.export_mirage_json(text, name=str(path))
        with open(path, "w") as f:
            f.write(text)

    def compile(self, chips=()):
        """The graph as written, compiled into a bundle: a
        mirage.kernel.Kernel (no search; for graphs with custom kernels)."""
        return kernel.compile_graph(self, chips)

    def verify(self):
        """Hands the graph to the compiler, which parses and verifies it;
        raises mirage.compiler.CompilerError on a rejection."""
        compiler.run_pipeline(self.to_mlir(), name=f"{self.name}.mlir")


def _replay(graph, op, args, description):
    """Adds op `op` of a described program (compiler.describe_function) to
    `graph`; `args` are its operands as Tensors."""
    kind = op["op"]
    if kind in UNARY_OPS or kind in BINARY_OPS:
        return [getattr(graph, kind)(*args)]
    if kind == "mul_scalar":
        return [graph.mul_scalar(args[0], op["value"])]
    if kind == "matmul":
        result = description["values"][op["results"][0]]
        return [graph.matmul(*args, out_dtype=result["dtype"])]
    if kind == "reduction":
        return [graph.reduction(args[0], op["dim"], op.get("size", 1))]
    if kind == "reduction_max":
        return [graph.reduction_max(args[0], op["dim"])]
    if kind == "rms_norm":
        return [graph.rms_norm(args[0], trailing_shape(args[0].dims,
                                                       op["size"]),
                               op.get("eps", 0.0))]
    if kind == "concat":
        return [graph.concat(*args, op["dim"])]
    if kind == "chunk":
        return graph.chunk(args[0], op["parts"], op["dim"])
    if kind == "graph_def":
        # blockgraph builds on this module: imported here, not at the top.
        from mirage import blockgraph
        return blockgraph.rebuild_graph_def(graph, op, args)
    raise ValueError(f"from_mlir: @{graph.name} holds a {kind} op, which "
                     "graphs built in Python do not have (pass its MLIR to "
                     "check_equivalence or to mirage.compiler)")


def from_mlir(text, function=None):
    """The KernelGraph of function `function` of MLIR `text` (default: its
    only function with a body), as the compiler parses and verifies it."""
    description = compiler.describe_function(text, function or "",
                                             name="from_mlir.mlir")
    if function is None:
        names = re.findall(r"func\.func\s+(?:public\s+)?@(\w+)\s*\(", text)
        function = names[0] if len(names) == 1 else "graph"
    graph = KernelGraph(function)
    values = description["values"]
    tensors = {}
    for index in description["inputs"]:
        tensors[index] = graph.new_input(values[index]["shape"],
                                         values[index]["dtype"])
    for op in description["ops"]:
        results = _replay(graph, op, [tensors[i] for i in op["operands"]],
                          description)
        tensors.update(zip(op["results"], results))
    for index in description["outputs"]:
        graph.mark_output(tensors[index])
    return graph


def load(path, function=None):
    """The graph in `path`: MLIR, or for a `.json` path a µGraph file of the
    public implementation (its graph `i` is the function `graph_<i>`), such
    as `KernelGraph.save` writes."""
    with open(path) as f:
        text = f.read()
    if str(path).endswith(".json"):
        text = compiler.import_mirage_json(text, name=str(path))
    return from_mlir(text, function)


def new_kernel_graph(name="graph"):
    """A new, empty kernel graph."""
    return KernelGraph(name)


#: The public implementation's older name.
new_graph = new_kernel_graph


def add_elementwise_methods(cls):
    """Gives `cls` a method per elementwise function, calling its `_unary`
    or `_binary` (kernel and thread-block graphs alike)."""
    for op in UNARY_OPS:
        def unary(self, A, op=op):
            return self._unary(op, A)
        unary.__name__ = op
        unary.__doc__ = f"Elementwise {op} of A."
        setattr(cls, op, unary)
    for op in BINARY_OPS:
        def binary(self, A, B, op=op):
            return self._binary(op, A, B)
        binary.__name__ = op
        binary.__doc__ = f"Elementwise {op} of A and B, broadcasting."
        setattr(cls, op, binary)


add_elementwise_methods(KernelGraph)
