"""The bandwidth suite (docs/Benchmarks/Method.md, "The bandwidth suite"):
standalone elementwise and reduction kernels, each measured against a
device copy that moves the same bytes in the same run (bench.py --suite
bandwidth). The target is at least 0.80 of the copy's bandwidth at every
size, from 1 MB on.

Every program is f16 over rows of 4096 and comes in three sizes, 128, 2048
and 8192 rows: 1, 16 and 64 MB (MiB) per input. As in the generality suite
(generality.py, whose Program and Spec build these), each is written here
once and yields both its kernel graph (`mlir`, committed as
bench/bandwidth/<name>.mlir by bench/write-programs.py; a test
checks the files agree) and its PyTorch program (the eager baseline, and
what torch.compile compiles).

  add       X + Y
  silu_mul  silu(G) * U (the gate of a gated MLP, without its GEMMs)
  rms_norm  rms_norm of each row, no weight, eps 0 (the benchmarks')
  row_sum   the sum of each row (rows x 1)
  softmax   exp(S) / sum(exp(S)) of each row (no max-subtraction)

Importing this module needs no torch; calling a program does.
"""

from cases import rms_norm
from generality import Spec, softmax, torch_softmax

#: The width of every program's rows.
COLUMNS = 4096
#: size name -> rows: 1, 16 and 64 MiB per f16 input of COLUMNS columns.
SIZES = {"1mb": 128, "16mb": 2048, "64mb": 8192}


def add(p, rows):
    x = p.input("X", (rows, COLUMNS))
    return p.binary("O", "add", x, p.input("Y", (rows, COLUMNS)))


def torch_add(x, y):
    return x + y


def silu_mul(p, rows):
    g = p.input("G", (rows, COLUMNS))
    u = p.input("U", (rows, COLUMNS))
    return p.binary("O", "mul", p.unary("A", "silu", g), u)


def torch_silu_mul(g, u):
    import torch.nn.functional as F
    return F.silu(g) * u


def norm(p, rows):
    return p.rms_norm("O", p.input("X", (rows, COLUMNS)))


def row_sum(p, rows):
    return p.reduction("O", p.input("X", (rows, COLUMNS)), 1)


def torch_row_sum(x):
    return x.sum(1, keepdim=True)


#: kind -> (build, PyTorch program, what it computes).
KINDS = {
    "add": (add, torch_add, "X + Y"),
    "silu_mul": (silu_mul, torch_silu_mul, "silu(G) * U"),
    "rms_norm": (norm, rms_norm, "rms_norm of each row (no weight, eps 0)"),
    "row_sum": (row_sum, torch_row_sum, "the sum of each row"),
    "softmax": (lambda p, rows: softmax(p, rows, COLUMNS), torch_softmax,
                "exp(S) / sum(exp(S)) of each row"),
}


def _spec(kind, size):
    build, torch_program, what = KINDS[kind]
    rows = SIZES[size]
    return Spec("bw", f"{kind}_{size}", "f16",
                lambda p: build(p, rows), torch_program,
                f"{what}, {rows}x{COLUMNS} f16 ({size[:-2]} MB per input)",
                suite="bandwidth")


#: The suite, in the order of its table: each kind at every size.
SPECS = [_spec(kind, size) for kind in KINDS for size in SIZES]

#: The cases of the suite by name, as bench.py measures them.
BANDWIDTH = {spec.name: spec.case() for spec in SPECS}
assert len(BANDWIDTH) == len(SPECS) == 15, "15 programs, none sharing a name"
