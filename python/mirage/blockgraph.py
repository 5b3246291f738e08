"""Thread-block graphs written by hand, as the public Mirage API writes them:
the body of one custom kernel (`graph_def`) that `KernelGraph.customized`
adds to a kernel graph.

    tb = mi.new_threadblock_graph(grid_dim=(64, 1, 1), block_dim=(128, 1, 1),
                                  forloop_range=32, reduction_dimx=64)
    x = tb.new_input(dtensor=X, input_map=(-1, -1, -1), forloop_dim=1)
    w = tb.new_input(dtensor=W, input_map=(1, -1, -1), forloop_dim=0)
    acc = tb.forloop_accum(tb.matmul(x, w))
    rms = tb.forloop_accum(x, "rms")
    tb.new_output(stensor=tb.div(acc, rms), output_map=(1, -1, -1))
    (O,) = graph.customized([X, W], tb)

Maps are (x, y, z) tuples of tensor dimensions, -1 for none. Each op checks
its tiles when it is added, with the dialect's rules
(docs/LanguageReference.md), and raises ValueError naming the op and the
shapes; the compiler verifies the whole kernel (`graph.verify()`).
"""

from mirage import graph as kernel_graph

__all__ = ["ThreadBlockGraph", "STensor", "new_threadblock_graph"]

_AXES = "xyz"
#: forloop_accum kinds by the public implementation's names and ours.
_ACCUMULATORS = {None: "sum", "sum": "sum", "sum_last": "sum_last",
                 "rms": "rms_last", "rms_last": "rms_last", "max": "max",
                 "sum_todimx": "sum_last_to", "sum_last_to": "sum_last_to"}


_shape_text = kernel_graph._shape_text


class STensor:
    """A tile of a thread-block graph: its shape (`dims`) and dtype, and
    whether it is accumulated over the for-loop."""

    def __init__(self, graph, name, dims, dtype, varying, accumulated):
        self.graph, self.name = graph, name
        self.dims, self.dtype = tuple(dims), dtype
        self.varying, self.accumulated = varying, accumulated

    @property
    def num_dims(self):
        return len(self.dims)

    @property
    def type(self):
        return ("!mirage_block.stensor<" + "x".join(map(str, self.dims)) +
                f"x{self.dtype.mlir}>")

    def __repr__(self):
        return f"STensor({_shape_text(self.dims)}, {self.dtype!r})"


def _map_text(axes):
    return "<" + ", ".join(f"{_AXES[a]} = {d}" for a, d in enumerate(axes)
                           if d >= 0) + ">"


class ThreadBlockGraph:
    """The body of one custom kernel under construction."""

    def __init__(self, grid_dim, block_dim, forloop_range, reduction_dimx=64,
                 async_copies=False):
        grid_dim, block_dim = tuple(grid_dim), tuple(block_dim)
        for what, dims in (("grid_dim", grid_dim), ("block_dim", block_dim)):
            if len(dims) != 3 or any(not isinstance(d, int) or d < 1
                                     for d in dims):
                raise ValueError(f"new_threadblock_graph: {what} must be "
                                 f"(x, y, z) of positive integers, got "
                                 f"{dims!r}")
        if block_dim[1:] != (1, 1):
            raise ValueError(f"new_threadblock_graph: block_dim {block_dim} "
                             "must be (threads, 1, 1)")
        if not isinstance(forloop_range, int) or forloop_range < 1:
            raise ValueError(f"new_threadblock_graph: forloop_range must be a "
                             f"positive integer, got {forloop_range!r}")
        if not isinstance(async_copies, bool):
            raise ValueError(f"new_threadblock_graph: async_copies must be a "
                             f"bool, got {async_copies!r}")
        self.grid_dim, self.block_dim = grid_dim, block_dim
        self.forloop_range, self.reduction_dimx = forloop_range, reduction_dimx
        self.async_copies = async_copies
        self.inputs, self.outputs, self._lines = [], [], []
        self._count = 0

    def _tile(self, dims, dtype, varying, accumulated):
        tile = STensor(self, f"%t{self._count}", dims, dtype, varying,
                       accumulated)
        self._count += 1
        return tile

    def _own(self, op, *tiles):
        for tile in tiles:
            if not isinstance(tile, STensor) or tile.graph is not self:
                raise ValueError(f"{op}: {tile!r} is not a tile of this "
                                 "thread-block graph")

    def _map(self, op, axes, dims):
        axes = tuple(axes)
        if len(axes) != 3 or any(not -1 <= d < len(dims) for d in axes):
            raise ValueError(f"{op}: the map {axes} must be (x, y, z) of "
                             f"dimensions of {_shape_text(dims)} or -1")
        used = [d for d in axes if d >= 0]
        if len(used) != len(set(used)):
            raise ValueError(f"{op}: the map {axes} maps two grid axes to one "
                             "dimension")
        return axes

    def new_input(self, dtensor, input_map, forloop_dim=-1):
        """This block's tile of kernel tensor `dtensor`: each grid axis cuts
        the dimension `input_map` gives it, the for-loop cuts `forloop_dim`
        (-1: the same tile every iteration)."""
        if not isinstance(dtensor, kernel_graph.Tensor):
            raise ValueError("new_input: dtensor must be a tensor of the "
                             "kernel graph")
        axes = self._map("new_input", input_map, dtensor.dims)
        dims = list(dtensor.dims)
        for axis, dim in enumerate(axes):
            if dim >= 0 and self.grid_dim[axis] > 1:
                if dims[dim] % self.grid_dim[axis]:
                    raise ValueError(
                        f"new_input: {self.grid_dim[axis]} blocks along "
                        f"{_AXES[axis]} do not divide dimension {dim} of "
                        f"{_shape_text(dtensor.dims)}")
                dims[dim] //= self.grid_dim[axis]
        if forloop_dim >= 0:
            if forloop_dim >= len(dims) or dims[forloop_dim] % \
                    self.forloop_range:
                raise ValueError(
                    f"new_input: the for-loop's {self.forloop_range} "
                    f"iterations do not divide dimension {forloop_dim} of "
                    f"the tile {_shape_text(dims)}")
            dims[forloop_dim] //= self.forloop_range
        tile = self._tile(dims, dtensor.dtype, forloop_dim >= 0, False)
        self.inputs.append((dtensor, tile, axes, forloop_dim))
        return tile

    def _emit(self, text, tile):
        self._lines.append(f"{tile.name} = {text}")
        return tile

    def _result(self, op, dims, dtype, *operands):
        if any(t.accumulated for t in operands) and any(
                t.varying for t in operands):
            raise ValueError(f"{op}: mixes an accumulated tile with one that "
                             "changes every iteration")
        return self._tile(dims, dtype, any(t.varying for t in operands),
                          any(t.accumulated for t in operands))

    def matmul(self, A, B):
        """A @ B on tiles: (..., m, k) by (..., k, n)."""
        self._own("matmul", A, B)
        if A.num_dims < 2 or A.num_dims != B.num_dims or \
                A.dims[:-2] != B.dims[:-2] or A.dims[-1] != B.dims[-2]:
            raise ValueError(f"matmul: tiles {_shape_text(A.dims)} and "
                             f"{_shape_text(B.dims)} do not multiply")
        C = self._result("matmul", A.dims[:-1] + (B.dims[-1],), A.dtype, A, B)
        return self._emit(f"matmul {A.name}, {B.name} : {A.type}, {B.type} "
                          f"-> {C.type}", C)

    def _unary(self, op, A):
        self._own(op, A)
        C = self._result(op, A.dims, A.dtype, A)
        return self._emit(f"{op} {A.name} : {A.type}", C)

    def _binary(self, op, A, B):
        self._own(op, A, B)
        if A.num_dims != B.num_dims or any(
                a != b and 1 not in (a, b) for a, b in zip(A.dims, B.dims)):
            raise ValueError(f"{op}: tiles {_shape_text(A.dims)} and "
                             f"{_shape_text(B.dims)} do not broadcast")
        C = self._result(op, tuple(map(max, A.dims, B.dims)), A.dtype, A, B)
        return self._emit(f"{op} {A.name}, {B.name} : {A.type}, {B.type} -> "
                          f"{C.type}", C)

    def mul_scalar(self, A, value):
        self._own("mul_scalar", A)
        C = self._result("mul_scalar", A.dims, A.dtype, A)
        return self._emit(f"mul_scalar {A.name} by "
                          f"{kernel_graph._float_text(float(value))} : "
                          f"{A.type}", C)

    def rms_norm(self, A, normalized_shape, eps=0.0):
        """x / sqrt(mean(x²) + eps) over the tile's trailing
        `normalized_shape`."""
        self._own("rms_norm", A)
        C = self._result("rms_norm", A.dims, A.dtype, A)
        return self._emit(kernel_graph.rms_norm_text(A, normalized_shape, eps),
                          C)

    def reduction(self, A, dim, size=1):
        """The strided sum of dimension `dim` of a tile down to `size`."""
        self._own("reduction", A)
        if not 0 <= dim < A.num_dims or A.dims[dim] % size:
            raise ValueError(f"reduction: dimension {dim} of "
                             f"{_shape_text(A.dims)} does not reduce to "
                             f"{size}")
        dims = list(A.dims)
        dims[dim] = size
        C = self._result("reduction", dims, A.dtype, A)
        suffix = f" size {size}" if size != 1 else ""
        return self._emit(f"reduction {A.name} dim {dim}{suffix} : {A.type} "
                          f"-> {C.type}", C)

    def forloop_accum(self, A, acc=None, eps=0.0):
        """A accumulated over the for-loop: "sum" (default), "sum_last",
        "rms" (rms_last: sqrt(mean of squares + eps)), "max", or
        "sum_todimx" (the last dimension summed down to reduction_dimx)."""
        self._own("forloop_accum", A)
        if acc not in _ACCUMULATORS:
            raise ValueError(f"forloop_accum: unknown accumulator {acc!r}; "
                             f"use one of {sorted(k for k in _ACCUMULATORS if k)}")
        if A.accumulated:
            raise ValueError("forloop_accum: the tile is accumulated already")
        kind = _ACCUMULATORS[acc]
        if eps and kind != "rms_last":
            raise ValueError(f"forloop_accum: eps is only for 'rms', not "
                             f"{acc!r}")
        dims = list(A.dims)
        text = kind + kernel_graph.eps_text("forloop_accum", eps)
        if kind in ("sum_last", "rms_last"):
            dims[-1] = 1
        elif kind == "sum_last_to":
            if dims[-1] % self.reduction_dimx:
                raise ValueError(f"forloop_accum: reduction_dimx "
                                 f"{self.reduction_dimx} does not divide the "
                                 f"last dimension of {_shape_text(A.dims)}")
            dims[-1] = self.reduction_dimx
            text += f" {self.reduction_dimx}"
        C = self._tile(dims, A.dtype, False, True)
        return self._emit(f"forloop_accum {A.name} {text} : {A.type} -> "
                          f"{C.type}", C)

    def new_output(self, stensor, output_map):
        """Writes tile `stensor` into a new kernel tensor: each grid axis of
        more than one block multiplies the dimension `output_map` gives it."""
        self._own("new_output", stensor)
        axes = self._map("new_output", output_map, stensor.dims)
        if stensor.varying and self.forloop_range > 1:
            raise ValueError("new_output: the tile changes every iteration; "
                             "accumulate it with forloop_accum first")
        dims = list(stensor.dims)
        for axis, size in enumerate(self.grid_dim):
            if size > 1:
                if axes[axis] < 0:
                    raise ValueError(
                        f"new_output: grid axis {_AXES[axis]} has {size} "
                        f"blocks but output_map {axes} maps it to no "
                        "dimension (the blocks would write the same "
                        "elements)")
                dims[axes[axis]] *= size
        self.outputs.append((stensor, axes, tuple(dims)))

    def body(self, operands):
        """The `graph_def` op computing this graph from kernel tensors
        `operands` (in new_input order), as MLIR lines, and its result
        types."""
        arguments, loads = [], []
        for position, (dtensor, tile, axes, fmap) in enumerate(self.inputs):
            argument = f"%b{position}"
            arguments.append(f"{argument} = {operands[position]} : "
                             f"{dtensor.type}")
            suffix = f" fmap {fmap}" if fmap >= 0 else ""
            loads.append(f"{tile.name} = input_loader {argument} imap "
                         f"{_map_text(axes)}{suffix} : {dtensor.type} -> "
                         f"{tile.type}")
        results, saves, yielded = [], [], []
        for position, (tile, axes, dims) in enumerate(self.outputs):
            result = "tensor<" + "x".join(map(str, dims)) + \
                f"x{tile.dtype.mlir}>"
            results.append(result)
            saves.append(f"%o{position} = output_saver {tile.name} omap "
                         f"{_map_text(axes)} : {tile.type} -> {result}")
            yielded.append(f"%o{position}")
        result_text = results[0] if len(results) == 1 else \
            "(" + ", ".join(results) + ")"
        header = (f"mirage_kernel.graph_def({', '.join(arguments)}) -> "
                  f"{result_text} grid [{', '.join(map(str, self.grid_dim))}]"
                  f" block [{self.block_dim[0]}, 1, 1] forloop "
                  f"{self.forloop_range}"
                  f"{' async_copies' if self.async_copies else ''} {{")
        lines = [header] + ["  " + line for line in
                            loads + self._lines + saves] + \
            [f"  yield {', '.join(yielded)} : {', '.join(results)}", "}"]
        return lines, [(dims, tile.dtype) for tile, _, dims in self.outputs]


def new_threadblock_graph(grid_dim, block_dim, forloop_range,
                          reduction_dimx=64, async_copies=False):
    """A new, empty thread-block graph (see the module's doc).
    `async_copies` makes the kernel copy its tiles with cp.async where the
    chip would copy them by TMA (sm_90a); the tuner picks either form."""
    return ThreadBlockGraph(grid_dim, block_dim, forloop_range,
                            reduction_dimx, async_copies)


kernel_graph.add_elementwise_methods(ThreadBlockGraph)


#: forloop_accum kinds as the compiler describes them -> forloop_accum's.
_DESCRIBED_ACCUMULATORS = {"sum": "sum", "sum_last": "sum_last",
                           "rms_last": "rms", "max": "max",
                           "sum_last_to": "sum_todimx"}


def _replay_tile_op(tb, op, args, where):
    """Adds a described compute op to thread-block graph `tb`."""
    kind = op["op"]
    if kind in kernel_graph.UNARY_OPS or kind in kernel_graph.BINARY_OPS:
        return getattr(tb, kind)(*args)
    if kind == "mul_scalar":
        return tb.mul_scalar(args[0], op["value"])
    if kind == "matmul":
        return tb.matmul(*args)
    if kind == "reduction":
        return tb.reduction(args[0], op["dim"], op.get("size", 1))
    if kind == "rms_norm":
        return tb.rms_norm(args[0], kernel_graph.trailing_shape(
            args[0].dims, op["size"]), op.get("eps", 0.0))
    raise ValueError(f"from_mlir: {where} holds a {kind} op, which thread-block "
                     "graphs built in Python do not have")


def rebuild_graph_def(graph, op, operands):
    """The custom kernel of graph_def `op`, as compiler.describe_function
    describes it, added to KernelGraph `graph` on kernel tensors `operands`
    (a thread_graph's elementwise ops become tile ops of the block graph,
    which compute the same); returns its outputs."""
    where = f"a graph_def of @{graph.name}"
    if op.get("cluster", [1, 1, 1]) != [1, 1, 1]:
        raise ValueError(f"from_mlir: {where} runs in thread-block clusters, "
                         "which graphs built in Python do not have")
    body = op["body"]
    sizes = {inner["size"] for inner in body["ops"]
             if inner.get("kind") == "sum_last_to"}
    if len(sizes) > 1:
        raise ValueError(f"from_mlir: {where} sums to several sizes "
                         f"{sorted(sizes)}; one reduction_dimx takes one")
    tb = ThreadBlockGraph(tuple(op["grid"]), (op.get("threads") or 128, 1, 1),
                          op["forloop"], sizes.pop() if sizes else 64,
                          bool(op.get("async_copies", False)))
    whole = dict(zip(body["inputs"], operands))
    tiles, saved = {}, {}
    for inner in body["ops"]:
        kind, ins = inner["op"], inner["operands"]
        results = inner["results"]
        if kind == "input_loader":
            tiles[results[0]] = tb.new_input(whole[ins[0]], inner["imap"],
                                             inner["fmap"])
        elif kind == "output_saver":
            saved[results[0]] = (tiles[ins[0]], inner["omap"])
        elif kind == "forloop_accum":
            tiles[results[0]] = tb.forloop_accum(
                tiles[ins[0]], _DESCRIBED_ACCUMULATORS[inner["kind"]],
                inner.get("eps", 0.0))
        elif kind == "thread_graph":
            inner_body = inner["body"]
            values = dict(zip(inner_body["inputs"],
                              [tiles[i] for i in ins]))
            for scalar in inner_body["ops"]:
                values[scalar["results"][0]] = _replay_tile_op(
                    tb, scalar, [values[i] for i in scalar["operands"]], where)
            tiles.update(zip(results, [values[o] for o in
                                       inner_body["outputs"]]))
        else:
            tiles[results[0]] = _replay_tile_op(tb, inner,
                                                [tiles[i] for i in ins], where)
    for result in body["outputs"]:
        tb.new_output(*saved[result])
    return graph.customized([dtensor for dtensor, *_ in tb.inputs], tb)
