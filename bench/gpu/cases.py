"""The benchmark cases of docs/Benchmarks/Method.md and their PyTorch
baselines, written directly from its formulas.

Each case has the shapes of its f16 inputs, in the order of the benchmark
program's inputs (examples/benchmarks/<case>.mlir; a test checks they
agree), the shape of its output, and `program`, the formula in PyTorch ops:
the eager baseline, and what torch.compile compiles. Softmax is exp / sum(exp)
with no scaling and no max-subtraction, and rms_norm has no weight and
eps 0, as in the benchmark programs. Attention cases also run
scaled_dot_product_attention (`sdpa_inputs`, `sdpa`).

Importing this module needs no torch; calling a program does.
"""

import math


class Case:
    """One benchmark: its name, input and output shapes (all f16), PyTorch
    program, and whether SDPA computes it."""

    def __init__(self, name, inputs, output, program, attention=False):
        self.name = name
        self.inputs = [tuple(shape) for shape in inputs]
        self.output = tuple(output)
        self.program = program
        self.attention = attention

    @property
    def bytes(self):
        """Unique bytes: every input read once, the output written once."""
        return 2 * sum(math.prod(shape)
                       for shape in self.inputs + [self.output])


def rms_norm(x):
    """x / sqrt(mean(x²)) over the last dimension."""
    return x / x.pow(2).mean(-1, keepdim=True).sqrt()


def attention(q, k, v):
    """O = matmul(div(E, reduction(E, dim 2)), V), E = exp(matmul(Q, K))."""
    import torch
    e = torch.exp(q @ k)
    return (e / e.sum(-1, keepdim=True)) @ v


def qknorm_attention(q, k, v):
    """Attention on rms_norm(Q), K and rms_norm(V)."""
    return attention(rms_norm(q), k, rms_norm(v))


def rmsnorm_linear(x, w):
    """O = matmul(rms_norm(X), W)."""
    return rms_norm(x) @ w


def lora(x, w, a, b):
    """O = add(matmul(X, W), matmul(matmul(X, A), B))."""
    return x @ w + (x @ a) @ b


def gated_mlp(x, w1, w2):
    """O = mul(silu(matmul(X, W1)), matmul(X, W2))."""
    import torch.nn.functional as F
    return F.silu(x @ w1) * (x @ w2)


def ntrans(h, x, alpha):
    """O = rms_norm(add(X, mul(alpha, add(rms_norm(H), X))))."""
    return rms_norm(x + alpha * (rms_norm(h) + x))


def sdpa_inputs(q, k, v):
    """The attention inputs (heads, rows, 64), K as (heads, 64, keys), in
    SDPA's layout (batch, heads, length, 64): batch 1, K transposed into a
    contiguous copy (made once, outside the timed calls). Every query row of
    a head attends to that head's keys, as the program's batched matmuls do:
    for GQA and MQA the query heads sharing a KV head are folded into the
    query length, which is GQA's head broadcasting."""
    return q[None], k.transpose(-1, -2).contiguous()[None], v[None]


def sdpa(q, k, v):
    """scaled_dot_product_attention with scale 1 on sdpa_inputs, as (heads,
    rows, 64)."""
    import torch.nn.functional as F
    return F.scaled_dot_product_attention(q, k, v, scale=1.0)[0]


def _attention_case(name, heads, rows, program=attention, sdpa_too=True):
    return Case(name, [(heads, rows, 64), (heads, 64, 4096),
                       (heads, 4096, 64)], (heads, rows, 64), program,
                attention=sdpa_too)


#: The cases, in the order of docs/Benchmarks/Method.md.
CASES = {case.name: case for case in [
    _attention_case("gqa_bs1", 2, 256),
    _attention_case("gqa_bs8", 16, 256),
    _attention_case("mha_bs1", 32, 16),
    _attention_case("mqa_bs1", 1, 1024),
    _attention_case("qknorm_gqa_bs1", 2, 256, qknorm_attention,
                    sdpa_too=False),
    Case("rmsnorm_linear_bs1", [(2, 4096), (4096, 6144)], (2, 6144),
         rmsnorm_linear),
    Case("rmsnorm_linear_bs8", [(16, 4096), (4096, 6144)], (16, 6144),
         rmsnorm_linear),
    Case("lora", [(16, 256), (256, 4096), (256, 16), (16, 4096)], (16, 4096),
         lora),
    Case("gated_mlp", [(8, 4096), (4096, 4096), (4096, 4096)], (8, 4096),
         gated_mlp),
    Case("ntrans_bs1", [(8, 4096)] * 3, (8, 4096), ntrans),
    Case("ntrans_bs8", [(64, 4096)] * 3, (64, 4096), ntrans),
]}
