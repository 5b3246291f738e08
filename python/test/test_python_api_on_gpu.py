"""The Python API end to end on a GPU: a graph built in Python,
superoptimized in-process, run on torch tensors and checked against
PyTorch, with every call form and the checks a call makes. Needs torch,
CUDA, the compiler library (a checkout's build, or the self-contained
package of scripts/build-python-package.sh) and the runtime library;
elsewhere it skips. bench/gpu-python-api.sh runs it on the GPU machine.
"""

import re

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

import mirage as mi  # noqa: E402
from mirage import runtime  # noqa: E402


@pytest.fixture(scope="module")
def rmsnorm_linear(tmp_path_factory):
    """Superoptimized on the GPU: tuned by default (measured selection)."""
    import os
    cache = tmp_path_factory.mktemp("cache")
    os.environ["MIRAGE_CACHE_DIR"] = str(cache)
    os.environ["MIRAGE_TUNING_DB"] = str(cache / "tuning.json")
    graph = mi.new_kernel_graph("rmsnorm_linear")
    X = graph.new_input(dims=(8, 4096), dtype=mi.float16)
    W = graph.new_input(dims=(4096, 1024), dtype=mi.float16)
    graph.mark_output(graph.matmul(graph.rms_norm(X, (4096,)), W))
    return graph.superoptimize(time_limit=30)


def test_the_choice_was_measured(rmsnorm_linear):
    report = (rmsnorm_linear.directory / "tuning.txt").read_text()
    assert "winner:" in report
    # The winner may be a candidate or the program as written.
    assert re.search(r"measured (winner|fastest)", rmsnorm_linear.remarks)


def inputs():
    generator = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(8, 4096, device="cuda", dtype=torch.float16,
                    generator=generator)
    w = torch.randn(4096, 1024, device="cuda", dtype=torch.float16,
                    generator=generator) * 0.02
    return x, w


def expected(x, w):
    x32 = x.float()
    norm = x32 / torch.sqrt((x32 * x32).mean(dim=-1, keepdim=True))
    return norm @ w.float()


def close(actual, reference):
    error = (actual.float() - reference).abs().max() / reference.abs().max()
    return error.item() < 2e-2


def test_matches_pytorch_in_every_call_form(rmsnorm_linear):
    x, w = inputs()
    reference = expected(x, w)
    assert close(rmsnorm_linear(x, w), reference)
    (listed,) = rmsnorm_linear(inputs=[x, w])
    assert close(listed, reference)
    out = torch.empty(8, 1024, device="cuda", dtype=torch.float16)
    rmsnorm_linear(x, w, out=out)
    assert close(out, reference)
    # Launched one after another, as the torch backend may choose.
    assert close(rmsnorm_linear(x, w, overlap=False), reference)


def test_runs_on_the_current_stream_and_in_a_cuda_graph(rmsnorm_linear):
    x, w = inputs()
    out = torch.empty(8, 1024, device="cuda", dtype=torch.float16)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        rmsnorm_linear(x, w, out=out)  # loads and warms up off the graph
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            rmsnorm_linear(x, w, out=out)
    out.zero_()
    graph.replay()
    torch.cuda.synchronize()
    assert close(out, expected(x, w))


@pytest.mark.parametrize("bad, message", [
    (lambda x, w: (x.float(), w), "dtype"),
    (lambda x, w: (x[:, :2048], w), "shape"),
    (lambda x, w: (x.t().contiguous().t(), w), "contiguous"),
    (lambda x, w: (x.cpu(), w), "device"),
])
def test_wrong_tensors_are_refused(rmsnorm_linear, bad, message):
    with pytest.raises((runtime.MirageArgumentError, TypeError, ValueError),
                       match=message):
        rmsnorm_linear(*bad(*inputs()))
