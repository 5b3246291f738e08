"""torch.compile(backend="mirage") end to end on a GPU
(docs/TorchCompile.md): a small norm + gated MLP block compiled under
mode="reduce-overhead" matches eager (in the backend's own CUDA graph, call
after call, and after its weights move), and so does grouped-query attention
through SDPA with logits reaching ±30; an op outside the set compiles and
runs; a graph that needs gradients goes to Inductor with a warning. Needs
torch 2.4 or later, CUDA, the compiler library and the runtime library;
elsewhere it skips. bench/gpu-torch-compile.sh runs it on the GPU machine.
"""

import warnings

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)
if not hasattr(torch.library, "custom_op"):
    pytest.skip("torch.compile backends need torch 2.4",
                allow_module_level=True)

import mirage.torch  # noqa: E402
from torch import nn  # noqa: E402

HIDDEN, INNER = 256, 512


class Block(nn.Module):
    """RMSNorm (as Hugging Face writes it), gate/up, SiLU, down, residual;
    with `outside`, a cumsum (no kernel op) before the down projection."""

    def __init__(self, outside=False):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(HIDDEN) + 0.5)
        self.gate = nn.Linear(HIDDEN, INNER, bias=False)
        self.up = nn.Linear(HIDDEN, INNER, bias=False)
        self.down = nn.Linear(INNER, HIDDEN, bias=False)
        self.outside = outside

    def forward(self, x):
        h = x.to(torch.float32)
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-5)
        h = self.weight * h.to(x.dtype)
        inner = nn.functional.silu(self.gate(h)) * self.up(h)
        if self.outside:
            inner = torch.cumsum(inner, dim=-1) * 1e-2
        return x + self.down(inner)


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("MIRAGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MIRAGE_TUNING_DB", str(tmp_path / "tuning.json"))
    monkeypatch.setattr(mirage.torch.config, "time_limit", 10)
    torch._dynamo.reset()
    mirage.torch.clear_reports()


def compiled_against_eager(block, batch=2, **options):
    torch.manual_seed(0)
    block = block.to("cuda", torch.float16).eval()
    x = torch.randn(batch, 1, HIDDEN, device="cuda", dtype=torch.float16)
    with torch.no_grad():
        expected = block(x)
        function = torch.compile(block, backend="mirage", dynamic=False,
                                 **options)
        for _ in range(3):  # compile, then CUDA graph warm-up and replay
            got = function(x)
    error = (got.float() - expected.float()).abs().max().item()
    assert error <= 2e-2 * expected.float().abs().max().item()
    return mirage.torch.reports()


def test_a_block_under_cuda_graphs_matches_eager():
    reports = compiled_against_eager(Block(), mode="reduce-overhead")
    assert reports and all("kept" in r for r in reports)


def test_the_backends_cuda_graph_reads_each_call_and_follows_weights():
    torch.manual_seed(0)
    block = Block().to("cuda", torch.float16).eval()
    xs = [torch.randn(2, 1, HIDDEN, device="cuda", dtype=torch.float16)
          for _ in range(3)]
    function = torch.compile(block, backend="mirage", dynamic=False,
                             mode="reduce-overhead")
    with torch.no_grad():
        got = [function(x) for x in xs]
        expected = [block(x) for x in xs]
        block.down.weight.data = torch.randn_like(block.down.weight) * 0.05
        got.append(function(xs[0]))
        expected.append(block(xs[0]))
    assert mirage.torch.cuda_graphs()[0]["runner"] == "mirage"
    for value, reference in zip(got, expected):  # outputs stay valid
        error = (value.float() - reference.float()).abs().max().item()
        assert error <= 2e-2 * reference.float().abs().max().item()


class WritesItsInput(nn.Module):
    def forward(self, x, out):
        out.copy_(x * 2)
        return out + 1


def test_a_graph_that_writes_an_input_keeps_inductors_cuda_graphs():
    x = torch.randn(4, 8, device="cuda")
    out = torch.zeros_like(x)
    function = torch.compile(WritesItsInput(), backend="mirage",
                             dynamic=False, mode="reduce-overhead")
    with torch.no_grad():
        for _ in range(3):
            got = function(x, out)
    assert torch.equal(out, x * 2) and torch.equal(got, x * 2 + 1)
    [graph] = mirage.torch.cuda_graphs()
    assert graph["runner"] == "inductor" and "writes" in graph["reason"]


class Attention(nn.Module):
    """One decode token of 8 query heads over 2 KV heads and 256 keys,
    the keys and values repeated per query head as Hugging Face's
    repeat_kv does."""

    def forward(self, q, k, v):
        def repeat(x):
            return x[:, :, None].expand(2, 2, 4, 256, 64).reshape(
                2, 8, 256, 64)
        return nn.functional.scaled_dot_product_attention(q, repeat(k),
                                                          repeat(v))


def test_attention_under_cuda_graphs_matches_eager_with_large_logits():
    torch.manual_seed(0)
    q = torch.randn(2, 8, 1, 64, device="cuda", dtype=torch.float16) * 12
    k, v = (torch.randn(2, 2, 256, 64, device="cuda", dtype=torch.float16)
            for _ in range(2))
    with torch.no_grad():
        logits = (q.float() @ k.float().repeat_interleave(4, 1).transpose(
            -1, -2)) / 8
        assert logits.abs().max() > 30
        expected = Attention()(q, k, v)
        function = torch.compile(Attention(), backend="mirage",
                                 dynamic=False, mode="reduce-overhead")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(3):
                got = function(q, k, v)
    # Inductor compiled the graph with the piece in it (K's stored
    # transposed copy made by the graph, after its placeholders).
    assert not [w for w in caught if "failed" in str(w.message)]
    error = (got.float() - expected.float()).abs().max().item()
    assert error <= 2e-2 * expected.float().abs().max().item()
    [report] = mirage.torch.reports()
    assert "scaled_dot_product_attention" in report["ops"]
    assert report["kept"] or "us against Inductor" in report["reason"]


def test_an_op_outside_the_set_compiles_and_runs():
    reports = compiled_against_eager(Block(outside=True))
    assert not any("cumsum" in r["ops"] for r in reports)


def test_a_graph_that_needs_gradients_goes_to_inductor():
    block = Block().to("cuda", torch.float16)
    x = torch.randn(2, 1, HIDDEN, device="cuda", dtype=torch.float16)
    function = torch.compile(block, backend="mirage")
    with pytest.warns(UserWarning, match="needs gradients"):
        function(x).sum().backward()
    assert block.gate.weight.grad is not None
    assert mirage.torch.reports() == []
