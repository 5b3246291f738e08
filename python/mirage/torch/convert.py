"""FX nodes as kernel-graph ops: which nodes Mirage expresses, and the
conversion of a set of them into a `mirage.KernelGraph`.

Every tensor of a converted subgraph is held in *row form*: a value of
shape (d0, ..., dn-2, dn-1) becomes a matrix of prod(d0..dn-2) rows and
dn-1 columns, and a vector (n,) becomes (1, n). Linear layers, row-wise
norms, reductions over the last dimension and elementwise ops with the
broadcasting models use (a bias or a norm's weight over columns, a per-row
factor over rows) all keep their meaning there, and the search sees the
2-D programs it knows. The callers' tensors are reshaped on the way in and
out (a view for contiguous tensors).

A linear layer's weight (n, k) enters as its transpose (k, n), which the
partition keeps as a copy made once (docs/TorchCompile.md, "Weights"), so
only weights that are parameters or buffers of the model qualify.
"""

import math
import operator

import torch

from mirage import graph as kernel_graph

__all__ = ["DTYPES", "Unsupported", "Input", "Output", "Converted",
           "is_supported",
           "is_matmul", "is_row_reduction", "convert", "has_symbolic_shape",
           "rms_norm", "tensor_meta"]

#: The kernel graph's dtype of each torch dtype a subgraph may hold.
DTYPES = {torch.float16: kernel_graph.float16,
           torch.bfloat16: kernel_graph.bfloat16}


class Unsupported(Exception):
    """A node or subgraph that the kernel dialect does not express; the
    message says which and why."""


def rms_norm(x, eps):
    """The RMSNorm models write, without its weight: x / sqrt(mean(x², -1) +
    eps), computed in f32 and returned in x's dtype. The backend rewrites
    the decomposed form (Hugging Face's LlamaRMSNorm) into a call of this,
    which the partitioner sees as one node."""
    y = x.float()
    return (y * torch.rsqrt(y.pow(2).mean(-1, keepdim=True) + eps)).to(
        x.dtype)


def tensor_meta(node):
    """(shape, dtype) of the tensor `node` yields, from Dynamo's
    example_value, aot's val or ShapeProp's tensor_meta; None when it is no
    tensor or its shape is not static."""
    if not hasattr(node, "meta"):
        return None
    value = node.meta.get("example_value", node.meta.get("val"))
    if value is None:
        value = node.meta.get("tensor_meta")
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None or dtype is None:
        return None
    if any(type(d) is not int for d in shape):
        return None
    return tuple(shape), dtype


def has_symbolic_shape(node):
    """Whether `node` yields a tensor whose shape is not static (Dynamo's
    dynamic dimensions)."""
    meta = getattr(node, "meta", {})
    value = meta.get("example_value", meta.get("val"))
    shape = getattr(value, "shape", None)
    return shape is not None and any(type(d) is not int for d in shape)


def _rows(shape):
    """The row form of `shape`."""
    if len(shape) == 1:
        return (1, shape[0])
    return (math.prod(shape[:-1]), shape[-1])


# -- the supported targets ---------------------------------------------------

def _functions(*names):
    """The torch functions among `names` ("module.attr"), those this torch
    has."""
    found = []
    for name in names:
        module, _, attribute = name.rpartition(".")
        owner = {"torch": torch,
                 "torch._C._nn": getattr(torch._C, "_nn", None),
                 "torch.nn.functional": torch.nn.functional}[module]
        if owner is not None and hasattr(owner, attribute):
            found.append(getattr(owner, attribute))
    return found


def _table(entries):
    """{target: kind} from (kind, functions, methods) entries; methods are
    the names of call_method nodes."""
    table = {}
    for kind, functions, methods in entries:
        for function in functions:
            table[function] = kind
        for method in methods:
            table[method] = kind
    return table


_KINDS = _table([
    ("linear", _functions("torch.nn.functional.linear", "torch._C._nn.linear"),
     ()),
    ("matmul", [operator.matmul] + _functions("torch.matmul", "torch.mm"),
     ("matmul", "mm")),
    ("add", [operator.add] + _functions("torch.add"), ("add",)),
    ("sub", [operator.sub] + _functions("torch.sub"), ("sub",)),
    ("mul", [operator.mul] + _functions("torch.mul"), ("mul",)),
    ("div", [operator.truediv] + _functions("torch.div"), ("div",)),
    ("neg", [operator.neg] + _functions("torch.neg"), ("neg",)),
    ("exp", _functions("torch.exp"), ("exp",)),
    ("sqrt", _functions("torch.sqrt"), ("sqrt",)),
    ("rsqrt", _functions("torch.rsqrt"), ("rsqrt",)),
    ("square", _functions("torch.square"), ("square",)),
    ("pow", _functions("torch.pow"), ("pow",)),
    ("relu", _functions("torch.relu", "torch.nn.functional.relu",
                        "torch._C._nn.relu"), ("relu",)),
    ("silu", _functions("torch.nn.functional.silu", "torch._C._nn.silu"), ()),
    ("gelu", _functions("torch.nn.functional.gelu", "torch._C._nn.gelu"), ()),
    ("sum", _functions("torch.sum"), ("sum",)),
    ("mean", _functions("torch.mean"), ("mean",)),
    ("rms_norm", [rms_norm] + _functions("torch.nn.functional.rms_norm"), ()),
    ("softmax", _functions("torch.softmax", "torch.nn.functional.softmax"),
     ("softmax",)),
    ("same", [], ("to", "type", "contiguous", "float", "half", "bfloat16",
                  "type_as")),
    ("getitem", [operator.getitem], ()),
])

#: Parameter names of the call_function targets whose arguments matter
#: beyond the first two (read by keyword or position).
_PARAMETERS = {
    "linear": ("input", "weight", "bias"),
    "gelu": ("input", "approximate"),
    "sum": ("input", "dim", "keepdim", "dtype"),
    "mean": ("input", "dim", "keepdim", "dtype"),
    "rms_norm": ("input", "normalized_shape", "weight", "eps"),
    "pow": ("input", "exponent"),
    "add": ("input", "other", "alpha"),
    "sub": ("input", "other", "alpha"),
    "div": ("input", "other", "rounding_mode"),
    "softmax": ("input", "dim"),
}


def _whole_slices(index):
    """Whether a getitem's `index` holds only slices of step 1 with constant
    bounds, and Ellipsis: with the shape unchanged, such an index keeps
    every element (Hugging Face's `h[:, slice(0, None), :]` before its LM
    head)."""
    parts = index if isinstance(index, tuple) else (index,)
    return all(part is Ellipsis or (
        isinstance(part, slice) and part.step in (None, 1) and
        not any(hasattr(bound, "op") for bound in (part.start, part.stop)))
        for part in parts)


def _kind(node):
    if node.op not in ("call_function", "call_method"):
        return None
    try:
        return _KINDS.get(node.target)
    except TypeError:  # an unhashable target
        return None


def _arguments(node, kind):
    """{name: value} of `node`'s arguments (nodes or constants)."""
    names = _PARAMETERS.get(kind, ("input", "other"))
    values = dict(zip(names, node.args))
    values.update(node.kwargs)
    return values


def is_matmul(node):
    """Whether `node` is a matmul or a linear layer."""
    return _kind(node) in ("linear", "matmul")


def is_row_reduction(node):
    """Whether `node` reduces rows: a norm, a sum or a mean."""
    return _kind(node) in ("rms_norm", "sum", "mean")


def is_supported(node, is_static):
    """Whether `node` may join a Mirage subgraph: a supported op on
    half-precision tensors of static shape whose operands fit (a weight
    that is a parameter or buffer, broadcasts that row form keeps):
    whether it converts on its own. `is_static` is as for `convert`."""
    kind = _kind(node)
    if kind is None:
        return False
    result = tensor_meta(node)
    if result is None or result[1] not in DTYPES or not result[0]:
        return False
    try:
        _Converter([node], is_static).node(node)
    except (Unsupported, ValueError, TypeError):
        return False
    return True


# -- conversion --------------------------------------------------------------

class Input:
    """A kernel input of a converted subgraph, made from the subgraph's
    arguments (FX nodes, `Converted.arguments`) at `sources`:

    - "rows": one argument reshaped into `shape` (its row form, or an
      attention operand's matrices, mirage.torch.attention);
    - "transposed": one argument with its last two dimensions swapped,
      reshaped into `shape` (attention's keys). In a model's graph the
      argument comes stored transposed (partition.stored_transposed), so
      this is a view; otherwise a copy per call;
    - "weights": linear layers' weights (n_i, k) stacked, each column j
      times scale[j] when `scaled` (the last source is then the scale: a
      norm's weight folded into the layers it feeds), transposed into
      (k, sum n_i): made once and kept (see dynamo.Subgraph)."""

    def __init__(self, kind, sources, shape, scaled=False):
        self.kind = kind
        self.sources = sources
        self.shape = shape
        self.scaled = scaled

    def __repr__(self):
        scaled = " scaled" if self.scaled else ""
        return f"Input({self.kind}{scaled} {self.sources}: {self.shape})"


class Output:
    """A value the subgraph yields: FX node `node` of shape `shape` is
    columns `columns` (a (start, stop) pair, or None for all) of kernel
    output `index`, whose FX shape is `shape` with those columns widened
    to the kernel output's."""

    def __init__(self, node, shape, index, columns=None):
        self.node = node
        self.shape = shape
        self.index = index
        self.columns = columns


class Converted:
    """A subgraph as a KernelGraph: `arguments` (the outside FX nodes it
    reads), `inputs` (Input, in the graph's input order), `outputs`
    (Output) and `kernel_shapes` (the FX shape of each kernel output)."""

    def __init__(self, graph, arguments, inputs, outputs, kernel_shapes):
        self.graph = graph
        self.arguments = arguments
        self.inputs = inputs
        self.outputs = outputs
        self.kernel_shapes = kernel_shapes

    def transposed_arguments(self):
        """The indices into `arguments` of those a "transposed" input
        reads (attention's keys)."""
        return [spec.sources[0] for spec in self.inputs
                if spec.kind == "transposed"]


class _Converter:
    def __init__(self, nodes, is_static):
        self.nodes = nodes
        self.members = set(nodes)
        self.is_static = is_static
        self.graph = kernel_graph.new_kernel_graph("mirage_subgraph")
        self.arguments = []
        self.inputs = []
        self.input_tensors = {}
        self.values = {}
        #: linear node -> (kernel tensor, start, stop): its columns of a
        #: matmul shared with sibling layers.
        self.columns = {}
        #: norm-weight mul node -> its scale node, folded into the weights
        #: of the linear layers it feeds.
        self.folded = {}

    def fail(self, node, message):
        raise Unsupported(f"{node.name}: {message}")

    def source(self, node):
        meta = tensor_meta(node)
        if meta is None or meta[1] not in DTYPES:
            self.fail(node, "an input that is no half-precision tensor of "
                      "static shape")
        if node not in self.arguments:
            self.arguments.append(node)
        return self.arguments.index(node)

    def new_input(self, kind, nodes, shape, scaled=False):
        key = (kind, tuple(nodes), shape)
        if key not in self.input_tensors:
            sources = tuple(self.source(n) for n in nodes)
            self.inputs.append(Input(kind, sources, shape, scaled))
            self.input_tensors[key] = self.graph.new_input(
                shape, dtype=DTYPES[tensor_meta(nodes[0])[1]])
        return self.input_tensors[key]

    def input(self, node, shape):
        return self.new_input("rows", (node,), shape)

    def value(self, argument, user, shape):
        """The kernel tensor of FX value `argument` in row form, read by
        `user` as `shape` (its row form, broadcast as in the model)."""
        if not hasattr(argument, "op"):
            self.fail(user, f"operand {argument!r} is not a tensor")
        if argument in self.members:
            tensor = self.values[argument]
            if tuple(tensor.dims) != shape:
                self.fail(user, f"{argument.name} has row form "
                          f"{tuple(tensor.dims)}, not the {shape} it is "
                          "read as")
            return tensor
        return self.input(argument, shape)

    def operand_rows(self, user, argument, result_shape):
        """The row-form shape of operand `argument` of `user`, whose FX
        result has shape `result_shape`; Unsupported when the broadcast
        does not survive row form."""
        shape = tensor_meta(argument)[0]
        if len(shape) > len(result_shape) or len(result_shape) < 1:
            self.fail(user, "a broadcast that row form cannot express")
        aligned = (1,) * (len(result_shape) - len(shape)) + shape
        leading, result_leading = aligned[:-1], result_shape[:-1]
        rows = math.prod(result_leading) if result_leading else 1
        if leading != result_leading and any(d != 1 for d in leading):
            self.fail(user, f"operand of shape {shape} broadcasts over some "
                      f"rows of {result_shape} but not all")
        if aligned[-1] not in (1, result_shape[-1]):
            self.fail(user, f"operand of shape {shape} does not broadcast "
                      f"to {result_shape}")
        operand_rows = rows if leading == result_leading else 1
        return (operand_rows, aligned[-1])

    def convert(self):
        for node in self.nodes:
            self.values[node] = self.node(node)
        outputs, kernel_outputs, kernel_shapes = [], [], []
        for node in self.nodes:
            if all(user in self.members for user in node.users):
                continue
            if node in self.folded:
                self.fail(node, "a folded norm weight read outside")
            shape = tensor_meta(node)[0]
            tensor, columns = self.values[node], None
            if node in self.columns:
                tensor, start, stop = self.columns[node]
                columns = (start, stop)
            if any(tensor is t for t in self.input_tensors.values()):
                self.fail(node, "an output that only renames an input")
            index = next((i for i, t in enumerate(kernel_outputs)
                          if t is tensor), None)
            if index is None:
                index = len(kernel_outputs)
                kernel_outputs.append(tensor)
                kernel_shapes.append(shape[:-1] + (tensor.dims[-1],))
                self.graph.mark_output(tensor)
            outputs.append(Output(node, shape, index, columns))
        return Converted(self.graph, self.arguments, self.inputs, outputs,
                         kernel_shapes)

    def elementwise(self, node, op, arguments):
        shape = tensor_meta(node)[0]
        rows = _rows(shape)
        tensors = [self.value(a, node, self.operand_rows(node, a, shape))
                   for a in arguments]
        result = getattr(self.graph, op)(*tensors)
        if tuple(result.dims) != rows:
            self.fail(node, "operands that do not cover the result")
        return result

    def scalar(self, node, op, tensor, number):
        number = float(number)
        if op == "mul":
            return self.graph.mul_scalar(tensor, number)
        if op == "div" and number != 0:
            return self.graph.mul_scalar(tensor, 1.0 / number)
        self.fail(node, f"{op} by the number {number} (only multiplication "
                  "and division by a number are expressed)")

    def node(self, node):
        kind = _kind(node)
        arguments = _arguments(node, kind)
        shape = tensor_meta(node)[0]
        rows = _rows(shape)
        first = arguments.get("input")
        if kind in ("same", "getitem"):
            meta = tensor_meta(first) if hasattr(first, "op") else None
            if kind == "getitem" and (meta != tensor_meta(node) or
                                      not _whole_slices(arguments["other"])):
                self.fail(node, "an index that selects part of a tensor "
                          "(whole slices are expressed)")
            if meta != tensor_meta(node):
                self.fail(node, "a conversion that changes dtype or shape")
            return self.value(first, node, rows)
        if kind == "linear":
            return self.linear(node, arguments, rows)
        if kind == "matmul":
            other = arguments.get("other")
            other_shape = tensor_meta(other)[0]
            if len(other_shape) != 2:
                self.fail(node, "a matmul whose right operand is not a "
                          "matrix (batched matmuls are not expressed)")
            x = self.value(first, node, _rows(tensor_meta(first)[0]))
            return self.graph.matmul(x, self.value(other, node, other_shape))
        if kind in ("add", "sub", "mul", "div"):
            other = arguments.get("other")
            if arguments.get("alpha", 1) != 1 or arguments.get(
                    "rounding_mode") is not None:
                self.fail(node, "alpha or rounding_mode")
            tensors = [a for a in (first, other) if hasattr(a, "op")]
            folded = kind == "mul" and self.norm_weight(node, first, other)
            if folded:
                self.folded[node] = folded
                return self.values[folded[0]]
            if len(tensors) == 2:
                return self.elementwise(node, kind, (first, other))
            number = other if hasattr(first, "op") else first
            if not isinstance(number, (int, float)):
                self.fail(node, f"operand {number!r}")
            if kind in ("sub", "div") and not hasattr(first, "op"):
                self.fail(node, f"a number {kind} a tensor")
            return self.scalar(node, kind, self.value(tensors[0], node, rows),
                               number)
        if kind == "pow":
            exponent = arguments.get("exponent")
            op = {2: "square", 0.5: "sqrt", -0.5: "rsqrt"}.get(exponent)
            if op is None:
                self.fail(node, f"pow by {exponent!r} (2, 0.5 and -0.5 are "
                          "expressed)")
            return self.elementwise(node, op, (first,))
        if kind == "gelu" and arguments.get("approximate", "none") != "none":
            self.fail(node, "the tanh approximation of GELU")
        if kind in ("neg", "exp", "sqrt", "rsqrt", "square", "relu", "silu",
                    "gelu"):
            return self.elementwise(node, kind, (first,))
        if kind in ("sum", "mean"):
            return self.reduction(node, kind, arguments, rows)
        if kind == "rms_norm":
            return self.rms_norm(node, arguments, rows)
        if kind == "softmax":
            return self.softmax(node, arguments)
        self.fail(node, "not expressed")

    def is_layer(self, node, x):
        """Whether member `node` is a linear layer without bias on `x` whose
        weight is a parameter."""
        if node not in self.members or _kind(node) != "linear":
            return False
        arguments = _arguments(node, "linear")
        weight = arguments.get("weight")
        return (arguments.get("input") is x and
                arguments.get("bias") is None and
                self.is_static(weight) and weight not in self.members)

    def siblings(self, node, x):
        """The linear layers on `x` that share one matmul with `node`: all
        layers without bias on `x` whose results leave the subgraph
        unread inside it (a QKV projection), when `node` is one of them
        and there are two or more."""
        layers = [u for u in self.nodes if self.is_layer(u, x) and
                  not any(v in self.members for v in u.users)]
        return layers if node in layers and len(layers) > 1 else [node]

    def fold(self, x):
        """(the row-form input, the scale node) of a linear layer on `x`:
        when `x` is a norm's output times the norm's weight (a static
        vector) and only linear layers read it, the product's factors."""
        if x not in self.folded:
            return x, None
        return self.folded[x]

    def linear(self, node, arguments, rows):
        x, weight, bias = (arguments.get(name) for name in
                           ("input", "weight", "bias"))
        if not self.is_static(weight) or weight in self.members:
            self.fail(node, "a linear layer whose weight is not a parameter "
                      "or buffer of the model")
        layers = self.siblings(node, x)
        if layers[0] is not node:
            return self.columns[node][0]
        source, scale = self.fold(x)
        weights = [_arguments(u, "linear")["weight"] for u in layers]
        widths = [tensor_meta(w)[0][0] for w in weights]
        k = tensor_meta(weight)[0][1]
        stacked = self.new_input("weights", weights + ([scale] if scale else
                                                       []),
                                 (k, sum(widths)), scaled=scale is not None)
        result = self.graph.matmul(
            self.value(source, node, _rows(tensor_meta(x)[0])), stacked)
        if len(layers) > 1:
            start = 0
            for layer, width in zip(layers, widths):
                self.columns[layer] = (result, start, start + width)
                start += width
        if bias is not None:
            result = self.graph.add(result,
                                    self.value(bias, node, (1, widths[0])))
        return result

    def norm_weight(self, node, first, other):
        """The scale node when mul `node` multiplies a member rms_norm by a
        static vector and only linear layers read it (see fold)."""
        for norm, scale in ((first, other), (other, first)):
            if (norm in self.members and _kind(norm) == "rms_norm" and
                    hasattr(scale, "op") and self.is_static(scale) and
                    scale not in self.members and
                    len(tensor_meta(scale)[0]) == 1 and node.users and
                    all(self.is_layer(u, node) for u in node.users)):
                return norm, scale
        return None

    def reduction(self, node, kind, arguments, rows):
        first = arguments["input"]
        shape = tensor_meta(first)[0]
        dim = arguments.get("dim")
        if isinstance(dim, (list, tuple)) and len(dim) == 1:
            dim = dim[0]
        if dim not in (-1, len(shape) - 1) or not arguments.get("keepdim"):
            self.fail(node, f"{kind} over dim {dim!r} (the last dimension "
                      "with keepdim=True is expressed)")
        if arguments.get("dtype") is not None:
            self.fail(node, f"{kind} with a dtype")
        total = self.graph.reduction(self.value(first, node, _rows(shape)),
                                     dim=1)
        if kind == "mean":
            total = self.graph.mul_scalar(total, 1.0 / shape[-1])
        return total

    def softmax(self, node, arguments):
        """Softmax over the last dimension as models compute it: the row
        maximum subtracted before `exp` (the search takes it without the
        maximum, then stabilises its candidates)."""
        first = arguments["input"]
        shape = tensor_meta(first)[0]
        dim = arguments.get("dim")
        # A third argument is a dtype (torch.softmax) or F.softmax's
        # _stacklevel followed by one.
        if len(node.args) > 2 or arguments.get("dtype") is not None or \
                dim not in (-1, len(shape) - 1):
            self.fail(node, f"softmax over dim {dim!r} or with a dtype (the "
                      "last dimension, in the input's dtype, is expressed)")
        x = self.value(first, node, _rows(shape))
        shifted = self.graph.sub(x, self.graph.reduction_max(x, dim=1))
        e = self.graph.exp(shifted)
        return self.graph.div(e, self.graph.reduction(e, dim=1))

    def rms_norm(self, node, arguments, rows):
        first = arguments["input"]
        normalized = arguments.get("normalized_shape")
        if normalized is not None and tuple(normalized) != (rows[1],):
            self.fail(node, "a norm over more than the last dimension")
        eps = arguments.get("eps")
        if eps is None:
            eps = torch.finfo(tensor_meta(first)[1]).eps
        result = self.graph.rms_norm(self.value(first, node, rows),
                                     normalized_shape=(rows[1],),
                                     eps=float(eps))
        weight = arguments.get("weight")
        if weight is not None:
            result = self.graph.mul(result,
                                    self.value(weight, node, (1, rows[1])))
        return result


def convert(nodes, is_static):
    """The FX nodes `nodes` (in topological order) as a KernelGraph;
    `is_static(node)` says whether an outside node is a parameter or buffer
    (a weight that may be copied once). Raises Unsupported."""
    try:
        return _Converter(list(nodes), is_static).convert()
    except (ValueError, TypeError) as error:
        raise Unsupported(str(error)) from error
