#!/usr/bin/env python3
"""Bundles of GEMV-like µGraphs over their grid, for-loop and block sizes.

    make-gemv-sweep.py OUT [--build build] [--variants s4,s8]
                       [--cases a,b] [--quick]

Writes OUT/<variant>/searched_<case>: one bundle per case and code
generator variant (named `searched_<case>`, so that bench/gpu/bench.py
measures every function of it against the case's baselines). The variants
(VARIANTS) are the code generator's options: at most 4 or 8 pipeline
stages (`s4`, `s8`), cp.async instead of TMA (`cpasync`), tiles read in
place without staging (`inplace`), matmuls on the SIMT path (`simt`).
Each function is the fused single-kernel µGraph of the case (RMSNorm +
Linear at bs1 and bs8, the gated MLP, Qwen2.5-7B's decode norm + QKV
projection in bf16, and the two GEMV kernels of a Llama MLP at one token:
gate, up and SiLU·up, and the down projection) at one grid size (columns
per block), for-loop count (rows of the weight per stage) and block size,
named `<case>_g<grid>_f<forloop>_t<threads>`; `--quick` keeps a few of
them per case. A case without a program file gets its reference written to
OUT/references. The sweep measured the cost model's memory terms
(docs/Benchmarks/GemvSweep.md): on the GPU,

    bench/gpu/bench.py OUT/s4 --cases rmsnorm_linear_bs1,rmsnorm_linear_bs8,gated_mlp
    bench/gpu/bench.py OUT/s4 --suite generality --cases qwen25_7b_norm_qkv_t1_bf16

then bench/calibrate-cost-model.py ranks the model against the results
(each bundle keeps its functions as source.mlir). `mirage-tune` on each
bundle compares the variants (docs/Benchmarks/KernelProfiles.md, "GEMV
kernels").
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tuning_group import write_bundle  # noqa: E402


def gemv_types(rows, grid, forloop, dtype, k, n):
    """The types of a GEMV kernel X @ W (X rows x k, W k x n) whose blocks
    each own n / grid columns over k / forloop rows of W per iteration: X,
    W, the output, and the tiles of X, W, the output and one per row."""
    kt, nt = k // forloop, n // grid
    stensor = lambda shape: f"!mirage_block.stensor<{shape}x{dtype}>"
    return (f"tensor<{rows}x{k}x{dtype}>", f"tensor<{k}x{n}x{dtype}>",
            f"tensor<{rows}x{n}x{dtype}>", stensor(f"{rows}x{kt}"),
            stensor(f"{kt}x{nt}"), stensor(f"{rows}x{nt}"),
            stensor(f"{rows}x1"))


def linear(name, rows, grid, forloop, threads, dtype="f16", k=8192, n=2048,
           norm=False):
    """X @ W as one kernel, or rms_norm(X) @ W with `norm`: X rows x k, W
    k x n."""
    x, w, out, xt, wt, ot, rt = gemv_types(rows, grid, forloop, dtype, k, n)
    saved = "%4"
    if norm:
        saved = "%6"
        norm = f"""
      %5 = forloop_accum %1 rms_last : {xt} -> {rt}
      %6 = div %4, %5 : {ot}, {rt} -> {ot}"""
    return f"""  func.func @{name}(%arg0: {x}, %arg1: {w}) -> {out} {{
    %0 = mirage_kernel.graph_def(%arg2 = %arg0 : {x}, %arg3 = %arg1 : {w}) -> {out} grid [{grid}, 1, 1] block [{threads}, 1, 1] forloop {forloop} {{
      %1 = input_loader %arg2 imap <> fmap 1 : {x} -> {xt}
      %2 = input_loader %arg3 imap <x = 1> fmap 0 : {w} -> {wt}
      %3 = matmul %1, %2 : {xt}, {wt} -> {ot}
      %4 = forloop_accum %3 sum : {ot} -> {ot}{norm or ""}
      %r = output_saver {saved} omap <x = 1> : {ot} -> {out}
      yield %r : {out}
    }}
    return %0 : {out}
  }}
"""


def gated_mlp(name, rows, grid, forloop, threads, dtype="f16", k=4096,
              n=4096):
    """silu(X @ W1) * (X @ W2) as one kernel."""
    x, w, out, xt, wt, ot, _ = gemv_types(rows, grid, forloop, dtype, k, n)
    return f"""  func.func @{name}(%arg0: {x}, %arg1: {w}, %arg2: {w}) -> {out} {{
    %0 = mirage_kernel.graph_def(%arg3 = %arg0 : {x}, %arg4 = %arg1 : {w}, %arg5 = %arg2 : {w}) -> {out} grid [{grid}, 1, 1] block [{threads}, 1, 1] forloop {forloop} {{
      %1 = input_loader %arg3 imap <> fmap 1 : {x} -> {xt}
      %2 = input_loader %arg4 imap <x = 1> fmap 0 : {w} -> {wt}
      %3 = input_loader %arg5 imap <x = 1> fmap 0 : {w} -> {wt}
      %4 = matmul %1, %2 : {xt}, {wt} -> {ot}
      %5 = matmul %1, %3 : {xt}, {wt} -> {ot}
      %6 = forloop_accum %4 sum : {ot} -> {ot}
      %7 = forloop_accum %5 sum : {ot} -> {ot}
      %8 = thread_graph %6, %7 : {ot}, {ot} -> {ot} {{
      ^bb0(%a: {dtype}, %b: {dtype}):
        %10 = silu %a : {dtype}
        %11 = mul %b, %10 : {dtype}
        yield %11 : {dtype}
      }}
      %9 = output_saver %8 omap <x = 1> : {ot} -> {out}
      yield %9 : {out}
    }}
    return %0 : {out}
  }}
"""


def gated_reference(name, rows, k, n, dtype="f16"):
    """The program silu(X @ W1) * (X @ W2)."""
    x, w, o = (f"tensor<{rows}x{k}x{dtype}>", f"tensor<{k}x{n}x{dtype}>",
               f"tensor<{rows}x{n}x{dtype}>")
    return f"""func.func @{name}(%X: {x}, %W1: {w}, %W2: {w}) -> {o} {{
  %G = mirage_kernel.matmul %X, %W1 : {x}, {w} -> {o}
  %A = mirage_kernel.silu %G : {o}
  %U = mirage_kernel.matmul %X, %W2 : {x}, {w} -> {o}
  %O = mirage_kernel.mul %A, %U : {o}, {o} -> {o}
  return %O : {o}
}}
"""


def linear_reference(name, rows, k, n, dtype="f16"):
    """The program X @ W."""
    x, w, o = (f"tensor<{rows}x{k}x{dtype}>", f"tensor<{k}x{n}x{dtype}>",
               f"tensor<{rows}x{n}x{dtype}>")
    return f"""func.func @{name}(%X: {x}, %W: {w}) -> {o} {{
  %O = mirage_kernel.matmul %X, %W : {x}, {w} -> {o}
  return %O : {o}
}}
"""


#: case -> (reference program: a file, or a writer of one and its
#: arguments; µGraph writer, its fixed arguments, grids, for-loop counts).
CASES = {
    "rmsnorm_linear_bs1": ("examples/benchmarks/rmsnorm_linear_bs1.mlir",
                           linear, dict(rows=2, k=4096, n=6144, norm=True),
                           (48, 96, 128, 192, 384),
                           (4, 8, 16, 32)),
    "rmsnorm_linear_bs8": ("examples/benchmarks/rmsnorm_linear_bs8.mlir",
                           linear, dict(rows=16, k=4096, n=6144, norm=True),
                           (48, 96, 128, 192, 384),
                           (4, 8, 16, 32)),
    "gated_mlp": ("examples/benchmarks/gated_mlp.mlir", gated_mlp,
                  dict(rows=8), (32, 64, 128, 256), (8, 16, 32)),
    "qwen25_7b_norm_qkv_t1_bf16": (
        "bench/generality/qwen25_7b_norm_qkv_t1_bf16.mlir", linear,
        dict(rows=1, dtype="bf16", k=3584, n=4608, norm=True),
        (36, 48, 72, 96, 144, 288),
        (7, 14, 28)),
    "llama_gate_up_t1": ((gated_reference, dict(rows=1, k=2048, n=8192)),
                         gated_mlp, dict(rows=1, k=2048, n=8192),
                         (64, 128, 256, 512), (4, 8, 16)),
    "llama_down_t1": ((linear_reference, dict(rows=1, k=8192, n=2048)),
                      linear, dict(rows=1, k=8192, n=2048),
                      (16, 32, 64, 128), (8, 16, 32, 64)),
}
#: case -> the (grid, for-loop) pairs of --quick: the fastest of earlier
#: runs and their neighbours.
QUICK = {
    "rmsnorm_linear_bs1": ((96, 16), (192, 8), (384, 16)),
    "rmsnorm_linear_bs8": ((96, 16), (192, 8), (384, 16)),
    "gated_mlp": ((128, 16), (64, 32), (256, 16)),
    "qwen25_7b_norm_qkv_t1_bf16": ((72, 14), (144, 14), (288, 14)),
    "llama_gate_up_t1": ((128, 8), (256, 8), (512, 4)),
    "llama_down_t1": ((32, 32), (64, 16), (128, 16)),
}
THREADS = (128, 256)
#: variant -> mirage-bundle's code generator options.
VARIANTS = {
    "s4": ["--stages=4"],
    "s8": ["--stages=8"],
    "cpasync": ["--stages=4", "--tma=false"],
    "inplace": ["--stages=0"],
    "simt": ["--stages=4", "--tensor-cores=false"],
}


def reference_file(case, reference, out):
    """The reference program's path: the case's file, or one written to
    OUT/references."""
    if isinstance(reference, str):
        return os.path.join(ROOT, reference)
    write, arguments = reference
    os.makedirs(os.path.join(out, "references"), exist_ok=True)
    path = os.path.join(out, "references", f"{case}.mlir")
    with open(path, "w") as f:
        f.write(write(case, **arguments))
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--variants", default="s4,s8",
                        help=f"comma-separated, of {','.join(VARIANTS)}")
    parser.add_argument("--cases", help="comma-separated (default: all)")
    parser.add_argument("--quick", action="store_true",
                        help="only the (grid, for-loop) pairs of QUICK")
    args = parser.parse_args()
    variants = args.variants.split(",")
    cases = args.cases.split(",") if args.cases else list(CASES)
    for name in variants + cases:
        if name not in VARIANTS and name not in CASES:
            parser.error(f"unknown variant or case '{name}'")
    bundler = os.path.join(args.build, "bin", "mirage-bundle")
    for case in cases:
        reference, write, fixed, grids, forloops = CASES[case]
        pairs = (QUICK[case] if args.quick else
                 [(g, f) for g in grids for f in forloops])
        functions = [write(f"{case}_g{g}_f{f}_t{t}", grid=g, forloop=f,
                           threads=t, **fixed)
                     for g, f in pairs for t in THREADS]
        program = reference_file(case, reference, args.out)
        for variant in variants:
            write_bundle(os.path.join(args.out, variant, f"searched_{case}"),
                         bundler, case, variant, program, functions,
                         VARIANTS[variant])
        print(f"{case}: {len(functions)} functions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
