#!/usr/bin/env python3
"""Bundles of split-K LoRA µGraphs for the generality suite's LoRA programs.

    make-lora-sweep.py OUT [--build build] [--cases a,b]

`X W + (X A) B` is linear in X along the reduction axis, so blocks that
each own a slice of the reduction can add their partial `X_s W_s` and
`(X_s A_s) B` before the slices meet: sum_s (X_s W_s + (X_s A_s) B) is the
program. Each function is two kernels: the first on a grid of
(columns / tile) x splits blocks, each streaming its slice of W, X and A
over the for-loop and ending with its partial `X_s W_s + (X_s A_s) B` of
the tile, saved as rows [rows * s, rows * (s + 1)) of a (splits * rows) x n
tensor; the second sums the splits with a strided reduction. The public
search makes no such candidate (docs/Benchmarks/Generality.md, "LoRA split
over the reduction"); the sweep measures what it would gain. Functions are
named `<case>_n<tile>_s<splits>_f<forloop>`; one bundle per case,
OUT/searched_<case>, whose tuning group (with the program as written)
`mirage-tune` measures on a GPU.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tuning_group import write_bundle  # noqa: E402

CASES = ["llama3_8b_lora_r16_t16_f16", "mistral_7b_lora_r8_t1_f16",
         "mistral_7b_lora_r128_t32_bf16", "qwen25_7b_lora_r64_t64_bf16"]


def shapes(program):
    """(rows, k, n, rank, dtype) of a LoRA program's X (rows x k), W (k x n),
    A (k x rank) and B (rank x n)."""
    with open(program) as f:
        text = f.read()
    x, w, a = re.findall(r"%[XWA]: tensor<(\d+)x(\d+)x(\w+)>", text)[:3]
    return int(x[0]), int(x[1]), int(w[1]), int(a[1]), x[2]


def split_lora(name, rows, k, n, rank, dtype, tile, splits, forloop):
    """The two-kernel split-K µGraph of X W + (X A) B."""
    kt = k // (splits * forloop)
    t = lambda shape: f"tensor<{shape}x{dtype}>"
    s = lambda shape: f"!mirage_block.stensor<{shape}x{dtype}>"
    grid = n // tile
    parts = t(f"{splits * rows}x{n}")
    return f"""  func.func @{name}(%X: {t(f"{rows}x{k}")}, %W: {t(f"{k}x{n}")}, %A: {t(f"{k}x{rank}")}, %B: {t(f"{rank}x{n}")}) -> {t(f"{rows}x{n}")} {{
    %P = mirage_kernel.graph_def(%x = %X : {t(f"{rows}x{k}")}, %w = %W : {t(f"{k}x{n}")}, %a = %A : {t(f"{k}x{rank}")}, %b = %B : {t(f"{rank}x{n}")}) -> {parts} grid [{grid}, {splits}, 1] block [128, 1, 1] forloop {forloop} {{
      %xt = input_loader %x imap <y = 1> fmap 1 : {t(f"{rows}x{k}")} -> {s(f"{rows}x{kt}")}
      %wt = input_loader %w imap <x = 1, y = 0> fmap 0 : {t(f"{k}x{n}")} -> {s(f"{kt}x{tile}")}
      %at = input_loader %a imap <y = 0> fmap 0 : {t(f"{k}x{rank}")} -> {s(f"{kt}x{rank}")}
      %bt = input_loader %b imap <x = 1> : {t(f"{rank}x{n}")} -> {s(f"{rank}x{tile}")}
      %xw = matmul %xt, %wt : {s(f"{rows}x{kt}")}, {s(f"{kt}x{tile}")} -> {s(f"{rows}x{tile}")}
      %xa = matmul %xt, %at : {s(f"{rows}x{kt}")}, {s(f"{kt}x{rank}")} -> {s(f"{rows}x{rank}")}
      %sw = forloop_accum %xw sum : {s(f"{rows}x{tile}")} -> {s(f"{rows}x{tile}")}
      %sa = forloop_accum %xa sum : {s(f"{rows}x{rank}")} -> {s(f"{rows}x{rank}")}
      %ab = matmul %sa, %bt : {s(f"{rows}x{rank}")}, {s(f"{rank}x{tile}")} -> {s(f"{rows}x{tile}")}
      %p = add %sw, %ab : {s(f"{rows}x{tile}")}, {s(f"{rows}x{tile}")} -> {s(f"{rows}x{tile}")}
      %o = output_saver %p omap <x = 1, y = 0> : {s(f"{rows}x{tile}")} -> {parts}
      yield %o : {parts}
    }}
    %O = mirage_kernel.reduction %P dim 0 size {rows} : {parts} -> {t(f"{rows}x{n}")}
    return %O : {t(f"{rows}x{n}")}
  }}
"""


def variants(rows, k, n, rank):
    """(tile, splits, forloop) of every variant: tiles of 64 or 128
    columns, 2 to 8 splits, slices of 64 to 256 rows of W per iteration."""
    for tile in (64, 128):
        for splits in (2, 4, 8):
            for kt in (64, 128, 256):
                if n % tile or k % (splits * kt):
                    continue
                yield tile, splits, k // (splits * kt)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--cases", default=",".join(CASES))
    args = parser.parse_args()
    bundler = os.path.join(args.build, "bin", "mirage-bundle")
    for case in filter(None, args.cases.split(",")):
        program = os.path.join(ROOT, "bench", "generality", case + ".mlir")
        rows, k, n, rank, dtype = shapes(program)
        functions = [
            split_lora(f"{case}_n{tile}_s{splits}_f{forloop}", rows, k, n,
                       rank, dtype, tile, splits, forloop)
            for tile, splits, forloop in variants(rows, k, n, rank)]
        write_bundle(os.path.join(args.out, f"searched_{case}"), bundler,
                     case, "split-k", program, functions, [])
        print(f"{case}: {len(functions)} functions")


if __name__ == "__main__":
    main()
