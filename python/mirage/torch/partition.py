"""Finding the parts of an FX graph that Mirage expresses, and putting a
call in their place.

`prepare` rewrites what models write into the ops the partitioner knows:
`nn.Linear` and activation modules (left as call_module by
`torch.fx.symbolic_trace`) become their functions, and the decomposed
RMSNorm of Hugging Face's models becomes one `convert.rms_norm` node.
`propose` groups the supported nodes into subgraphs with PyTorch's
`CapabilityBasedPartitioner` (maximal, and never creating a cycle through
the rest of the graph), splits each in topological order into pieces of at
most `max_matmuls` matmuls (the sizes the search handles), starting a new
piece at a norm that follows a matmul, and keeps those with a matmul:
elementwise ops and norms alone are left to Inductor, which fuses them as
well. Each scaled dot-product attention is a piece of its own
(mirage.torch.attention). `replace` swaps a subgraph for one call node.
"""

import itertools
import operator

import torch
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase

from mirage.torch import attention, convert

__all__ = ["merge_linked", "prepare", "propose", "replace", "static_inputs",
           "stored_transposed"]

_MODULE_FUNCTIONS = {
    torch.nn.SiLU: torch.nn.functional.silu,
    torch.nn.ReLU: torch.nn.functional.relu,
}


def static_inputs(gm, example_inputs):
    """The nodes of `gm` that hold parameters or buffers: get_attr nodes,
    and placeholders whose example input is an nn.Parameter or that Dynamo
    marks static (its inlined modules' parameters and buffers)."""
    static = {node for node in gm.graph.nodes if node.op == "get_attr"}
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for node, example in zip(placeholders, example_inputs):
        marked = getattr(example, "_dynamo_static_input_type", None)
        if isinstance(example, torch.nn.Parameter) or marked is not None:
            static.add(node)
    return static


def _inline_modules(gm):
    """call_module nodes of nn.Linear and activation modules as calls of
    their functions on get_attr nodes."""
    graph = gm.graph
    for node in list(graph.nodes):
        if node.op != "call_module":
            continue
        module = gm.get_submodule(node.target)
        with graph.inserting_before(node):
            if type(module) is torch.nn.Linear:
                weight = graph.get_attr(f"{node.target}.weight")
                weight.meta["val"] = module.weight
                bias = None
                if module.bias is not None:
                    bias = graph.get_attr(f"{node.target}.bias")
                    bias.meta["val"] = module.bias
                call = graph.call_function(torch.nn.functional.linear,
                                           (node.args[0], weight, bias))
            elif type(module) in _MODULE_FUNCTIONS:
                call = graph.call_function(_MODULE_FUNCTIONS[type(module)],
                                           node.args)
            else:
                continue
        call.meta = dict(node.meta)
        node.replace_all_uses_with(call)
        graph.erase_node(node)


def _is(node, targets, methods=()):
    return hasattr(node, "op") and (
        (node.op == "call_function" and node.target in targets) or
        (node.op == "call_method" and node.target in methods))


def _float_of(node):
    """x when `node` is x converted to f32 (`.float()`, `.to(torch.float32)`),
    else None."""
    if not _is(node, (), ("float", "to")):
        return None
    if node.target == "to" and torch.float32 not in (
            list(node.args[1:]) + list(node.kwargs.values())):
        return None
    return node.args[0]


def _match_rms_norm(rsqrt):
    """(x, eps, square_input, the node computing x * rsqrt) when `rsqrt` is
    the rsqrt of an RMSNorm: rsqrt(mean(t², -1, keepdim=True) + eps) with t
    multiplied by it; else None."""
    if not _is(rsqrt, (torch.rsqrt,), ("rsqrt",)):
        return None
    add = rsqrt.args[0]
    if not _is(add, (operator.add, torch.add), ("add",)) or len(add.args) != 2:
        return None
    mean, eps = add.args
    if not isinstance(eps, (int, float)):
        mean, eps = eps, mean
    if not isinstance(eps, (int, float)) or not _is(mean, (torch.mean,),
                                                     ("mean",)):
        return None
    dims = list(mean.args[1:2]) + [mean.kwargs.get("dim")]
    keepdim = list(mean.args[2:3]) + [mean.kwargs.get("keepdim")]
    if not any(d in (-1, [-1], (-1,)) for d in dims) or True not in keepdim:
        return None
    square = mean.args[0]
    if _is(square, (torch.pow,), ("pow",)) and square.args[1:] == (2,):
        t = square.args[0]
    elif _is(square, (torch.square,), ("square",)):
        t = square.args[0]
    elif (_is(square, (operator.mul, torch.mul), ("mul",)) and
          square.args[0] is square.args[1]):
        t = square.args[0]
    else:
        return None
    for user in rsqrt.users:
        if _is(user, (operator.mul, torch.mul), ("mul",)) and \
                set(user.args) == {t, rsqrt}:
            return t, float(eps), user
    return None


def _rewrite_rms_norms(graph):
    """Each decomposed RMSNorm as one `convert.rms_norm` node."""
    for rsqrt in list(graph.nodes):
        match = _match_rms_norm(rsqrt)
        if match is None:
            continue
        t, eps, product = match
        x, last = _float_of(t), product
        if x is not None:
            # Back to the input's dtype: the rewritten node's result.
            users = list(product.users)
            back = convert.tensor_meta(x)
            if len(users) != 1 or back is None or \
                    convert.tensor_meta(users[0]) != back:
                continue
            last = users[0]
        else:
            x = t
        with graph.inserting_before(last):
            norm = graph.call_function(convert.rms_norm, (x,), {"eps": eps})
        norm.meta = dict(last.meta)
        last.replace_all_uses_with(norm)
    graph.eliminate_dead_code()


def prepare(gm):
    """Rewrites `gm` in place into the forms the partitioner knows (see the
    module's doc)."""
    _inline_modules(gm)
    _rewrite_rms_norms(gm.graph)
    gm.recompile()


class _Support(OperatorSupportBase):
    def __init__(self, static):
        self.static = static

    def is_node_supported(self, submodules, node):
        return convert.is_supported(node, self.static.__contains__)


def propose(gm, static, max_matmuls=3):
    """The subgraphs of `gm` to hand to Mirage: lists of nodes in
    topological order, each with 1 to `max_matmuls` matmuls. A piece also
    ends before a row reduction (a norm, a sum) once it holds a matmul:
    the reduction needs whole rows of what precedes it, so no kernel fuses
    across it, and the norm belongs with the layers it feeds."""
    order = {node: i for i, node in enumerate(gm.graph.nodes)}
    partitioner = CapabilityBasedPartitioner(
        gm, _Support(static), allows_single_node_partition=True)
    support = _Support(static)
    components = []
    for partition in partitioner.propose_partitions():
        # The partitioner adds the getitems of a node that only getitems
        # read (a tuple's), supported or not (an index that selects part of
        # a tensor). Nothing of the partition reads an unsupported one (the
        # partition was formed without it), so leaving it out keeps the
        # partition free of cycles.
        components.extend(_components(
            [n for n in partition.nodes
             if support.is_node_supported(None, n)]))
    pieces = []
    for component in merge_linked(components):
        pieces.extend(_split(sorted(component, key=order.__getitem__),
                             max_matmuls))
    pieces = [p for p in pieces if any(convert.is_matmul(n) for n in p)]
    return pieces + _attention_pieces(gm)


def _attention_pieces(gm):
    """A piece for each scaled_dot_product_attention that
    mirage.torch.attention expresses (the nodes that repeat its keys and
    values per query head, then the call); the others stay, with the
    reason in the report."""
    pieces = []
    for node in gm.graph.nodes:
        if attention.is_attention(node):
            try:
                pieces.append(attention.piece(node))
            except (convert.Unsupported, ValueError, TypeError):
                # The call alone: its conversion reports why.
                pieces.append([node])
    return pieces


def _is_convex(nodes):
    """Whether no path leaves `nodes` and comes back into them."""
    seen = set()
    stack = [u for n in nodes for u in n.users if u not in nodes]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for user in node.users:
            if user in nodes:
                return False
            stack.append(user)
    return True


def merge_linked(parts):
    """`parts` (sets of nodes), with each part that reads another's node
    directly merged into it where the union stays free of cycles through
    the rest of the graph. The partitioner can leave a layer apart from
    the norm that feeds it (it had merged the layer with unrelated nodes
    first), and sibling layers belong in one piece (convert stacks them)."""
    parts = [set(p) for p in parts]
    merged = True
    while merged:
        merged = False
        for i, j in itertools.permutations(range(len(parts)), 2):
            reads = any(a in parts[i] for n in parts[j]
                        for a in n.all_input_nodes)
            if reads and _is_convex(parts[i] | parts[j]):
                # Both give way to their union (popping one would shift
                # the other's index).
                union = parts[i] | parts[j]
                parts = [p for k, p in enumerate(parts) if k not in (i, j)]
                parts.append(union)
                merged = True
                break
    return parts


def _components(nodes):
    """The weakly connected parts of `nodes` (the partitioner also merges
    nodes that share no data). Each is as free of cycles through the rest
    of the graph as `nodes` is."""
    members, seen, parts = set(nodes), set(), []
    for start in nodes:
        if start in seen:
            continue
        part, stack = [], [start]
        seen.add(start)
        while stack:
            node = stack.pop()
            part.append(node)
            for other in list(node.all_input_nodes) + list(node.users):
                if other in members and other not in seen:
                    seen.add(other)
                    stack.append(other)
        parts.append(part)
    return parts


def _split(nodes, max_matmuls):
    """`nodes`, in topological order, cut into pieces (see propose)."""
    pieces, piece, matmuls = [], [], 0
    for node in nodes:
        full = matmuls == max_matmuls and convert.is_matmul(node)
        if full or (matmuls and convert.is_row_reduction(node)):
            pieces.append(piece)
            piece, matmuls = [], 0
        matmuls += convert.is_matmul(node)
        piece.append(node)
    return pieces + [piece]


def _stable_topological_sort(graph):
    """Reorders `graph`'s nodes so that each follows its operands, keeping
    the existing order wherever it already does."""
    placed, order = set(), []

    def place(node):
        stack = [(node, False)]
        while stack:
            current, ready = stack.pop()
            if current in placed:
                continue
            if ready:
                placed.add(current)
                order.append(current)
                continue
            stack.append((current, True))
            for operand in reversed(current.all_input_nodes):
                if operand not in placed:
                    stack.append((operand, False))

    for node in list(graph.nodes):
        place(node)
    for before, node in zip(order, order[1:]):
        if before.next is not node:
            before.append(node)
    graph.lint()


def stored_transposed(gm, node):
    """A node after `node` whose value is `node`'s, stored with its last
    two dimensions swapped: the transpose of a contiguous copy of its
    transpose. The copy is the graph's, so Inductor fuses it into the
    kernel that makes `node` (the cat of a KV cache and the new keys), and
    a piece's "transposed" input (convert.Input) is then a view of it.
    After a placeholder the new nodes follow the last placeholder, since
    Dynamo's and AOT's graphs keep their placeholders first."""
    graph = gm.graph
    after = node
    if node.op == "placeholder":
        after = [n for n in graph.nodes if n.op == "placeholder"][-1]
    with graph.inserting_after(after):
        swapped = graph.call_method("transpose", (node, -1, -2))
    with graph.inserting_after(swapped):
        copied = graph.call_method("contiguous", (swapped,))
    with graph.inserting_after(copied):
        return graph.call_method("transpose", (copied, -1, -2))


def replace(gm, nodes, outputs, target, args):
    """Replaces subgraph `nodes` of `gm` by `target(*args)`, a call that
    returns a list of tensors; `outputs` (convert.Output) say which of them,
    or which of their columns, each node read outside the subgraph was."""
    graph = gm.graph
    members = set(nodes)
    items = {}
    with graph.inserting_after(nodes[-1]):
        call = graph.call_function(target, args)
    for output in reversed(outputs):
        with graph.inserting_after(call):
            if output.index not in items:
                items[output.index] = graph.call_function(
                    operator.getitem, (call, output.index))
            value = items[output.index]
        if output.columns is not None:
            with graph.inserting_after(value):
                value = graph.call_function(operator.getitem, (value, (
                    Ellipsis, slice(*output.columns))))
        value.meta = dict(output.node.meta)
        output.node.replace_all_uses_with(
            value, delete_user_cb=lambda user: user not in members)
    for node in reversed(nodes):
        graph.erase_node(node)
    _stable_topological_sort(graph)
    gm.recompile()
