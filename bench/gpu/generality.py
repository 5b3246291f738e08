"""The generality suite (docs/Benchmarks/Generality.md): programs taken from
the layers of real models, none of them tuned for, measured the same way as
the benchmarks (bench.py --suite generality).

Every program is written here once, as shapes and a kind, and yields both
its kernel graph (`mlir`, committed as bench/generality/<name>.mlir by
bench/write-programs.py; a test checks the files agree) and its
PyTorch program (the eager baseline, and what torch.compile compiles).

The models' dimensions (hidden size, intermediate size, query and KV heads,
head dimension) are those of their published configurations:

  Llama-3-8B    4096, 14336, 32 / 8 heads, head dim 128
  Mistral-7B    4096, 14336, 32 / 8 heads, head dim 128
  Qwen2.5-7B    3584, 18944, 28 / 4 heads, head dim 128
  Llama-3.2-1B  2048,  8192, 32 / 8 heads, head dim 64

Conventions, as in the benchmarks (docs/Benchmarks/Method.md): rms_norm has
no weight and eps 0 (a model's weight folds into the projection that
follows), softmax is exp / sum(exp) (no scaling, no max-subtraction: the
dialect's attention of the Mirage paper), attention takes K transposed
(heads, dim, keys) and puts the query heads that share a KV head, times the
query tokens, in the rows of their KV head. Importing this module needs no
torch; calling a program does.
"""

from cases import Case, rms_norm

#: name -> (hidden, intermediate, query heads, KV heads, head dim).
MODELS = {
    "llama3_8b": (4096, 14336, 32, 8, 128),
    "mistral_7b": (4096, 14336, 32, 8, 128),
    "qwen25_7b": (3584, 18944, 28, 4, 128),
    "llama32_1b": (2048, 8192, 32, 8, 64),
}

TORCH_DTYPES = {"f16": "float16", "bf16": "bfloat16"}


class Program:
    """A kernel graph under construction: its inputs and ops as MLIR text."""

    def __init__(self, name, dtype):
        self.name, self.dtype = name, dtype
        self.inputs, self.lines = [], []

    def type(self, shape):
        return f"tensor<{'x'.join(map(str, shape))}x{self.dtype}>"

    def input(self, name, shape):
        self.inputs.append((name, tuple(shape)))
        return name, tuple(shape)

    def op(self, result, text, shape):
        self.lines.append(f"  %{result} = mirage_kernel.{text}")
        return result, tuple(shape)

    def matmul(self, result, a, b):
        shape = a[1][:-1] + b[1][-1:]
        return self.op(result, f"matmul %{a[0]}, %{b[0]} : {self.type(a[1])}, "
                       f"{self.type(b[1])} -> {self.type(shape)}", shape)

    def unary(self, result, name, a):
        return self.op(result, f"{name} %{a[0]} : {self.type(a[1])}", a[1])

    def binary(self, result, name, a, b):
        shape = tuple(max(x, y) for x, y in zip(a[1], b[1]))
        return self.op(result, f"{name} %{a[0]}, %{b[0]} : {self.type(a[1])}, "
                       f"{self.type(b[1])} -> {self.type(shape)}", shape)

    def rms_norm(self, result, a):
        return self.op(result, f"rms_norm %{a[0]} size {a[1][-1]} : "
                       f"{self.type(a[1])}", a[1])

    def reduction(self, result, a, dim):
        shape = a[1][:dim] + (1,) + a[1][dim + 1:]
        return self.op(result, f"reduction %{a[0]} dim {dim} : "
                       f"{self.type(a[1])} -> {self.type(shape)}", shape)

    def text(self, output, comment, suite="generality"):
        """The function returning `output`, headed by `comment` and by
        where it comes from: bench/gpu/<suite>.py, written by
        bench/write-programs.py."""
        arguments = ", ".join(f"%{name}: {self.type(shape)}"
                              for name, shape in self.inputs)
        return "\n".join(
            [f"// {suite.capitalize()} program {self.name}: {comment}",
             f"// Written by bench/write-programs.py from "
             f"bench/gpu/{suite}.py; do not edit.", "",
             f"func.func @{self.name}({arguments}) -> "
             f"{self.type(output[1])} {{"] + self.lines +
            [f"  return %{output[0]} : {self.type(output[1])}", "}", ""])


def norm_projection(p, tokens, hidden, columns):
    x = p.input("X", (tokens, hidden))
    w = p.input("W", (hidden, columns))
    return p.matmul("O", p.rms_norm("N", x), w)


def torch_norm_projection(x, w):
    return rms_norm(x) @ w


def gated_mlp(p, tokens, hidden, intermediate, down):
    x = p.input("X", (tokens, hidden))
    w1 = p.input("W1", (hidden, intermediate))
    w2 = p.input("W2", (hidden, intermediate))
    gate = p.unary("A", "silu", p.matmul("G", x, w1))
    h = p.binary("H", "mul", gate, p.matmul("U", x, w2))
    if not down:
        return h
    return p.matmul("O", h, p.input("W3", (intermediate, hidden)))


def torch_gated_mlp(x, w1, w2):
    import torch.nn.functional as F
    return F.silu(x @ w1) * (x @ w2)


def torch_gated_mlp_down(x, w1, w2, w3):
    return torch_gated_mlp(x, w1, w2) @ w3


def lora(p, tokens, hidden, rank):
    x = p.input("X", (tokens, hidden))
    w = p.input("W", (hidden, hidden))
    a = p.input("A", (hidden, rank))
    b = p.input("B", (rank, hidden))
    xw = p.matmul("XW", x, w)
    xab = p.matmul("XAB", p.matmul("XA", x, a), b)
    return p.binary("O", "add", xw, xab)


def torch_lora(x, w, a, b):
    return x @ w + (x @ a) @ b


def softmax(p, rows, columns):
    e = p.unary("E", "exp", p.input("S", (rows, columns)))
    return p.binary("O", "div", e, p.reduction("R", e, 1))


def torch_softmax(s):
    import torch
    e = torch.exp(s)
    return e / e.sum(-1, keepdim=True)


def attention(p, heads, rows, dim, keys):
    q = p.input("Q", (heads, rows, dim))
    k = p.input("K", (heads, dim, keys))
    v = p.input("V", (heads, keys, dim))
    e = p.unary("E", "exp", p.matmul("S", q, k))
    probabilities = p.binary("P", "div", e, p.reduction("R", e, 2))
    return p.matmul("O", probabilities, v)


def torch_attention(q, k, v):
    import torch
    e = torch.exp(q @ k)
    return (e / e.sum(-1, keepdim=True)) @ v


class Spec:
    """One program of a suite (this one, or another such as the bandwidth
    suite's, bandwidth.py): its name, dtype, kind and sizes."""

    def __init__(self, model, what, dtype, build, torch_program, comment,
                 group=None, suite="generality"):
        self.name = f"{model}_{what}_{dtype}"
        self.dtype = dtype
        self.build, self.torch_program = build, torch_program
        self.comment, self.group = comment, group
        self.suite = suite

    def program(self):
        p = Program(self.name, self.dtype)
        output = self.build(p)
        return p, output

    def mlir(self):
        p, output = self.program()
        return p.text(output, self.comment, self.suite)

    def case(self):
        p, output = self.program()
        return Case(self.name, [shape for _, shape in p.inputs], output[1],
                    self.torch_program, dtype=self.dtype,
                    groups=(1, self.group) if self.group else (),
                    suite=self.suite)


def _projection(model, tokens, dtype):
    hidden, _, heads, kv, dim = MODELS[model]
    columns = (heads + 2 * kv) * dim
    return Spec(model, f"norm_qkv_t{tokens}", dtype,
                lambda p: norm_projection(p, tokens, hidden, columns),
                torch_norm_projection,
                f"rms_norm then the QKV projection, {tokens} tokens "
                f"({hidden} -> {columns}), {dtype}")


def _mlp(model, tokens, dtype, down):
    hidden, intermediate, *_ = MODELS[model]
    what = "mlp_down" if down else "mlp"
    return Spec(model, f"{what}_t{tokens}", dtype,
                lambda p: gated_mlp(p, tokens, hidden, intermediate, down),
                torch_gated_mlp_down if down else torch_gated_mlp,
                f"gated MLP silu(X W1) * (X W2)" +
                (" then its down projection W3" if down else "") +
                f", {tokens} tokens ({hidden} -> {intermediate}), {dtype}")


def _lora(model, tokens, rank, dtype):
    hidden = MODELS[model][0]
    return Spec(model, f"lora_r{rank}_t{tokens}", dtype,
                lambda p: lora(p, tokens, hidden, rank), torch_lora,
                f"X W + (X A) B, LoRA of rank {rank} on a {hidden}x{hidden} "
                f"projection, {tokens} tokens, {dtype}")


def _softmax(model, tokens, keys, dtype):
    heads = MODELS[model][2]
    return Spec(model, f"softmax_t{tokens}_k{keys}", dtype,
                lambda p: softmax(p, tokens * heads, keys), torch_softmax,
                f"row softmax of the attention scores of {heads} heads, "
                f"{tokens} tokens over {keys} keys, {dtype}")


def _attention(model, batch, tokens, keys, dtype):
    _, _, heads, kv, dim = MODELS[model]
    group = heads // kv
    length = f"{keys // 1024}k" if keys % 1024 == 0 else str(keys)
    return Spec(model, f"attn_b{batch}_t{tokens}_kv{length}", dtype,
                lambda p: attention(p, batch * kv, group * tokens, dim, keys),
                torch_attention,
                f"attention of batch {batch}, {tokens} query tokens, "
                f"{heads} query / {kv} KV heads of dim {dim}, {keys} keys, "
                f"{dtype}", group=group)


#: The suite, in the order of its table.
SPECS = [
    _projection("llama3_8b", 1, "f16"),
    _projection("llama3_8b", 512, "f16"),
    _mlp("llama3_8b", 8, "f16", down=False),
    _mlp("llama3_8b", 1, "f16", down=True),
    _attention("llama3_8b", 1, 1, 4096, "f16"),
    _attention("llama3_8b", 4, 1, 8192, "f16"),
    _lora("llama3_8b", 16, 16, "f16"),
    _softmax("llama3_8b", 1, 8192, "f16"),
    _projection("qwen25_7b", 1, "bf16"),
    _projection("qwen25_7b", 16, "bf16"),
    _projection("qwen25_7b", 2048, "bf16"),
    _mlp("qwen25_7b", 1, "bf16", down=False),
    _mlp("qwen25_7b", 4, "bf16", down=True),
    _attention("qwen25_7b", 1, 1, 32768, "bf16"),
    _lora("qwen25_7b", 64, 64, "bf16"),
    _softmax("qwen25_7b", 4, 4096, "bf16"),
    _projection("mistral_7b", 4, "f16"),
    _mlp("mistral_7b", 16, "bf16", down=True),
    _mlp("mistral_7b", 512, "f16", down=False),
    _attention("mistral_7b", 8, 1, 1024, "f16"),
    _lora("mistral_7b", 1, 8, "f16"),
    _lora("mistral_7b", 32, 128, "bf16"),
    _projection("llama32_1b", 1, "f16"),
    _attention("llama32_1b", 1, 1, 2048, "f16"),
    _attention("llama32_1b", 4, 1, 16384, "bf16"),
    _attention("llama32_1b", 1, 512, 512, "f16"),
]

#: The cases of the suite by name, as bench.py measures them.
GENERALITY = {spec.name: spec.case() for spec in SPECS}
assert len(GENERALITY) == len(SPECS), "two programs share a name"
assert len(SPECS) >= 24, "the suite has at least 24 programs"
