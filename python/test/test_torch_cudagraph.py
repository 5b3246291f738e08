"""The backend's own CUDA graphs (mirage.torch.cudagraph;
docs/TorchCompile.md, "CUDA graphs") on the CPU: which graphs may run in
one, and the runner's copies, captures and fallbacks, with a stand-in for
the capture that keeps a CUDA graph's fixed addresses (each replay
recomputes into the outputs of the capture from the tensors it was
captured on). test_torch_backend_on_gpu.py runs real CUDA graphs.
"""

import operator
import warnings

import pytest

torch = pytest.importorskip("torch")

from torch import nn  # noqa: E402

from mirage.torch import cudagraph, dynamo  # noqa: E402


def fixed_addresses(function, inputs):
    """A capture on the CPU: replay reruns `function` on the captured
    inputs and writes into the captured outputs."""
    outputs = function(*inputs)

    def replay():
        for output, new in zip(outputs, function(*inputs)):
            output.copy_(new)
    return replay, outputs


def linear(weight, x):
    return [x @ weight]


def runner(function=linear, capture=fixed_addresses):
    return cudagraph.CudaGraphRunner(function, [0], capture=capture)


def test_each_call_reads_its_own_inputs_and_keeps_its_outputs():
    weight = torch.randn(4, 3)
    run = runner()
    first, second = torch.randn(2, 4), torch.randn(2, 4)
    [got_first] = run(weight, first)
    [got_second] = run(weight, second)
    assert run.captures == 1
    assert torch.equal(got_first, first @ weight)
    assert torch.equal(got_second, second @ weight)
    assert got_first.data_ptr() != got_second.data_ptr()


def test_a_static_input_is_read_where_it_is_and_captured_again_if_moved():
    weight, x = torch.randn(4, 3), torch.randn(2, 4)
    run = runner()
    run(weight, x)
    weight.mul_(2)  # in place: the graph reads it where it is
    assert torch.equal(run(weight, x)[0], x @ weight)
    assert run.captures == 1
    moved = torch.randn(4, 3)
    assert torch.equal(run(moved, x)[0], x @ moved)
    assert run.captures == 2


def test_a_graph_whose_statics_keep_moving_runs_without_one():
    run = runner()
    x = torch.randn(2, 4)
    for _ in range(cudagraph.MAX_CAPTURES + 2):
        weight = torch.randn(4, 3)
        assert torch.equal(run(weight, x)[0], x @ weight)
    assert run.captures == cudagraph.MAX_CAPTURES
    assert "moved" in run.uncaptured


def test_a_failed_capture_warns_and_runs_without_a_graph():
    def failing(function, inputs):
        raise RuntimeError("operation not permitted when stream is "
                           "capturing")
    run = runner(capture=failing)
    weight, x = torch.randn(4, 3), torch.randn(2, 4)
    with pytest.warns(UserWarning, match="capture failed .*not permitted"):
        got = run(weight, x)
    assert torch.equal(got[0], x @ weight)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(run(weight, x)[0], x @ weight)


def test_an_input_whose_elements_share_memory_runs_without_a_graph():
    weight = torch.randn(4, 3)
    row = torch.randn(1, 4).expand(2, 4)  # stride 0: no buffer takes it
    run = runner()
    with pytest.warns(UserWarning, match="capture failed"):
        assert torch.equal(run(weight, row)[0], row @ weight)
    assert run.uncaptured


class Writes(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.register_buffer("cache", torch.zeros(2, 4))
        self.target = target

    def forward(self, x, y):
        if self.target == "buffer":
            self.cache.add_(x)
        elif self.target == "input view":
            y[0].copy_(x[0])
        elif self.target == "new tensor":
            (x * 2).add_(1)
        elif self.target == "inplace":
            y = nn.functional.relu(y, inplace=True)
        return x + y + self.cache


@pytest.mark.parametrize("target,written", [
    ("buffer", None), ("new tensor", None), ("input view", "copy_"),
    ("inplace", "relu")])
def test_only_a_write_into_an_input_handed_anew_blocks_the_graph(
        target, written):
    gm = torch.fx.symbolic_trace(Writes(target))
    node = cudagraph.written_input(gm, [torch.randn(2, 4)] * 2)
    assert (node and node.name) == written


def test_an_item_assignment_into_an_input_blocks_the_graph():
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    graph.call_function(operator.setitem, (x, 0, 1.0))
    graph.output(x)
    gm = torch.fx.GraphModule(nn.Module(), graph)
    assert cudagraph.written_input(gm, [torch.randn(2)]).name == "setitem"


def test_parameters_and_inputs_dynamo_marks_are_static():
    gm = torch.fx.symbolic_trace(lambda w, b, x: x @ w + b)
    marked = torch.randn(3)
    marked._dynamo_static_input_type = "unguarded"
    inputs = [nn.Parameter(torch.randn(4, 3)), marked, torch.randn(2, 4)]
    assert cudagraph.static_indices(gm, inputs) == [0, 1]


def test_the_backend_uses_its_runner_only_where_the_mode_has_graphs(
        monkeypatch):
    dynamo.clear_reports()
    gm = torch.fx.symbolic_trace(lambda x: x * 2)
    same = dynamo._runner_for(gm, [torch.randn(2)], {})
    assert same(linear) is linear and dynamo.cuda_graphs() == []
    patches = {"triton.cudagraphs": True}
    dynamo._runner_for(gm, [torch.randn(2)], patches)
    monkeypatch.setattr(dynamo.config, "own_cuda_graphs", False)
    dynamo._runner_for(gm, [torch.randn(2)], patches)
    assert dynamo.cuda_graphs() == [
        {"runner": "inductor", "reason": "an input on cpu"},
        {"runner": "inductor", "reason": "config.own_cuda_graphs is False"}]
    assert patches["triton.cudagraphs"] is True
