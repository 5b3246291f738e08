"""Scaled dot-product attention in the torch.compile backend
(mirage.torch.attention; docs/TorchCompile.md, "Attention").

Debian's CPU torch (1.13) has no F.scaled_dot_product_attention, so the
modules here call `sdpa`, a reference of it in plain torch ops that
symbolic_trace keeps as one call (torch.fx.wrap) and that the tests
register as SDPA. Pieces run through the program interpreter, as in
test_torch_backend.py.
"""

import math
import operator

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch.fx.passes.infra.partitioner")

from torch import nn  # noqa: E402

from mirage.torch import attention, dynamo, ops  # noqa: E402
from test_torch_backend import (assert_close, calls, interpreted,  # noqa: E402
                                reference, traced)


def sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
         scale=None, enable_gqa=False):
    """F.scaled_dot_product_attention, without dropout."""
    if enable_gqa:
        heads = query.shape[1]
        key = key.repeat_interleave(heads // key.shape[1], dim=1,
                                    output_size=heads)
        value = value.repeat_interleave(heads // value.shape[1], dim=1,
                                        output_size=heads)
    if scale is None:
        scale = 1 / math.sqrt(query.shape[-1])
    scores = query @ key.transpose(-1, -2) * scale
    if attn_mask is not None:
        scores = scores + attn_mask
    return torch.softmax(scores, dim=-1) @ value


torch.fx.wrap("sdpa")


@pytest.fixture(autouse=True)
def sdpa_is_attention(monkeypatch):
    monkeypatch.setattr(attention, "_TARGETS", attention._TARGETS + (sdpa,))


class Attention(nn.Module):
    """Grouped-query attention of 8 query heads over 2 KV heads, with the
    keys and values repeated per query head in one of three forms."""

    def __init__(self, form="expand", keys=64, **options):
        super().__init__()
        self.form = form
        self.keys = keys
        self.options = options

    def repeat(self, x):
        # (symbolic_trace gives no shapes: those of SHAPES' keys.)
        b, kv, s, d = 2, 2, self.keys, 16
        if self.form == "expand":
            return x[:, :, None].expand(b, kv, 4, s, d).reshape(b, 8, s, d)
        if self.form == "interleave":
            # (output_size: the meta device needs it.)
            return x.repeat_interleave(4, dim=1, output_size=8)
        return x

    def forward(self, q, k, v):
        k, v = self.repeat(k), self.repeat(v)
        return sdpa(q, k, v, enable_gqa=self.form == "gqa", **self.options)


SHAPES = ((2, 8, 1, 16), (2, 2, 64, 16), (2, 2, 64, 16))


@pytest.mark.parametrize("form", ["expand", "interleave", "gqa"])
def test_grouped_query_attention_becomes_one_piece(form):
    module = Attention(form)
    gm, inputs = traced(module, *SHAPES)
    # Logits up to about ±20: the maximum must be subtracted.
    inputs[0] = inputs[0] * 16
    [entry] = dynamo.transform(gm, inputs, interpreted)
    assert entry["kept"], entry.get("reason")
    converted = entry["converted"]
    # One matrix per KV head: its 4 query heads' rows, K transposed.
    assert [(i.kind, i.shape) for i in converted.inputs] == [
        ("rows", (4, 4, 16)), ("transposed", (4, 16, 64)),
        ("rows", (4, 64, 16))]
    text = converted.graph.to_mlir()
    assert "mirage_kernel.reduction_max" in text
    assert "mirage_kernel.mul_scalar" in text
    # The repeating nodes went with the piece; K comes stored transposed,
    # a copy the graph makes (Inductor fuses it with K's producer), so
    # that the piece's transpose of it is a view.
    assert [n.op for n in gm.graph.nodes][:3] == ["placeholder"] * 3
    assert [(n.op, n.target) for n in gm.graph.nodes
            if n.op != "placeholder"] == [
        ("call_method", "transpose"), ("call_method", "contiguous"),
        ("call_method", "transpose"), ("call_function", ops.target()),
        ("call_function", operator.getitem), ("output", "output")]
    assert len(calls(gm)) == 1
    assert_close(gm(*inputs), reference(module, inputs))
    stored = attention_argument(gm, 1, inputs)
    assert stored.transpose(-1, -2).is_contiguous()


def attention_argument(gm, index, inputs):
    """The value of argument `index` of gm's Mirage call on `inputs` (the
    graph before the call holds placeholders and tensor methods)."""
    [call] = calls(gm)
    values = dict(zip([n for n in gm.graph.nodes if n.op == "placeholder"],
                      inputs))
    for node in gm.graph.nodes:
        if node is call:
            return values[node.args[1][index]]
        if node.op == "call_method":
            tensor, *rest = node.args
            values[node] = getattr(values[tensor], node.target)(*rest)


def test_the_compile_time_check_sees_the_models_layouts():
    gm, inputs = traced(Attention(), *SHAPES)
    [entry] = dynamo.transform(gm, inputs, interpreted)
    tensors = [x.float() for x in inputs]
    laid = dynamo.arguments_as_in_the_model(entry["converted"], tensors)
    # K as the graph stores it; Q and V as they come.
    assert laid[1].transpose(-1, -2).is_contiguous()
    assert not laid[1].is_contiguous() and torch.equal(laid[1], tensors[1])
    assert laid[0] is tensors[0] and laid[2] is tensors[2]
    # The piece computes the same from either.
    subgraph = entry["subgraph"]
    assert torch.allclose(subgraph(laid)[0], subgraph(tensors)[0])


def test_several_query_tokens_and_a_given_scale():
    module = Attention(scale=0.5)
    shapes = ((2, 8, 3, 16),) + SHAPES[1:]
    gm, inputs = traced(module, *shapes)
    [entry] = dynamo.transform(gm, inputs, interpreted)
    assert entry["kept"], entry.get("reason")
    assert entry["converted"].inputs[0].shape == (4, 12, 16)
    assert "by 5.000000000e-01 " in entry["converted"].graph.to_mlir()
    assert_close(gm(*inputs), reference(module, inputs))


class Masked(nn.Module):
    def forward(self, q, k, v, mask):
        return sdpa(q, k, v, attn_mask=mask)


@pytest.mark.parametrize("case, reason", [
    ("causal", "causal attention"),
    ("mask", "attention with a mask"),
    ("few keys", f"fewer than {attention.MIN_KEYS}"),
    ("groups", "for queries of shape"),
])
def test_attention_the_backend_leaves_says_why(case, reason):
    shapes = SHAPES
    if case == "causal":
        module = Attention("none", is_causal=True)
        shapes = ((2, 2, 1, 16),) + SHAPES[1:]
    elif case == "mask":
        module = Masked()
        shapes = ((2, 2, 1, 16),) + SHAPES[1:] + ((1, 1, 1, 64),)
    elif case == "few keys":
        module = Attention(keys=32)
        shapes = SHAPES[:1] + ((2, 2, 32, 16),) * 2
    else:  # 8 query heads over 3 KV heads
        module = Attention("gqa")
        shapes = SHAPES[:1] + ((2, 3, 64, 16),) * 2
    gm, inputs = traced(module, *shapes)
    before = gm.code
    [entry] = dynamo.transform(gm, inputs, interpreted)
    assert not entry["kept"]
    assert reason in entry["reason"]
    assert gm.code == before


def test_attention_on_a_shape_that_is_not_static_stays():
    gm, inputs = traced(Attention(), *SHAPES)
    q = next(n for n in gm.graph.nodes if n.op == "placeholder")
    q.meta = {}
    [entry] = dynamo.transform(gm, inputs, interpreted)
    assert not entry["kept"]
    assert "not 4-D of static shape" in entry["reason"]
    assert not calls(gm)
