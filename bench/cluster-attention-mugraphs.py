#!/usr/bin/env python3
"""Writes the one-kernel split-KV attention µGraphs of the cluster sweep in
docs/Benchmarks/AttentionMugraphs.md: the key slices of each query-row tile
form a thread-block cluster that finishes the softmax sums with
cluster_reduce_scatter (numerator) and cluster_reduce (denominator).

    cluster-attention-mugraphs.py OUTDIR

One file per variant, OUTDIR/<case>_c<slices>_t<rows>_k<keys>.mlir, each
function named like its file. To time them, bundle each case's files as
simt_<case> (bench/gpu-bench.sh maps the bundle to its case):

    cat OUTDIR/gqa_bs1_c*.mlir > gqa.mlir
    mirage-bundle gqa.mlir -o SET/simt_gqa_bs1
"""
import pathlib
import sys

CASES = {  # case: (heads, rows, qknorm)
    "gqa_bs1": (2, 256, False), "gqa_bs8": (16, 256, False),
    "mha_bs1": (32, 16, False), "mqa_bs1": (1, 1024, False),
    "qknorm_gqa_bs1": (2, 256, True),
}


def stensor(*s):
    return "!mirage_block.stensor<" + "x".join(map(str, s)) + "xf16>"

def tensor(*s):
    return "tensor<" + "x".join(map(str, s)) + "xf16>"


def emit(name, heads, rows, qknorm, slices, tile, keys, threads=128):
    """The µGraph `name` of a case of `heads` x `rows` queries: `slices` key
    slices (the cluster, along x), query tiles of `tile` rows, `keys` keys
    per loop iteration."""
    loop = 4096 // slices // keys
    assert loop * slices * keys == 4096 and rows % tile == 0
    q, k, v = tensor(heads, rows, 64), tensor(heads, 64, 4096), tensor(heads, 4096, 64)
    cols = 64 // slices
    z = rows // tile
    qmap = "<y = 0, z = 1>" if z > 1 else "<y = 0>"
    omap = "<x = 2, y = 0, z = 1>" if z > 1 else "<x = 2, y = 0>"
    portability = " non_portable" if slices > 8 else ""
    lines = [
        f"func.func @{name}(%Q: {q}, %K: {k}, %V: {v}) -> {q} {{",
        f"  %O = mirage_kernel.graph_def(%Qg = %Q : {q}, %Kg = %K : {k}, %Vg = %V : {v})",
        f"      -> {q} grid [{slices}, {heads}, {z}] block [{threads}, 1, 1] forloop {loop} cluster [{slices}, 1, 1]{portability} {{",
        f"    %qt = input_loader %Qg imap {qmap} : {q} -> {stensor(1, tile, 64)}",
        f"    %kt = input_loader %Kg imap <x = 2, y = 0> fmap 2 : {k} -> {stensor(1, 64, keys)}",
        f"    %vt = input_loader %Vg imap <x = 1, y = 0> fmap 1 : {v} -> {stensor(1, keys, 64)}",
    ]
    qv, vv = "%qt", "%vt"
    if qknorm:
        lines.append(f"    %qn = rms_norm %qt size 64 : {stensor(1, tile, 64)}")
        qv = "%qn"
    lines += [
        f"    %s = matmul {qv}, %kt : {stensor(1, tile, 64)}, {stensor(1, 64, keys)} -> {stensor(1, tile, keys)}",
        f"    %e = exp %s : {stensor(1, tile, keys)}",
    ]
    if qknorm:
        lines.append(f"    %vn = rms_norm %vt size 64 : {stensor(1, keys, 64)}")
        vv = "%vn"
    lines += [
        f"    %ev = matmul %e, {vv} : {stensor(1, tile, keys)}, {stensor(1, keys, 64)} -> {stensor(1, tile, 64)}",
        f"    %acc = forloop_accum %ev sum : {stensor(1, tile, 64)} -> {stensor(1, tile, 64)}",
        f"    %den = forloop_accum %e sum_last : {stensor(1, tile, keys)} -> {stensor(1, tile, 1)}",
        f"    %num = cluster_reduce_scatter %acc dim 2 : {stensor(1, tile, 64)} -> {stensor(1, tile, cols)}",
        f"    %tot = cluster_reduce %den : {stensor(1, tile, 1)}",
        f"    %y = div %num, %tot : {stensor(1, tile, cols)}, {stensor(1, tile, 1)} -> {stensor(1, tile, cols)}",
        f"    %o = output_saver %y omap {omap} : {stensor(1, tile, cols)} -> {q}",
        f"    yield %o : {q}",
        "  }",
        f"  return %O : {q}",
        "}",
    ]
    return "\n".join(lines) + "\n"


VARIANTS = {
    "gqa_bs1": [(8, 32, 32), (8, 16, 32), (16, 32, 32), (8, 32, 64), (16, 64, 32)],
    "gqa_bs8": [(8, 64, 32), (16, 64, 32), (8, 32, 32), (4, 64, 32)],
    "mha_bs1": [(8, 16, 64), (16, 16, 64), (16, 16, 32), (8, 16, 32)],
    "mqa_bs1": [(8, 32, 32), (16, 32, 32), (8, 16, 32), (16, 64, 32)],
    "qknorm_gqa_bs1": [(8, 32, 32), (16, 32, 32), (8, 64, 64), (16, 64, 64), (8, 16, 32)],
}


def main(out):
    """Writes every variant of VARIANTS into directory `out`."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for case, variants in VARIANTS.items():
        heads, rows, qknorm = CASES[case]
        for slices, tile, keys in variants:
            name = f"{case}_c{slices}_t{tile}_k{keys}"
            (out / f"{name}.mlir").write_text(
                emit(name, heads, rows, qknorm, slices, tile, keys))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
