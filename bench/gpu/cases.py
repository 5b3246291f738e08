"""The benchmark cases of docs/Benchmarks/Method.md and their PyTorch
baselines, written directly from its formulas.

Each case has the shapes of its inputs (all of one dtype, f16 for the
benchmarks), in the order of the benchmark program's inputs
(examples/benchmarks/<case>.mlir; a test checks they agree), the shape of
its output, and `program`, the formula in PyTorch ops: the eager baseline,
and what torch.compile compiles. Softmax is exp / sum(exp) with no scaling
and no max-subtraction, and rms_norm has no weight and eps 0, as in the
benchmark programs. Attention cases also run scaled_dot_product_attention
under each backend, in its native layout for every way of splitting a KV
head's rows into query heads (`groups`, `sdpa_variants`).

The generality suite (generality.py) builds its cases with the same class.
Importing this module needs no torch; calling a program does.
"""

import math

#: The suites bench.py measures, and where their programs are.
SUITE_PROGRAMS = {"benchmarks": "examples/benchmarks",
                  "generality": "bench/generality"}
#: SDPA's backends, each timed on its own (torch.nn.attention.SDPBackend).
SDPA_BACKENDS = {"flash": "FLASH_ATTENTION", "cuDNN": "CUDNN_ATTENTION",
                 "efficient": "EFFICIENT_ATTENTION"}


class Case:
    """One program measured: its name, input and output shapes, dtype ("f16"
    or "bf16"), PyTorch program, suite, and for attention the numbers of
    query heads per KV head (`groups`) under which SDPA is timed."""

    def __init__(self, name, inputs, output, program, groups=(),
                 dtype="f16", suite="benchmarks"):
        self.name = name
        self.inputs = [tuple(shape) for shape in inputs]
        self.output = tuple(output)
        self.program = program
        self.groups = tuple(groups)
        self.dtype = dtype
        self.suite = suite

    @property
    def attention(self):
        """Whether SDPA computes the case."""
        return bool(self.groups)

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


def sdpa_inputs(q, k, v, group):
    """The attention inputs (heads, rows, dim), K as (heads, dim, keys), in
    SDPA's native layout (batch, heads, length, dim): batch 1, the rows of a
    KV head taken as `group` query heads of rows / group tokens each (GQA's
    shared KV heads; group 1 folds them into the query length), K transposed
    into a contiguous copy (made once, outside the timed calls)."""
    heads, rows, dim = q.shape
    q = q.reshape(1, heads * group, rows // group, dim)
    return q, k.transpose(-1, -2).contiguous()[None], v[None]


def sdpa(q, k, v):
    """scaled_dot_product_attention with scale 1 on sdpa_inputs, in its
    layout (1, query heads, tokens, dim): the same elements as the
    program's output in the same order."""
    import torch.nn.functional as F
    return F.scaled_dot_product_attention(
        q, k, v, scale=1.0, enable_gqa=q.shape[1] != k.shape[1])


def sdpa_variants(case, inputs):
    """{name: call} of SDPA on `inputs` under every backend and group of
    `case`, e.g. "SDPA flash g=8"."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    variants = {}
    for group in case.groups:
        args = sdpa_inputs(*inputs, group)
        for label, backend in SDPA_BACKENDS.items():
            def call(args=args, backend=getattr(SDPBackend, backend)):
                with sdpa_kernel(backend):
                    return sdpa(*args)
            variants[f"SDPA {label} g={group}"] = call
    return variants


def _groups(rows):
    """The ways of splitting `rows` query rows of a KV head into query heads
    that SDPA is timed with: 1 (folded) and the powers of two up to 32 that
    divide them."""
    return tuple(g for g in (1, 4, 8, 16, 32) if rows % g == 0)


def _attention_case(name, heads, rows, program=attention, sdpa_too=True):
    return Case(name, [(heads, rows, 64), (heads, 64, 4096),
                       (heads, 4096, 64)], (heads, rows, 64), program,
                groups=_groups(rows) if sdpa_too else ())


#: The cases, in the order of docs/Benchmarks/Method.md.
CASES = {case.name: case for case in [
    _attention_case("gqa_bs1", 2, 256),
    _attention_case("gqa_bs8", 16, 256),
    # Every head has its own KV head: SDPA runs it as 32 heads of 16 tokens.
    Case("mha_bs1", [(32, 16, 64), (32, 64, 4096), (32, 4096, 64)],
         (32, 16, 64), attention, groups=(1,)),
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
