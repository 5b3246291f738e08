"""One CUDA graph per compiled graph, for the modes that ask for CUDA graphs
(`mode="reduce-overhead"`, `"max-autotune"`; docs/TorchCompile.md, "CUDA
graphs").

Inductor's CUDA graph trees keep a tree of graphs that share one memory
pool, check their invariants on every call and track the liveness of each
output; at decode sizes that CPU work outlasts the GPU's. A compiled graph
that reads only CUDA tensors and writes none of the inputs it is handed
anew each call needs less: the runner here copies those inputs into
buffers of its own, replays one CUDA graph, and returns copies of the
outputs (so an output kept from one call stays valid after the next).
Inputs that hold parameters and buffers are read where they are; when one
moves, the graph is captured again.
"""

import operator
import warnings

import torch

from mirage.torch import partition

__all__ = ["CudaGraphRunner", "blocker", "capture_cuda_graph",
           "static_indices", "written_input"]

#: Captures after which a graph whose parameters keep moving runs without a
#: CUDA graph (Inductor's trees stop re-recording likewise).
MAX_CAPTURES = 8


def static_indices(gm, example_inputs):
    """The indices of `gm`'s inputs that hold parameters or buffers."""
    static = partition.static_inputs(gm, example_inputs)
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    return [i for i, node in enumerate(placeholders) if node in static]


def _mutates(node):
    """Whether `node` writes into its first argument."""
    if node.op not in ("call_method", "call_function"):
        return False
    if node.target is operator.setitem or node.kwargs.get("inplace") or \
            node.kwargs.get("out") is not None:
        return True
    schema = getattr(node.target, "_schema", None)
    if schema is not None:
        return schema.is_mutable
    name = _name(node)
    return name.endswith("_") and not name.startswith("_")


#: Ops whose result is a new tensor, never a view of their first argument.
FRESH = frozenset((
    "add", "sub", "mul", "div", "truediv", "floordiv", "neg", "pow", "exp",
    "rsqrt", "sqrt", "matmul", "mm", "bmm", "linear", "mean", "sum",
    "softmax", "silu", "relu", "gelu", "sigmoid", "tanh", "where", "cat",
    "stack", "clone", "zeros_like", "ones_like", "empty_like", "full_like",
    "new_zeros", "new_ones", "new_empty", "new_full", "embedding",
    "scaled_dot_product_attention", "rms_norm", "layer_norm"))


def _name(node):
    target = node.target
    return target if isinstance(target, str) else getattr(target, "__name__",
                                                          "")


def _root(node):
    """The placeholder or attribute that `node` may be a view of, following
    first arguments (a view's base is its first argument, and an op not in
    FRESH is taken for a view); None for a new tensor."""
    while node.op not in ("placeholder", "get_attr"):
        first = node.args[0] if node.args else None
        if _name(node) in FRESH or not isinstance(first, torch.fx.Node):
            return None
        node = first
    return node


def blocker(gm, example_inputs):
    """Why `gm` cannot run in a CUDA graph of the runner's, or None: an
    input that is no CUDA tensor (a size, a CPU tensor), inputs on several
    devices, or a write into an input other than a parameter or buffer."""
    devices = set()
    for example in example_inputs:
        if not isinstance(example, torch.Tensor):
            return "an input that is not a tensor"
        if example.device.type != "cuda":
            return f"an input on {example.device.type}"
        devices.add(example.device)
    if len(devices) > 1:
        return "inputs on several devices"
    written = written_input(gm, example_inputs)
    if written is not None:
        return f"{written.name} writes into an input"
    return None


def written_input(gm, example_inputs):
    """The first node of `gm` that writes into an input other than a
    parameter or buffer (or into a view of one), or None."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    static = set(static_indices(gm, example_inputs))
    fresh = {node for i, node in enumerate(placeholders) if i not in static}
    for node in gm.graph.nodes:
        if _mutates(node) and node.args and \
                isinstance(node.args[0], torch.fx.Node) and \
                _root(node.args[0]) in fresh:
            return node
    return None


def _copy_all(targets, sources):
    if not targets:
        return
    if hasattr(torch, "_foreach_copy_"):
        torch._foreach_copy_(targets, sources)
    else:
        for target, source in zip(targets, sources):
            target.copy_(source)


def capture_cuda_graph(function, inputs):
    """Runs `function(*inputs)` once on a side stream (lazy initialisation
    stays out of the graph), then captures it in a CUDA graph; returns the
    graph's replay and the outputs it writes."""
    with torch.cuda.device(inputs[0].device):
        current = torch.cuda.current_stream()
        side = torch.cuda.Stream()
        side.wait_stream(current)
        with torch.cuda.stream(side):
            function(*inputs)
        current.wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            outputs = function(*inputs)
    return graph.replay, outputs


class CudaGraphRunner:
    """Calls `compiled` (Inductor's compile of a graph, without CUDA
    graphs) through one CUDA graph: the inputs at `static` (parameters and
    buffers) are read where they are, every other input is copied into a
    buffer of the runner's before each replay, and each tensor output is
    returned as a copy.

    The graph is captured at the first call, and again when a static input
    moves (its data pointer changes), at most MAX_CAPTURES times. A capture
    that raises leaves the graph to run without a CUDA graph, with a
    warning that names the error. `capture` (function, inputs) -> (replay,
    outputs) is capture_cuda_graph; tests pass their own."""

    def __init__(self, compiled, static, capture=capture_cuda_graph):
        self.compiled = compiled
        self.static = sorted(static)
        self.capture = capture
        self.captures = 0
        self.replay = None
        #: Why the graph runs without a CUDA graph, or None.
        self.uncaptured = None

    def _statics_stay(self, args):
        if self.pointers_equal is not None:
            return self.pointers_equal(list(args), self.pointers,
                                       self.static)
        return all(args[i].data_ptr() == self.pointers[i]
                   for i in self.static)

    def _capture(self, args):
        self.captures += 1
        self.replay = None
        static = set(self.static)
        self.copied = [i for i in range(len(args)) if i not in static]
        try:
            # Buffers of the inputs' strides (an expanded input, whose
            # elements share memory, cannot be copied into one: it raises).
            self.buffers = [torch.empty_strided(
                args[i].size(), args[i].stride(), dtype=args[i].dtype,
                device=args[i].device) for i in self.copied]
            inputs = list(args)
            for i, buffer in zip(self.copied, self.buffers):
                inputs[i] = buffer
            _copy_all(self.buffers, [args[i] for i in self.copied])
            self.replay, self.outputs = self.capture(
                self.compiled, inputs)
        except Exception as error:  # noqa: BLE001 - the model still runs
            self.replay = None
            self.uncaptured = f"{type(error).__name__}: {error}"
            warnings.warn(f"mirage: the CUDA graph capture failed "
                          f"({self.uncaptured}); the graph runs without a "
                          f"CUDA graph", stacklevel=3)
            return
        self.pointers = [args[i].data_ptr() if i in static else None
                         for i in range(len(args))]
        # torch's own check (as the trees use it), where this torch has it.
        self.pointers_equal = getattr(
            torch._C, "_tensors_data_ptrs_at_indices_equal", None)
        if self.pointers_equal is not None:
            try:
                works = self.pointers_equal(list(args), self.pointers,
                                            self.static)
            except Exception:  # noqa: BLE001 - another signature
                works = False
            if not works:
                self.pointers_equal = None

    def __call__(self, *args):
        if self.uncaptured is None and (
                self.replay is None or not self._statics_stay(args)):
            if self.captures == MAX_CAPTURES:
                self.uncaptured = (f"its parameters moved {MAX_CAPTURES} "
                                   f"times")
            else:
                self._capture(args)
        if self.uncaptured is not None:
            return self.compiled(*args)
        _copy_all(self.buffers, [args[i] for i in self.copied])
        self.replay()
        copies = [o.clone() if isinstance(o, torch.Tensor) else o
                  for o in self.outputs]
        return tuple(copies) if isinstance(self.outputs, tuple) else copies
