#!/usr/bin/env python3
"""Bundles of GEMV-like µGraphs over their grid, for-loop and block sizes.

    make-gemv-sweep.py OUT [--build build]

Writes OUT/s4 and OUT/s8: one bundle per case (named `searched_<case>`, so
that bench/gpu/bench.py measures every function of it against the case's
baselines), compiled with at most 4 and at most 8 pipeline stages. Each
function is the fused single-kernel µGraph of the case (RMSNorm + Linear at
bs1 and bs8, the gated MLP, Qwen2.5-7B's decode norm + QKV projection in
bf16) at one grid size (columns per block), for-loop count (rows of the
weight per stage) and block size, named `<case>_g<grid>_f<forloop>_t<threads>`.
The sweep measured the cost model's memory terms
(docs/Benchmarks/GemvSweep.md): on the GPU,

    bench/gpu/bench.py OUT/s4 --cases rmsnorm_linear_bs1,rmsnorm_linear_bs8,gated_mlp
    bench/gpu/bench.py OUT/s4 --suite generality --cases qwen25_7b_norm_qkv_t1_bf16

then bench/calibrate-cost-model.py ranks the model against the results
(each bundle keeps its functions as source.mlir).
"""
import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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


def norm_linear(name, rows, grid, forloop, threads, dtype="f16", k=4096,
                n=6144):
    """rms_norm(X) @ W as one kernel: X rows x k, W k x n."""
    x, w, out, xt, wt, ot, rt = gemv_types(rows, grid, forloop, dtype, k, n)
    return f"""  func.func @{name}(%arg0: {x}, %arg1: {w}) -> {out} {{
    %0 = mirage_kernel.graph_def(%arg2 = %arg0 : {x}, %arg3 = %arg1 : {w}) -> {out} grid [{grid}, 1, 1] block [{threads}, 1, 1] forloop {forloop} {{
      %1 = input_loader %arg2 imap <> fmap 1 : {x} -> {xt}
      %2 = input_loader %arg3 imap <x = 1> fmap 0 : {w} -> {wt}
      %3 = matmul %1, %2 : {xt}, {wt} -> {ot}
      %4 = forloop_accum %3 sum : {ot} -> {ot}
      %5 = forloop_accum %1 rms_last : {xt} -> {rt}
      %6 = div %4, %5 : {ot}, {rt} -> {ot}
      %7 = output_saver %6 omap <x = 1> : {ot} -> {out}
      yield %7 : {out}
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


#: case -> (reference program, µGraph writer, its fixed arguments, grids,
#: for-loop counts).
CASES = {
    "rmsnorm_linear_bs1": ("examples/benchmarks/rmsnorm_linear_bs1.mlir",
                           norm_linear, dict(rows=2), (48, 96, 128, 192, 384),
                           (4, 8, 16, 32)),
    "rmsnorm_linear_bs8": ("examples/benchmarks/rmsnorm_linear_bs8.mlir",
                           norm_linear, dict(rows=16), (48, 96, 128, 192, 384),
                           (4, 8, 16, 32)),
    "gated_mlp": ("examples/benchmarks/gated_mlp.mlir", gated_mlp,
                  dict(rows=8), (32, 64, 128, 256), (8, 16, 32)),
    "qwen25_7b_norm_qkv_t1_bf16": (
        "bench/generality/qwen25_7b_norm_qkv_t1_bf16.mlir", norm_linear,
        dict(rows=1, dtype="bf16", k=3584, n=4608), (36, 48, 72, 96, 144, 288),
        (7, 14, 28)),
}
THREADS = (128, 256)
STAGES = (4, 8)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    bundler = os.path.join(args.build, "bin", "mirage-bundle")
    for case, (reference, write, fixed, grids, forloops) in CASES.items():
        functions = [write(f"{case}_g{g}_f{f}_t{t}", grid=g, forloop=f,
                           threads=t, **fixed)
                     for g in grids for f in forloops for t in THREADS]
        for stages in STAGES:
            out = os.path.join(args.out, f"s{stages}", f"searched_{case}")
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            source = os.path.join(out, "source.mlir")
            with open(source, "w") as f:
                f.write("module {\n" + "".join(functions) + "}\n")
            subprocess.run([bundler, source, "--chips=sm_90a",
                            f"--stages={stages}",
                            f"--reference={os.path.join(ROOT, reference)}",
                            "-o", out], check=True)
        print(f"{case}: {len(functions)} functions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
