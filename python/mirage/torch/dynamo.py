"""`torch.compile(model, backend="mirage")` (docs/TorchCompile.md).

Dynamo hands the backend an FX graph and example inputs. The backend
finds the subgraphs the kernel dialect expresses (mirage.torch.partition),
converts each into a KernelGraph (mirage.torch.convert), superoptimizes it
(the kernel cache and the tuning database make the second compile of a
model fast), and keeps it only when it matches the subgraph run eagerly
and is faster than the subgraph as Inductor compiles it in the caller's
mode, both measured in CUDA graphs on the example inputs' device. Every
other subgraph — one that fails, is slower, or holds an op outside the set
— is left where it was, with a warning that names it. The graph, with a
`mirage::run` call in place of each subgraph kept, then goes to Inductor,
in the caller's mode (`mode="reduce-overhead"` captures it in CUDA graphs).

Inference only: a graph that needs gradients goes to Inductor unchanged.
"""

import contextlib
import copy
import dataclasses
import hashlib
import traceback
import warnings
from typing import Optional

import torch

from mirage.timing import back_to_back_us
from mirage.torch import attention, convert, cudagraph, ops, partition

__all__ = ["Config", "config", "Subgraph", "arguments_as_in_the_model",
           "backend", "choose_overlap", "transform", "reports",
           "clear_reports"]


@dataclasses.dataclass
class Config:
    """What the backend does; change `mirage.torch.config` before compiling
    (torch.compile does not pass options together with a mode)."""
    #: Seconds of search per subgraph.
    time_limit: float = 60
    #: Search threads (None: the CPU count, at most 16).
    search_threads: Optional[int] = None
    #: The most matmuls one subgraph holds.
    max_matmuls: int = 3
    #: Inductor's time over Mirage's that a subgraph must reach to be kept.
    min_speedup: float = 1.0
    #: Under a mode with CUDA graphs, run each compiled graph in one CUDA
    #: graph of the backend's (cudagraph.CudaGraphRunner) where it can;
    #: False leaves them to Inductor's CUDA graph trees.
    own_cuda_graphs: bool = True


config = Config()
_REPORT = []
_GRAPHS = []


def reports():
    """What the compiles of this process decided, one dict per subgraph:
    `ops`, `kept`, and where measured `mirage_us` and `inductor_us`, where
    left `reason`."""
    return list(_REPORT)


def cuda_graphs():
    """How each graph compiled in a mode with CUDA graphs runs, one dict
    per graph: `runner` is "mirage" (one CUDA graph of the backend's) or
    "inductor" (Inductor's CUDA graph trees), with the `reason`."""
    return list(_GRAPHS)


def clear_reports():
    """Forgets the decisions `reports` and `cuda_graphs` return."""
    _REPORT.clear()
    _GRAPHS.clear()


class Subgraph:
    """A converted subgraph at run time: called with the tensors of its
    arguments (convert.Converted.arguments), it makes its kernel inputs
    (convert.Input), runs `kernel(*tensors, out=[...])`, and returns the
    kernel outputs in their FX shapes.

    Stacked weights are made once, when the subgraph is first called (the
    backend's check, at compile time), and again only when a source tensor
    moves (its data pointer changes, as after `model.to(...)` or a
    `load_state_dict(..., assign=True)`). A
    weight changed in place is not seen: like Inductor's `freezing`, the
    backend treats the weights of the layers it covers as constants
    (docs/TorchCompile.md, "Weights"). `restacks` counts the remakes.

    `overlap` (default True) lets the kernel's launches overlap
    (programmatic dependent launch, where its plan allows); the backend
    sets it to what timed faster at compile time (choose_overlap)."""

    def __init__(self, converted, kernel):
        self.kernel = kernel
        self.inputs = converted.inputs
        dtypes = {}
        for output in converted.outputs:
            dtypes[output.index] = convert.tensor_meta(output.node)[1]
        self.outputs = [(shape, dtypes[i]) for i, shape in
                        enumerate(converted.kernel_shapes)]
        self.rows = [tuple(t.dims) for t in converted.graph.outputs]
        self.weights = {}
        self.restacks = 0
        self.overlap = True

    def _weights(self, index, spec, tensors):
        sources = [tensors[i].detach() for i in spec.sources]
        pointers = [t.data_ptr() for t in sources]
        held = self.weights.get(index)
        if held is not None and held[0] == pointers:
            return held[1]
        self.restacks += 1
        scale = sources.pop() if spec.scaled else None
        weight = torch.cat(sources) if len(sources) > 1 else sources[0]
        if scale is not None:
            weight = weight * scale
        if held is None:
            held = [pointers, weight.t().contiguous()]
            self.weights[index] = held
        else:
            held[1].copy_(weight.t())
            held[0] = pointers
        return held[1]

    def describe(self):
        """What the subgraph computes: its kernel (the cache entry, which
        names the program and the search's options), its inputs and its
        outputs."""
        kernel = getattr(self.kernel, "directory", None) or id(self.kernel)
        inputs = [(i.kind, i.sources, i.shape, i.scaled) for i in self.inputs]
        return repr((str(kernel), inputs, self.outputs, self.rows))

    def empty_outputs(self, inputs):
        """New tensors for the kernel outputs, on the inputs' device."""
        device = inputs[0].device
        return [torch.empty(shape, dtype=dtype, device=device)
                for shape, dtype in self.outputs]

    def __call__(self, arguments):
        tensors = []
        for index, spec in enumerate(self.inputs):
            if spec.kind == "weights":
                tensor = self._weights(index, spec, arguments)
            else:
                tensor = arguments[spec.sources[0]]
                if spec.kind == "transposed":
                    tensor = tensor.transpose(-1, -2)
                tensor = tensor.reshape(spec.shape)
                if not tensor.is_contiguous():
                    tensor = tensor.contiguous()
            tensors.append(tensor)
        outputs = self.empty_outputs(arguments)
        self.kernel(*tensors, out=[o.view(rows) for o, rows in
                                   zip(outputs, self.rows)],
                    overlap=self.overlap)
        return outputs


def _describe(nodes):
    names = []
    for node in nodes:
        target = node.target
        name = target if isinstance(target, str) else getattr(
            target, "__name__", str(target))
        if name not in names:
            names.append(name)
    return f"[{', '.join(names)}] ({nodes[0].name} .. {nodes[-1].name})"


def transform(gm, example_inputs, make_subgraph, max_matmuls=3):
    """Replaces, in place, each subgraph of `gm` that Mirage expresses by a
    call of `make_subgraph(converted, nodes, entry)`: a Subgraph, or None to
    leave the nodes as they are with `entry["reason"]` saying why. An
    exception it raises leaves them too, and becomes the reason. Returns
    the report (see reports)."""
    graph_digest = hashlib.sha256(gm.code.encode()).hexdigest()
    partition.prepare(gm)
    static = partition.static_inputs(gm, example_inputs)
    report = []
    symbolic = [n for n in gm.graph.nodes if convert.is_matmul(n) and
                convert.has_symbolic_shape(n)]
    if symbolic:
        report.append({
            "ops": _describe(symbolic), "nodes": [n.name for n in symbolic],
            "kept": False,
            "reason": "shapes that are not static; compile with "
                      "torch.compile(..., dynamic=False) to keep them static"})
    for nodes in partition.propose(gm, static, max_matmuls):
        entry = {"ops": _describe(nodes), "nodes": [n.name for n in nodes],
                 "kept": False}
        report.append(entry)
        try:
            if attention.is_attention(nodes[-1]):
                converted = attention.convert_piece(nodes)
            else:
                converted = convert.convert(nodes, static.__contains__)
        except convert.Unsupported as error:
            entry["reason"] = f"not expressed: {error}"
            continue
        try:
            subgraph = make_subgraph(converted, nodes, entry)
        except Exception as error:  # noqa: BLE001 - the piece stays as is
            entry["reason"] = f"{type(error).__name__}: {error}"
            continue
        if subgraph is None:
            continue
        entry["kept"] = True
        key = ops.register(subgraph, "\n".join(
            [graph_digest, subgraph.describe()] +
            [n.name for n in converted.arguments]))
        arguments = list(converted.arguments)
        for index in converted.transposed_arguments():
            arguments[index] = partition.stored_transposed(gm,
                                                           arguments[index])
        partition.replace(gm, nodes, converted.outputs, ops.target(),
                          (key, arguments))
    return report


# -- on a GPU ----------------------------------------------------------------

def _example_values(gm, example_inputs, nodes):
    """A tensor for each outside node the subgraph `nodes` reads: the
    example input of a placeholder or the attribute of a get_attr, else
    random numbers of the node's shape and dtype."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    examples = dict(zip(placeholders, example_inputs))
    members, values = set(nodes), {}
    generator = torch.Generator(device="cuda").manual_seed(0)
    for node in nodes:
        for operand in node.all_input_nodes:
            if operand in members or operand in values:
                continue
            if operand.op == "get_attr":
                value = gm
                for part in operand.target.split("."):
                    value = getattr(value, part)
            else:
                value = examples.get(operand)
            if not isinstance(value, torch.Tensor) or value.device.type != \
                    "cuda" or type(value).__name__ == "FakeTensor":
                shape, dtype = convert.tensor_meta(operand)
                value = torch.randn(shape, dtype=dtype, device="cuda",
                                    generator=generator)
            values[operand] = value
    return values


def _microseconds(function, repeats=5, iterations=20):
    """The time of one call of `function`, replayed from a CUDA graph when
    it can be captured (as under mode="reduce-overhead")."""
    function()
    torch.cuda.synchronize()
    run = function
    try:
        captured = torch.cuda.CUDAGraph()
        with torch.cuda.graph(captured):
            function()
        run = captured.replay
    except RuntimeError:
        torch.cuda.synchronize()
    return back_to_back_us(run, calls=iterations, repeats=repeats, warmup=0)


def choose_overlap(subgraph, time):
    """Times `subgraph` (`time()`: the microseconds of one call) with its
    kernels' launches overlapping and without, keeps the faster way in
    `subgraph.overlap`, and returns its time. The tuner made the same
    choice for a graph of many calls; in the model the piece is one call
    among other kernels, where the choice can differ (the MLP piece at
    batch 1 on an H200: 36.2 µs overlapped, 33.3 without;
    docs/TorchCompile.md, "What happens at compile time"). A kernel
    whose launches cannot overlap (`kernel.may_overlap`) is timed once."""
    subgraph.overlap = True
    overlapped = time()
    if not subgraph.kernel.may_overlap:
        return overlapped
    subgraph.overlap = False
    serial = time()
    subgraph.overlap = overlapped <= serial
    return min(overlapped, serial)


def _mode_patches(mode):
    if not mode or mode == "default":
        return {}
    import torch._inductor
    return dict(torch._inductor.list_mode_options(mode))


def _close(got, expected):
    got, expected = got.float(), expected.float()
    if not torch.isfinite(got).all():
        return torch.isfinite(expected).all().item() is False
    scale = expected.abs().max().item()
    return (got - expected).abs().max().item() <= 2e-2 * scale + 2e-2


def arguments_as_in_the_model(converted, tensors):
    """`tensors`, the values of `converted.arguments`, laid out as the
    model's graph hands them to the piece: the argument of a "transposed"
    input stored transposed (partition.stored_transposed), so that the
    piece's check and time at compile time do not include a copy that the
    model does not make."""
    tensors = list(tensors)
    for index in converted.transposed_arguments():
        tensors[index] = tensors[index].transpose(-1, -2).contiguous() \
            .transpose(-1, -2)
    return tensors


def _gpu_subgraph(gm, example_inputs, mode):
    """make_subgraph for a GPU: superoptimize, check against the subgraph
    run eagerly, time against Inductor's compile of it."""
    from torch._inductor.compile_fx import compile_fx
    from torch.fx.passes.utils.fuser_utils import fuse_as_graphmodule

    patches = _mode_patches(mode)
    patches.pop("triton.cudagraphs", None)

    def make(converted, nodes, entry):
        try:
            kernel = converted.graph.superoptimize(
                time_limit=config.time_limit,
                search_threads=config.search_threads)
        except Exception as error:  # noqa: BLE001 - reported, then skipped
            entry["reason"] = f"superoptimize failed: {error}"
            return None
        subgraph = Subgraph(converted, kernel)
        values = _example_values(gm, example_inputs, nodes)
        piece, inputs, outputs = fuse_as_graphmodule(gm, nodes, "piece")[:3]
        arguments = [values[node] for node in inputs]
        ours = arguments_as_in_the_model(
            converted, [values[node] for node in converted.arguments])
        with torch.no_grad():
            expected = piece(*arguments)
            if not isinstance(expected, (tuple, list)):
                expected = (expected,)
            results = subgraph(ours)
            got = {o.node: results[o.index] if o.columns is None else
                   results[o.index][..., o.columns[0]:o.columns[1]]
                   for o in converted.outputs}
            for node, value in zip(outputs, expected):
                if not _close(got[node], value):
                    entry["reason"] = (f"its Mirage kernel disagrees with "
                                       f"PyTorch on {node.name}")
                    return None
            # (compile_with_mirage runs this outside Dynamo's tracing
            # context: the piece's compile adds no guards to the model's.)
            inductor = compile_fx(piece, arguments, config_patches=patches)
            entry["inductor_us"] = _microseconds(lambda: inductor(*arguments))
            entry["mirage_us"] = choose_overlap(
                subgraph, lambda: _microseconds(lambda: subgraph(ours)))
            if not subgraph.overlap:
                entry["overlap"] = False
        speedup = entry["inductor_us"] / entry["mirage_us"]
        if speedup < config.min_speedup:
            entry["reason"] = (f"{entry['mirage_us']:.1f} us against "
                               f"Inductor's {entry['inductor_us']:.1f} us")
            return None
        return subgraph

    return make


def backend(gm, example_inputs, mode=None, options=None):
    """The Dynamo backend: Mirage subgraphs in `gm`, then Inductor in
    `mode` (its `options`, as torch.compile passes them, too)."""
    from torch._inductor.compile_fx import compile_fx

    patches = _mode_patches(mode)
    patches.update(options or {})

    def inductor(graph):
        return compile_fx(graph, example_inputs, config_patches=patches)

    wants_gradients = torch.is_grad_enabled() and any(
        getattr(x, "requires_grad", False) for x in example_inputs)
    if wants_gradients:
        warnings.warn("mirage: the graph needs gradients; Mirage kernels "
                      "serve inference only, so Inductor compiles it alone",
                      stacklevel=2)
    elif not ops.HAS_CUSTOM_OP:
        warnings.warn("mirage: this torch has no torch.library.custom_op "
                      "(torch 2.4 or later), so Inductor compiles the graph "
                      "alone", stacklevel=2)
    elif torch.cuda.is_available():
        runner = _runner_for(gm, example_inputs, patches)
        compiled = compile_with_mirage(
            gm, example_inputs,
            lambda graph: _gpu_subgraph(graph, example_inputs, mode), inductor)
        return runner(compiled if compiled is not None else inductor(gm))
    return inductor(gm)


def _runner_for(gm, example_inputs, patches):
    """What wraps Inductor's compile of `gm`: a CudaGraphRunner where the
    mode asks for CUDA graphs and the graph allows one of the backend's
    (then without Inductor's own, in `patches`), else nothing."""
    if not patches.get("triton.cudagraphs"):
        return lambda compiled: compiled
    reason = "config.own_cuda_graphs is False"
    if config.own_cuda_graphs:
        reason = cudagraph.blocker(gm, example_inputs)
    _GRAPHS.append({"runner": "inductor" if reason else "mirage",
                    "reason": reason or "every input a CUDA tensor, none "
                                        "written"})
    if reason:
        return lambda compiled: compiled
    patches["triton.cudagraphs"] = False
    static = cudagraph.static_indices(gm, example_inputs)
    return lambda compiled: cudagraph.CudaGraphRunner(compiled, static)


def compile_with_mirage(gm, example_inputs, make_for, compile_graph):
    """`compile_graph` of `gm` once `transform` (with the make_subgraph that
    `make_for(gm)` returns) put Mirage subgraphs into it; None when it kept
    none or anything raised (warned, naming the error), with `gm` restored
    as it came, so that the caller compiles that. The pass runs outside
    Dynamo's tracing context: nothing it does may add guards to the model's
    shapes. It changes `gm` in place, not a copy: Inductor compiled a copy
    made by `GraphModule(gm, deepcopy(gm.graph))` with the model's
    parameters as inputs its CUDA graphs do not treat as static (HF Llama on
    an H200: 2.78 ms a call, where the pass in place took 0.31 ms at
    69ab9a3; docs/TorchCompile.md)."""
    pristine = _copy_graph(gm.graph)
    guards = getattr(torch, "_guards", None)
    outside = guards.tracing(None) if guards else contextlib.nullcontext()
    try:
        with outside:
            report = transform(gm, example_inputs, make_for(gm),
                               config.max_matmuls)
    except Exception as error:  # noqa: BLE001 - the model must compile
        _restore(gm, pristine)
        _warn_failed("the Mirage pass", error)
        return None
    _REPORT.extend(report)
    for entry in report:
        if not entry["kept"]:
            warnings.warn(f"mirage: subgraph {entry['ops']} left to "
                          f"Inductor: {entry['reason']}", stacklevel=3)
    if not any(entry["kept"] for entry in report):
        _restore(gm, pristine)
        return None
    try:
        return compile_graph(gm)
    except Exception as error:  # noqa: BLE001 - as above
        _restore(gm, pristine)
        _warn_failed("Inductor's compile of the graph with Mirage kernels",
                     error)
        return None


def _copy_graph(graph):
    """A deep copy of `graph` whose nodes also keep the attributes that a
    copy drops (Dynamo's `_dynamo_source` on placeholders, which AOT
    Autograd reads)."""
    copied = copy.deepcopy(graph)
    for node, copy_of_node in zip(graph.nodes, copied.nodes):
        for name, value in vars(node).items():
            if not hasattr(copy_of_node, name):
                setattr(copy_of_node, name, value)
    return copied


def _restore(gm, graph):
    """`gm` with `graph` (a copy of its graph as it came) again."""
    gm.graph = graph
    gm.recompile()


def _warn_failed(what, error):
    """Warns that `what` raised `error` (with the place it was raised) and
    that Inductor compiles the graph alone."""
    place = traceback.extract_tb(error.__traceback__)[-1:]
    where = f" at {place[0].filename}:{place[0].lineno}" if place else ""
    warnings.warn(f"mirage: {what} failed ({type(error).__name__}: {error}"
                  f"{where}); Inductor compiles the graph alone",
                  stacklevel=3)
