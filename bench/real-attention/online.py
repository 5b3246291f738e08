#!/usr/bin/env python3
"""Writes hand-written µGraphs of real (scaled, max-subtracted) decode
attention, the comparisons of docs/Benchmarks/RealAttention.md: Llama-3-8B's
32 query heads in 8 groups of 4, head dim 128, one token.

    online.py OUT_DIR [--blocks 16,32] [--steps 128,64]

Forms per key count (4096 and 32768):
- `online_*`: FlashDecoding. A first kernel whose blocks each loop over a
  slice of the keys with a running maximum (docs/LanguageReference.md,
  "Running maxima") saves each slice's rescaled numerators, row sums and
  maximum; a combining kernel loops over the slices and rescales each by
  exp(m_slice - max). By default 16 slices of 128-key steps and 32 of
  64-key steps; with --blocks and --steps, every pair of them (a sweep).
- `onepass_*`: each block takes its slice whole, with its own maximum
  (`reduction_max`, no loop); the same combining kernel.
Bundle each file with mirage-bundle and run bench/gpu/real_attention.py.
"""

import argparse
import itertools
import pathlib
import sys

GROUPS, ROWS, DIM = 8, 4, 128
SCALE = 0.0883883461  # 1 / sqrt(128)


def tile(*dims):
    return "!mirage_block.stensor<%sxf16>" % "x".join(map(str, dims))


def tensor(*dims):
    return "tensor<%sxf16>" % "x".join(map(str, dims))


def first_body(step, loop):
    """The first kernel's body up to its saves: %acc, %l and %m."""
    fmap_k = " fmap 2" if loop else ""
    fmap_v = " fmap 1" if loop else ""
    q, k, v = (tensor(GROUPS, ROWS, DIM), tensor(GROUPS, DIM, KEYS),
               tensor(GROUPS, KEYS, DIM))
    s, row = tile(1, ROWS, step), tile(1, ROWS, 1)
    lines = [
        f"%qt = input_loader %Qg imap <x = 0> : {q} -> "
        f"{tile(1, ROWS, DIM)}",
        f"%kt = input_loader %Kg imap <x = 0, y = 2>{fmap_k} : {k} -> "
        f"{tile(1, DIM, step)}",
        f"%vt = input_loader %Vg imap <x = 0, y = 1>{fmap_v} : {v} -> "
        f"{tile(1, step, DIM)}",
        f"%s = matmul %qt, %kt : {tile(1, ROWS, DIM)}, "
        f"{tile(1, DIM, step)} -> {s}",
        f"%t = mul_scalar %s by {SCALE} : {s}",
        f"%r = reduction_max %t dim 2 : {s} -> {row}",
    ]
    if loop:
        lines.append(f"%m = forloop_accum %r max : {row} -> {row}")
    else:
        lines.append(f"%m = mul_scalar %r by 1.0 : {row}")
    lines += [
        f"%d = sub %t, %m : {s}, {row} -> {s}",
        f"%e = exp %d : {s}",
        f"%ev = matmul %e, %vt : {s}, {tile(1, step, DIM)} -> "
        f"{tile(1, ROWS, DIM)}",
    ]
    if loop:
        lines += [
            f"%acc = forloop_accum %ev sum : {tile(1, ROWS, DIM)} -> "
            f"{tile(1, ROWS, DIM)}",
            f"%l = forloop_accum %e sum_last : {s} -> {row}",
        ]
    else:
        lines += [
            f"%acc = mul_scalar %ev by 1.0 : {tile(1, ROWS, DIM)}",
            f"%l = reduction %e dim 2 : {s} -> {row}",
        ]
    return lines


def function(name, blocks, step, loop):
    """One µGraph: `blocks` slices per group, `step` keys per iteration."""
    chunk = KEYS // blocks
    forloop = chunk // step if loop else 1
    q, k, v = (tensor(GROUPS, ROWS, DIM), tensor(GROUPS, DIM, KEYS),
               tensor(GROUPS, KEYS, DIM))
    parts, rows = (tensor(GROUPS, ROWS, DIM * blocks),
                   tensor(GROUPS, ROWS, blocks))
    one, part = tile(1, 1, 1), tile(1, 1, DIM)
    body = first_body(step if loop else chunk, loop) + [
        f"%o1 = output_saver %acc omap <x = 0, y = 2> : "
        f"{tile(1, ROWS, DIM)} -> {parts}",
        f"%o2 = output_saver %l omap <x = 0, y = 2> : "
        f"{tile(1, ROWS, 1)} -> {rows}",
        f"%o3 = output_saver %m omap <x = 0, y = 2> : "
        f"{tile(1, ROWS, 1)} -> {rows}",
        f"yield %o1, %o2, %o3 : {parts}, {rows}, {rows}",
    ]
    combine = [
        f"%pt = input_loader %Pg imap <x = 0, y = 1> fmap 2 : {parts} -> "
        f"{part}",
        f"%lt = input_loader %Lg imap <x = 0, y = 1> fmap 2 : {rows} -> "
        f"{one}",
        f"%mt = input_loader %Mg imap <x = 0, y = 1> fmap 2 : {rows} -> "
        f"{one}",
        f"%ma = input_loader %Mg imap <x = 0, y = 1> : {rows} -> "
        f"{tile(1, 1, blocks)}",
        f"%mx = reduction_max %ma dim 2 : {tile(1, 1, blocks)} -> {one}",
        f"%dm = sub %mt, %mx : {one}, {one} -> {one}",
        f"%w = exp %dm : {one}",
        f"%pw = mul %pt, %w : {part}, {one} -> {part}",
        f"%lw = mul %lt, %w : {one}, {one} -> {one}",
        f"%num = forloop_accum %pw sum : {part} -> {part}",
        f"%den = forloop_accum %lw sum : {one} -> {one}",
        f"%y = div %num, %den : {part}, {one} -> {part}",
        f"%ot = output_saver %y omap <x = 0, y = 1> : {part} -> {q}",
        f"yield %ot : {q}",
    ]
    indent = "\n    "
    return (
        f"func.func @{name}(%Q: {q}, %K: {k}, %V: {v}) -> {q} {{\n"
        f"  %parts, %dens, %maxs = mirage_kernel.graph_def("
        f"%Qg = %Q : {q}, %Kg = %K : {k}, %Vg = %V : {v})\n"
        f"      -> ({parts}, {rows}, {rows}) grid [{GROUPS}, {blocks}, 1] "
        f"block [128, 1, 1] forloop {forloop} {{"
        + indent + indent.join(body) + "\n  }\n"
        f"  %O = mirage_kernel.graph_def(%Pg = %parts : {parts}, "
        f"%Lg = %dens : {rows}, %Mg = %maxs : {rows})\n"
        f"      -> {q} grid [{GROUPS}, {ROWS}, 1] block [128, 1, 1] "
        f"forloop {blocks} {{"
        + indent + indent.join(combine) + "\n  }\n"
        f"  return %O : {q}\n}}\n")


def main(argv):
    global KEYS
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--blocks", help="slices per group, e.g. 16,32,64")
    parser.add_argument("--steps", help="keys per iteration, e.g. 64,128")
    args = parser.parse_args(argv)
    if bool(args.blocks) != bool(args.steps):
        parser.error("--blocks and --steps go together")
    pairs = ((16, 128), (32, 64))
    if args.blocks:
        pairs = list(itertools.product(
            [int(b) for b in args.blocks.split(",")],
            [int(s) for s in args.steps.split(",")]))
    args.out.mkdir(parents=True, exist_ok=True)
    for KEYS in (4096, 32768):
        kv = f"kv{KEYS // 1024}k"
        for blocks, step in pairs:
            if KEYS % (blocks * step):
                continue
            name = f"online_{kv}_b{blocks}_s{step}"
            (args.out / f"{name}.mlir").write_text(
                function(name, blocks, step, loop=True))
        name = f"onepass_{kv}_b{KEYS // 256}"
        (args.out / f"{name}.mlir").write_text(
            function(name, KEYS // 256, 256, loop=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
