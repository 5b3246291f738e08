"""The torch.compile backend's partitioner and converter on
torch.fx.symbolic_trace graphs (mirage.torch; docs/TorchCompile.md).

Shapes come from ShapeProp over a copy of the module on the meta device
(CPU torch may lack half-precision matmuls). Subgraphs run through the
program interpreter, in f64, on the compiler's own reference of each
converted graph, so a transformed module can be compared with the module
itself, computed in f32.
"""

import copy
import operator
import types

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch.fx.passes.infra.partitioner")

from torch import nn  # noqa: E402
from torch.fx.passes.shape_prop import ShapeProp  # noqa: E402

from mirage import interpreter  # noqa: E402
from mirage.backends import TorchBackend  # noqa: E402
from mirage.plan import read_plan  # noqa: E402
from mirage.torch import convert, dynamo, ops, partition  # noqa: E402


class RMSNorm(nn.Module):
    """Hugging Face's LlamaRMSNorm."""

    def __init__(self, size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(size) + 0.5)
        self.eps = eps

    def forward(self, hidden):
        dtype = hidden.dtype
        hidden = hidden.to(torch.float32)
        variance = hidden.pow(2).mean(-1, keepdim=True)
        hidden = hidden * torch.rsqrt(variance + self.eps)
        return self.weight * hidden.to(dtype)


class NormLinear(nn.Module):
    def __init__(self, hidden=64, out=96, bias=False):
        super().__init__()
        self.norm = RMSNorm(hidden)
        self.proj = nn.Linear(hidden, out, bias=bias)

    def forward(self, x):
        return self.proj(self.norm(x))


class GatedMLP(nn.Module):
    """norm -> gate/up -> silu * up -> down, plus the residual."""

    def __init__(self, hidden=64, inner=128):
        super().__init__()
        self.norm = RMSNorm(hidden)
        self.gate = nn.Linear(hidden, inner, bias=False)
        self.up = nn.Linear(hidden, inner, bias=False)
        self.down = nn.Linear(inner, hidden, bias=False)

    def forward(self, x):
        h = self.norm(x)
        return x + self.down(nn.functional.silu(self.gate(h)) * self.up(h))


class Chain(nn.Module):
    """Four linears in a row, with a flip (no kernel op) in between."""

    def __init__(self, size=32, flip=False):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(size, size, bias=False)
                                    for _ in range(4))
        self.flip = flip

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if self.flip and i == 1:
                x = x.flip(-1)
        return x


def traced(module, *shapes):
    """(gm, example inputs) of `module` in f16 with shapes recorded."""
    module = module.half()
    meta = copy.deepcopy(module).to("meta")
    shaped = torch.fx.symbolic_trace(meta)
    ShapeProp(shaped).propagate(*[torch.empty(s, dtype=torch.float16,
                                              device="meta")
                                  for s in shapes])
    gm = torch.fx.symbolic_trace(module)
    metas = {node.name: node.meta for node in shaped.graph.nodes}
    for node in gm.graph.nodes:
        node.meta.update(metas[node.name])
    inputs = [(torch.randn(s) * 0.5).half() for s in shapes]
    return gm, inputs


class Interpreted:
    """Runs the compiler's reference of a converted graph in the
    interpreter; `directory` is its kernel cache entry, as a Kernel's."""

    may_overlap = True

    def __init__(self, converted):
        kernel = converted.graph.compile()
        spec = read_plan(kernel.directory).functions[kernel.function]
        self.program = interpreter.Program.from_json(spec.reference)
        self.directory = kernel.directory

    def __call__(self, *tensors, out, overlap=True):
        self.overlaps = getattr(self, "overlaps", []) + [overlap]
        results = interpreter.evaluate(self.program, list(tensors),
                                       TorchBackend(torch), "f64")
        for target, result in zip(out, results):
            target.copy_(result.to(target.dtype))


def interpreted(converted, nodes, entry):
    """A Subgraph that runs in the interpreter."""
    entry["converted"] = converted
    entry["subgraph"] = dynamo.Subgraph(converted, Interpreted(converted))
    return entry["subgraph"]


def transformed(module, *shapes, **options):
    gm, inputs = traced(module, *shapes)
    report = dynamo.transform(gm, inputs, interpreted, **options)
    return gm, inputs, report


def reference(module, inputs):
    with torch.no_grad():
        return module.float()(*[x.float() for x in inputs])


def assert_close(got, expected):
    error = (got.float() - expected).abs().max().item()
    assert error <= 2e-2 * expected.abs().max().item() + 2e-3, error


def calls(gm):
    return [n for n in gm.graph.nodes if n.target is ops.target()]


def test_rms_norm_and_linear_become_one_subgraph():
    gm, inputs, report = transformed(NormLinear(bias=True), (2, 3, 64))
    assert [e["kept"] for e in report] == [True]
    converted = report[0]["converted"]
    text = converted.graph.to_mlir()
    for op in ("rms_norm", "matmul", "mul", "add"):
        assert f"mirage_kernel.{op} " in text
    # Row form: x as 6 rows, the norm's weight and the bias as one row, the
    # weight transposed. With a bias the norm's weight is not folded.
    assert [(i.kind, i.shape) for i in converted.inputs] == [
        ("rows", (6, 64)), ("rows", (1, 64)), ("weights", (64, 96)),
        ("rows", (1, 96))]
    assert len(calls(gm)) == 1
    module = NormLinear(bias=True)
    module.load_state_dict(gm.state_dict())
    assert_close(gm(*inputs), reference(module, inputs))


class Router(nn.Module):
    """A mixture-of-experts router: a linear layer, then the softmax of
    its logits, written three ways."""

    def __init__(self, form):
        super().__init__()
        self.gate = nn.Linear(64, 32, bias=False)
        self.form = form

    def forward(self, x):
        logits = self.gate(x)
        if self.form == "function":
            return torch.softmax(logits, dim=-1)
        if self.form == "functional":
            return nn.functional.softmax(logits, dim=-1)
        return logits.softmax(-1)


@pytest.mark.parametrize("form", ["function", "functional", "method"])
def test_a_softmax_joins_the_layer_before_it_max_subtracted(form):
    module = Router(form)
    gm, inputs, report = transformed(copy.deepcopy(module), (2, 3, 64))
    assert [e["kept"] for e in report] == [True]
    text = report[0]["converted"].graph.to_mlir()
    for op in ("matmul", "reduction_max", "sub", "exp", "reduction", "div"):
        assert f"mirage_kernel.{op} " in text
    assert_close(gm(*inputs), reference(module.half(), inputs))


def test_a_softmax_over_another_dimension_stays_with_inductor():
    class Columns(nn.Module):
        def __init__(self):
            super().__init__()
            self.gate = nn.Linear(64, 32, bias=False)

        def forward(self, x):
            return torch.softmax(self.gate(x), dim=0)

    gm, _, _ = transformed(Columns(), (2, 3, 64))
    softmax = [n for n in gm.graph.nodes if n.target is torch.softmax]
    assert len(softmax) == 1


def test_a_norm_weight_folds_into_the_layers_it_feeds():
    module = NormLinear()
    gm, inputs, report = transformed(copy.deepcopy(module), (2, 3, 64))
    converted = report[0]["converted"]
    assert [(i.kind, i.shape, i.scaled) for i in converted.inputs] == [
        ("rows", (6, 64), False), ("weights", (64, 96), True)]
    assert "mirage_kernel.mul " not in converted.graph.to_mlir()
    assert_close(gm(*inputs), reference(module.half(), inputs))


class NormQKV(nn.Module):
    """A norm, then separate q, k and v projections of unequal widths whose
    results leave the subgraph (reshaped for heads)."""

    def __init__(self):
        super().__init__()
        self.norm = RMSNorm(64)
        self.q = nn.Linear(64, 64, bias=False)
        self.k = nn.Linear(64, 16, bias=False)
        self.v = nn.Linear(64, 16, bias=False)

    def forward(self, x):
        h = self.norm(x)
        q = self.q(h).view(2, 3, 4, 16)
        return q.flip(-1), self.k(h), self.v(h).flip(-1)


def test_sibling_layers_share_one_matmul_of_stacked_weights():
    module = NormQKV()
    gm, inputs, report = transformed(copy.deepcopy(module), (2, 3, 64))
    converted = report[0]["converted"]
    text = converted.graph.to_mlir()
    assert text.count("mirage_kernel.matmul ") == 1
    assert "64x96xf16" in text
    assert [(o.node.name, o.columns) for o in converted.outputs] == [
        ("linear", (0, 64)), ("linear_1", (64, 80)), ("linear_2", (80, 96))]
    for got, expected in zip(gm(*inputs), reference(module.half(), inputs)):
        assert_close(got, expected)


def test_parts_that_read_each_other_merge_unless_that_makes_a_cycle():
    gm, inputs = traced(NormQKV(), (2, 3, 64))
    partition.prepare(gm)
    nodes = {n.name: n for n in gm.graph.nodes}
    head = [nodes[n] for n in ("rms_norm", "mul_1", "linear", "linear_1")]
    [merged] = partition.merge_linked([head, [nodes["linear_2"]]])
    assert merged == set(head) | {nodes["linear_2"]}
    # The reader listed before what it reads, and a third part that must
    # survive the merge.
    other = [nodes["flip"]]
    merged = partition.merge_linked([[nodes["linear_2"]], head, other])
    assert sorted(map(len, merged)) == [1, 5]
    assert set(other) in merged
    # Diamond: out reads a directly and through a flip outside.
    gm, inputs = traced(Diamond(), (2, 32))
    partition.prepare(gm)
    nodes = {n.name: n for n in gm.graph.nodes}
    parts = [[nodes["linear"]], [nodes["add"], nodes["linear_1"]]]
    assert len(partition.merge_linked(parts)) == 2


def test_gated_mlp_with_residual_matches_the_module():
    module = GatedMLP()
    gm, inputs, report = transformed(copy.deepcopy(module), (4, 64))
    assert [e["kept"] for e in report] == [True]
    assert "silu" in report[0]["ops"]
    [call] = calls(gm)
    assert not [n for n in gm.graph.nodes if n.op == "call_module"]
    assert_close(gm(*inputs), reference(module.half(), inputs))


class NormHead(nn.Module):
    """Hugging Face's LM head: the final norm, the positions whose logits
    are kept (`[:, slice(-n, None), :]`, all of them for n = 0), then the
    projection."""

    def __init__(self, first=0, hidden=64, words=96):
        super().__init__()
        self.norm = RMSNorm(hidden)
        self.head = nn.Linear(hidden, words, bias=False)
        self.first = first

    def forward(self, x):
        return self.head(self.norm(x)[:, slice(self.first, None), :])


def test_an_index_of_whole_slices_joins_the_subgraph():
    module = NormHead()
    gm, inputs, report = transformed(copy.deepcopy(module), (2, 3, 64))
    assert [e["kept"] for e in report] == [True]
    assert "getitem" in report[0]["ops"]
    assert_close(gm(*inputs), reference(module.half(), inputs))


def test_an_index_that_selects_part_stays_outside():
    module = NormHead(first=1)
    gm, inputs, report = transformed(copy.deepcopy(module), (2, 3, 64))
    assert not any("getitem" in e["ops"] for e in report)
    assert_close(gm(*inputs), reference(module.half(), inputs))


class AroundAnIndex(nn.Module):
    """A linear whose result is read through two indexes, one of whole
    slices and one of part (the partitioner takes both with the linear, as
    it takes the getitems of a tuple)."""

    def __init__(self, size=64):
        super().__init__()
        self.first = nn.Linear(size, size, bias=False)
        self.second = nn.Linear(size - 1, size, bias=False)

    def forward(self, x):
        y = self.first(x)
        return y[..., :] + self.second(y[..., 1:])


def test_an_index_of_part_that_the_partitioner_took_is_left_out():
    module = AroundAnIndex()
    gm, inputs, report = transformed(copy.deepcopy(module), (2, 3, 64))
    assert all(e["kept"] for e in report)
    # The index of whole slices joined the first linear; the other did not.
    assert sum("getitem" in e["ops"] for e in report) == 1
    assert_close(gm(*inputs), reference(module.half(), inputs))


def test_subgraphs_hold_at_most_max_matmuls():
    def matmuls(report):
        return [e["converted"].graph.to_mlir().count("mirage_kernel.matmul")
                for e in report]

    gm, inputs, report = transformed(Chain(), (2, 32), max_matmuls=3)
    assert matmuls(report) == [3, 1] and len(calls(gm)) == 2
    gm, inputs, report = transformed(Chain(), (2, 32), max_matmuls=2)
    assert matmuls(report) == [2, 2]


def test_an_op_outside_the_set_stays_and_splits_the_subgraph():
    module = Chain(flip=True)
    gm, inputs, report = transformed(copy.deepcopy(module), (2, 32))
    assert len(report) == 2
    assert [n for n in gm.graph.nodes if n.target == "flip"]
    assert_close(gm(*inputs), reference(module.half(), inputs))


class Diamond(nn.Module):
    """a = linear(x); b = flip(a); c = a + b: merging a and c around b
    would make a cycle."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32, bias=False)
        self.out = nn.Linear(32, 32, bias=False)

    def forward(self, x):
        a = self.proj(x)
        return self.out(a + a.flip(-1))


def test_no_subgraph_reaches_around_an_outside_node():
    module = Diamond()
    gm, inputs, report = transformed(copy.deepcopy(module), (2, 32))
    gm.graph.lint()
    assert len(calls(gm)) == 2
    assert_close(gm(*inputs), reference(module.half(), inputs))


class InputWeight(nn.Module):
    def forward(self, x, w):
        return nn.functional.linear(x, w)


def test_a_weight_that_is_no_parameter_is_left_alone():
    gm, inputs, report = transformed(InputWeight(), (2, 32), (16, 32))
    assert report == [] and not calls(gm)


class ScalarAdd(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32, bias=False)

    def forward(self, x):
        return self.proj(x) * 0.5 + 1.0


def test_numbers_multiply_but_do_not_add():
    gm, inputs, report = transformed(ScalarAdd(), (2, 32))
    assert [e["kept"] for e in report] == [True]
    assert "mul_scalar" in report[0]["converted"].graph.to_mlir()
    assert [n for n in gm.graph.nodes if n.target is operator.add]


class RowsBroadcast(nn.Module):
    """y * s where s (3, 1, 32) broadcasts over some rows of (3, 4, 32) but
    not all: row form cannot express it."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32, bias=False)
        self.scale = nn.Parameter(torch.rand(3, 1, 32))

    def forward(self, x):
        return self.proj(x) * self.scale


def test_a_broadcast_row_form_cannot_express_stays_outside():
    gm, inputs, report = transformed(RowsBroadcast(), (3, 4, 32))
    assert [e["kept"] for e in report] == [True]
    assert "mul" not in report[0]["ops"]
    assert [n for n in gm.graph.nodes if n.target is operator.mul]


def test_a_piece_whose_kernel_fails_stays_with_its_reason():
    def failing(converted, nodes, entry):
        raise RuntimeError("no runtime library")

    gm, inputs = traced(NormLinear(), (2, 64))
    [entry] = dynamo.transform(gm, inputs, failing)
    assert not entry["kept"]
    assert entry["reason"] == "RuntimeError: no runtime library"
    assert not calls(gm)
    assert [n for n in gm.graph.nodes if n.target is convert.rms_norm]


def test_a_node_on_a_symbolic_shape_stays_outside():
    class Symbol:
        """Stands for a torch.SymInt (Dynamo's dynamic dimensions)."""

    gm, inputs = traced(NormLinear(), (2, 64))
    partition.prepare(gm)
    x = next(n for n in gm.graph.nodes if n.op == "placeholder")
    x.meta = {"val": types.SimpleNamespace(shape=(Symbol(), 64),
                                           dtype=torch.float16)}
    static = partition.static_inputs(gm, inputs)
    pieces = partition.propose(gm, static)
    assert pieces and all(convert.rms_norm not in [n.target for n in p]
                          for p in pieces)
    # A layer on a symbolic shape is reported, with the way out.
    linear = next(n for n in gm.graph.nodes if convert.is_matmul(n))
    linear.meta = {"val": types.SimpleNamespace(shape=(Symbol(), 96),
                                                dtype=torch.float16)}
    report = dynamo.transform(gm, inputs, interpreted)
    assert not report[0]["kept"] and "dynamic=False" in report[0]["reason"]


class TwoLayers(nn.Module):
    """Two layers of the same shapes: one kernel, two sets of weights."""

    def __init__(self):
        super().__init__()
        self.first = NormLinear(64, 64)
        self.second = NormLinear(64, 64)

    def forward(self, x):
        return self.second(self.first(x).flip(-1))


def test_keys_name_the_call_site_and_survive_a_new_process():
    module = TwoLayers()
    gm, inputs, report = transformed(copy.deepcopy(module), (2, 64))
    keys = [call.args[0] for call in calls(gm)]
    assert len(set(keys)) == 2
    assert report[0]["subgraph"].kernel.directory == \
        report[1]["subgraph"].kernel.directory
    assert_close(gm(*inputs), reference(module.half(), inputs))
    # The same model compiled again (as in another process): the same keys.
    again, _, _ = transformed(copy.deepcopy(module), (2, 64))
    assert [call.args[0] for call in calls(again)] == keys


def test_decomposed_rms_norm_becomes_one_node():
    gm, _ = traced(RMSNorm(64), (2, 64))
    partition.prepare(gm)
    targets = [n.target for n in gm.graph.nodes if n.op != "placeholder"]
    assert convert.rms_norm in targets
    assert torch.rsqrt not in targets and "pow" not in targets


def test_subgraph_remakes_its_stacked_weights_only_when_one_moves():
    gm, inputs = traced(NormLinear(), (2, 64))
    [entry] = dynamo.transform(gm, inputs, interpreted)
    subgraph = entry["subgraph"]
    assert subgraph in ops.registered().values()
    first = gm(*inputs).float()
    gm(*inputs)
    assert subgraph.restacks == 1
    # In place: frozen, like Inductor's freezing.
    with torch.no_grad():
        gm.proj.weight.mul_(2)
    assert_close(gm(*inputs), first)
    # A new tensor (4 times the first weight now): remade.
    gm.proj.weight = nn.Parameter(gm.proj.weight.detach() * 2)
    assert_close(gm(*inputs), 4 * first)
    gm.norm.weight = nn.Parameter(gm.norm.weight.detach() * 0.5)
    assert_close(gm(*inputs), 2 * first)
    assert subgraph.restacks == 3


def test_a_piece_runs_without_overlap_when_that_timed_faster():
    gm, inputs = traced(NormLinear(), (2, 64))
    [entry] = dynamo.transform(gm, inputs, interpreted)
    subgraph = entry["subgraph"]
    # As in the model, where the piece is one call in a CUDA graph: the
    # time with programmatic dependent launch against the time without.
    times = {True: 36.2, False: 33.3}
    best = dynamo.choose_overlap(subgraph,
                                 lambda: times[subgraph.overlap])
    assert (best, subgraph.overlap) == (33.3, False)
    gm(*inputs)
    assert subgraph.kernel.overlaps[-1] is False
    times = {True: 6.8, False: 7.4}
    assert dynamo.choose_overlap(subgraph,
                                 lambda: times[subgraph.overlap]) == 6.8
    assert subgraph.overlap is True
    gm(*inputs)
    assert subgraph.kernel.overlaps[-1] is True
    # One kernel, or a plan that says "overlap": false: timed once.
    subgraph.kernel.may_overlap = False
    timed = []
    assert dynamo.choose_overlap(
        subgraph, lambda: timed.append(subgraph.overlap) or 9.0) == 9.0
    assert timed == [True] and subgraph.overlap is True


@pytest.mark.skipif(not hasattr(torch, "_dynamo"),
                    reason="torch.compile needs torch 2")
def test_the_backend_is_registered_as_mirage():
    import mirage.torch  # noqa: F401
    from torch._dynamo import list_backends
    assert "mirage" in list_backends(exclude_tags=())


def test_a_failing_pass_leaves_the_graph_to_inductor(monkeypatch):
    # An error outside any one piece (here in the partitioner), or in the
    # compile of the transformed graph, is a warning: the caller compiles
    # the graph as it came.
    gm, inputs = traced(NormLinear(), (4, 64))
    before = gm.code

    def broken(*args):
        raise IndexError("list assignment index out of range")

    with monkeypatch.context() as patch:
        patch.setattr(partition, "propose", broken)
        with pytest.warns(UserWarning, match=r"the Mirage pass failed "
                          r"\(IndexError: list assignment index out of "
                          r"range at .*test_torch_backend.py:\d+\)"):
            assert dynamo.compile_with_mirage(
                gm, inputs, lambda work: interpreted, None) is None
    assert gm.code == before
    with pytest.warns(UserWarning, match="Inductor's compile of the graph "
                      "with Mirage kernels failed"):
        assert dynamo.compile_with_mirage(
            gm, inputs, lambda work: interpreted, broken) is None
    assert gm.code == before
    compiled = dynamo.compile_with_mirage(gm, inputs,
                                          lambda work: interpreted,
                                          lambda work: work)
    assert calls(compiled)


def test_a_graph_restored_as_it_came_keeps_dynamos_node_attributes():
    # Dynamo's placeholders carry `_dynamo_source`, which AOT Autograd
    # reads; a graph left to Inductor (no piece kept) must keep it.
    gm, inputs = traced(NormLinear(), (4, 64))
    for node in gm.graph.nodes:
        node._dynamo_source = f"L['{node.name}']"

    def slower(converted, nodes, entry):
        entry["reason"] = "slower"

    with pytest.warns(UserWarning, match="left to Inductor: slower"):
        assert dynamo.compile_with_mirage(gm, inputs, lambda work: slower,
                                          None) is None
    assert [n._dynamo_source for n in gm.graph.nodes] == [
        f"L['{n.name}']" for n in gm.graph.nodes]
