"""Scaled dot-product attention as a Mirage subgraph.

`F.scaled_dot_product_attention(q, k, v)` with q of shape (b, H, t, d) and
k, v of (b, H, s, d) becomes the attention the search knows, one matrix
per KV head:

    O = softmax(Q K * scale - max) V,  Q: (b*KV, G*t, d),  K: (b*KV, d, s)

where the H query heads are KV groups of G = H / KV heads. The keys and
values of a grouped-query model enter once per KV head: the piece takes
in the nodes that repeat them for each query head (Hugging Face's
`repeat_kv`: `x[:, :, None].expand(b, KV, G, s, d).reshape(b, H, s, d)`,
or `x.repeat_interleave(G, dim=1)`), or SDPA's `enable_gqa=True` says so.
Q and V are views of the caller's tensors; K enters transposed (the kernel
dialect's matmul reads its right operand as (k, n)), stored so by a copy
the model's graph makes (partition.stored_transposed), which Inductor fuses
into the kernel that makes K.

Left to Inductor, with the reason: a mask, `is_causal`, dropout, other
dtypes than f16 and bf16, shapes that are not static, and fewer than
`MIN_KEYS` keys (a decision: over so few keys the softmax is a small
share of the model, not worth a search).
"""

import math
import operator

import torch

from mirage import graph as kernel_graph
from mirage.torch import convert

__all__ = ["MIN_KEYS", "is_attention", "piece", "convert_piece"]

#: The fewest keys an attention piece takes.
MIN_KEYS = 64

_TARGETS = tuple(f for f in (
    getattr(torch.nn.functional, "scaled_dot_product_attention", None),
    getattr(getattr(torch._C, "_nn", None), "scaled_dot_product_attention",
            None)) if f is not None)

_PARAMETERS = ("query", "key", "value", "attn_mask", "dropout_p",
               "is_causal", "scale", "enable_gqa")


def is_attention(node):
    """Whether `node` calls scaled_dot_product_attention."""
    return getattr(node, "op", None) == "call_function" and \
        node.target in _TARGETS


def _fail(node, message):
    raise convert.Unsupported(f"{node.name}: {message}")


def _shape(node):
    meta = convert.tensor_meta(node) if hasattr(node, "op") else None
    if meta is None:
        return None
    return meta[0]


def _is_call(node, function, method):
    return hasattr(node, "op") and (
        (node.op == "call_function" and node.target in function) or
        (node.op == "call_method" and node.target == method))


def _repeated(node, heads):
    """(source, nodes) when `node` repeats each of source's KV heads for
    its group of query heads (the forms of the module doc) and `heads`
    is its head count; else (node, [])."""
    shape = _shape(node)
    if shape is None or len(shape) != 4 or len(node.users) != 1:
        return node, []
    if _is_call(node, (torch.repeat_interleave,), "repeat_interleave"):
        source = node.args[0]
        repeats = node.args[1] if len(node.args) > 1 else \
            node.kwargs.get("repeats")
        dim = node.args[2] if len(node.args) > 2 else node.kwargs.get("dim")
        inner = _shape(source)
        if isinstance(repeats, int) and dim in (1, -3) and inner and \
                inner[1] * repeats == heads:
            return source, [node]
        return node, []
    if not _is_call(node, (torch.reshape,), "reshape"):
        return node, []
    expand = node.args[0]
    if not _is_call(expand, (), "expand") or len(expand.users) != 1:
        return node, []
    index = expand.args[0]
    if not _is_call(index, (operator.getitem,), None) or \
            len(index.users) != 1:
        return node, []
    source = index.args[0]
    inner, spread = _shape(source), _shape(expand)
    if inner is None or spread is None or _shape(index) != \
            inner[:2] + (1,) + inner[2:]:
        return node, []
    b, kv, s, d = inner
    if spread != (b, kv, spread[2], s, d) or kv * spread[2] != heads or \
            shape != (b, heads, s, d):
        return node, []
    return source, [index, expand, node]


def _arguments(node):
    values = dict(zip(_PARAMETERS, node.args))
    values.update(node.kwargs)
    return values


def _parts(node):
    """(query, key source, value source, the repeating nodes, scale) of
    SDPA `node`; Unsupported for what the module doc leaves out."""
    arguments = _arguments(node)
    if arguments.get("attn_mask") is not None:
        _fail(node, "attention with a mask")
    if arguments.get("is_causal"):
        _fail(node, "causal attention")
    if arguments.get("dropout_p", 0.0) != 0:
        _fail(node, "attention with dropout")
    query, key, value = (arguments.get(n) for n in ("query", "key", "value"))
    shapes = [_shape(n) for n in (query, key, value)]
    if any(s is None or len(s) != 4 for s in shapes):
        _fail(node, "attention on tensors that are not 4-D of static shape")
    dtypes = {convert.tensor_meta(n)[1] for n in (query, key, value)}
    if len(dtypes) != 1 or dtypes.pop() not in convert.DTYPES:
        _fail(node, "attention on tensors that are not all f16 or all bf16")
    (b, heads, _, d), keys = shapes[0], shapes[1]
    nodes = []
    if arguments.get("enable_gqa"):
        k, v = key, value
    else:
        k, key_nodes = _repeated(key, heads)
        v, value_nodes = _repeated(value, heads)
        nodes = key_nodes + value_nodes
    kv_heads, s = _shape(k)[1], keys[2]
    if _shape(k) != (b, kv_heads, s, d) or _shape(v)[:3] != (b, kv_heads, s) \
            or heads % kv_heads:
        _fail(node, f"keys of shape {_shape(k)} and values of shape "
              f"{_shape(v)} for queries of shape {shapes[0]}")
    if s < MIN_KEYS:
        _fail(node, f"attention over {s} keys (fewer than {MIN_KEYS} are "
              "left to Inductor)")
    scale = arguments.get("scale")
    if scale is None:
        scale = 1 / math.sqrt(d)
    if not isinstance(scale, (int, float)):
        _fail(node, f"a scale that is no number: {scale!r}")
    return query, k, v, nodes, float(scale)


def piece(node):
    """The nodes of the attention subgraph of SDPA `node`, in topological
    order (the nodes that repeat its keys and values, then `node`);
    Unsupported when it is not expressed."""
    nodes = _parts(node)[3]
    order = {n: i for i, n in enumerate(node.graph.nodes)}
    return sorted(nodes, key=order.__getitem__) + [node]


def convert_piece(nodes):
    """Attention piece `nodes` (as `piece` gives them) as a
    convert.Converted; Unsupported when it is not expressed."""
    try:
        return _convert(nodes[-1])
    except (ValueError, TypeError) as error:
        raise convert.Unsupported(str(error)) from error


def _convert(node):
    query, k, v, _, scale = _parts(node)
    b, heads, t, d = _shape(query)
    kv_heads, s, dv = _shape(k)[1], _shape(k)[2], _shape(v)[3]
    rows = heads // kv_heads * t
    dtype = convert.DTYPES[convert.tensor_meta(query)[1]]
    graph = kernel_graph.new_kernel_graph("mirage_attention")
    inputs = [convert.Input("rows", (0,), (b * kv_heads, rows, d)),
              convert.Input("transposed", (1,), (b * kv_heads, d, s)),
              convert.Input("rows", (2,), (b * kv_heads, s, dv))]
    q, kt, vv = (graph.new_input(i.shape, dtype=dtype) for i in inputs)
    scores = graph.mul_scalar(graph.matmul(q, kt), scale)
    e = graph.exp(graph.sub(scores, graph.reduction_max(scores, dim=2)))
    out = graph.matmul(graph.div(e, graph.reduction(e, dim=2)), vv)
    graph.mark_output(out)
    shape = (b, heads, t, dv)
    return convert.Converted(graph, [query, k, v], inputs,
                             [convert.Output(node, shape, 0)], [shape])
