#!/usr/bin/env python3
"""Builds the bundles the GPU check runs (bench/gpu-check.sh).

    make-gpu-bundles.py OUT_DIR [--build build] [--per-file 3] [--stages N]
                        [--no-search] [--wgmma] [--no-tma]

Into OUT_DIR, one bundle per case:
  bench_<name>     every benchmark reference program of examples/benchmarks
                   (each is its own reference);
  mugraph_<name>   every hand-written µGraph of examples/mugraphs, with the
                   benchmark it implements as reference (the cluster example
                   carries its own, marked mirage.reference);
  searched_<name>  the µGraph mirage-superoptimize finds for each benchmark in
                   SEARCHED, with the benchmark as reference;
  simt_<name>      the same µGraph with every matmul on the SIMT path
                   (--tensor-cores=false), to measure what tensor
                   cores bring;
  upstream_<file>  the first --per-file graphs (or all, if fewer) of each saved
                   µGraph file of the public implementation, with its benchmark
                   as reference.
--stages N compiles every bundle with N software-pipelining stages
(mirage-bundle's `--stages`; default: its default); --no-search leaves out
the searched_ and simt_ bundles (the slow part); --wgmma compiles the sm_90a
matmuls with wgmma (`--wgmma`) to compare it with mma.sync; --no-tma
copies the staged tiles of the sm_90a kernels with cp.async
(`--tma=false`) instead of the TMA unit, to compare the two. Every
plan.json also records the program each function computes, so the GPU
check compares the kernels with a PyTorch evaluation of exactly that program
and, separately, with the reference. Each bundle keeps the MLIR it was
compiled from as source.mlir (bench/calibrate-cost-model.py estimates its
functions).
"""
import argparse
import os
import shutil
import subprocess
import sys

from mirage import CHECKOUT
from mirage.mugraphs import DEFAULT_MUGRAPHS, HAND_WRITTEN, reference_program
from mirage.plan import read_plan

# Benchmarks whose µGraph the search finds within the time limit.
SEARCHED = ["rmsnorm_linear_bs1", "gated_mlp", "lora", "gqa_bs1", "gqa_bs8",
            "mha_bs1", "mqa_bs1", "ntrans_bs1", "ntrans_bs8", "qknorm_gqa_bs1"]


STAGES = None
WGMMA = False
TMA = True


def bundle(bundler, source, out, functions=None, reference=None,
           tensor_cores=True):
    command = [bundler, source, "-o", out]
    if not tensor_cores:
        command.append("--tensor-cores=false")
    if STAGES is not None:
        command.append(f"--stages={STAGES}")
    if WGMMA:
        command.append("--wgmma")
    if not TMA:
        command.append("--tma=false")
    if functions:
        command.append("--functions=" + ",".join(functions))
    if reference:
        command.append("--reference=" + reference)
    subprocess.run(command, check=True)
    shutil.copyfile(source, os.path.join(out, "source.mlir"))
    plan = read_plan(out)
    print(f"{os.path.basename(out)}: {len(plan.functions)} functions, "
          f"chips {', '.join(sorted(plan.ptx))}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--build", default=os.path.join(CHECKOUT, "build"))
    parser.add_argument("--mugraphs", default=DEFAULT_MUGRAPHS)
    parser.add_argument("--per-file", type=int, default=3)
    parser.add_argument("--stages", type=int, default=None)
    parser.add_argument("--no-search", action="store_true")
    parser.add_argument("--wgmma", action="store_true")
    parser.add_argument("--no-tma", action="store_true")
    args = parser.parse_args()
    global STAGES, WGMMA, TMA
    STAGES = args.stages
    WGMMA = args.wgmma
    TMA = not args.no_tma
    translate = os.path.join(args.build, "bin", "mirage-translate")
    bundler = os.path.join(args.build, "bin", "mirage-bundle")
    os.makedirs(args.out, exist_ok=True)

    benchmarks = os.path.join(CHECKOUT, "examples", "benchmarks")
    for name in sorted(os.listdir(benchmarks)):
        stem = os.path.splitext(name)[0]
        bundle(bundler, os.path.join(benchmarks, name),
               os.path.join(args.out, "bench_" + stem))

    for stem, reference in HAND_WRITTEN.items():
        bundle(bundler, os.path.join(CHECKOUT, "examples", "mugraphs", stem + ".mlir"),
               os.path.join(args.out, "mugraph_" + stem),
               reference=reference and os.path.join(benchmarks, reference + ".mlir"))

    opt = os.path.join(args.build, "bin", "mirage-opt")
    for stem in [] if args.no_search else SEARCHED:
        reference = os.path.join(benchmarks, stem + ".mlir")
        searched = os.path.join(args.out, stem + ".searched.mlir")
        subprocess.run([opt, reference, "--mirage-superoptimize=time-limit=60",
                        "-o", searched], check=True, capture_output=True)
        bundle(bundler, searched, os.path.join(args.out, "searched_" + stem),
               reference=reference)
        bundle(bundler, searched, os.path.join(args.out, "simt_" + stem),
               reference=reference, tensor_cores=False)
        os.remove(searched)

    if not args.mugraphs:
        print("no saved µGraphs found; skipping them", file=sys.stderr)
        return 0
    for name in sorted(os.listdir(args.mugraphs)):
        if not name.endswith(".json"):
            continue
        stem = os.path.splitext(name)[0]
        imported = os.path.join(args.out, stem + ".mlir")
        subprocess.run([translate, "--import-mirage-json",
                        os.path.join(args.mugraphs, name), "-o", imported], check=True)
        with open(imported) as f:
            count = f.read().count(f"func.func @{stem}_")
        bundle(bundler, imported, os.path.join(args.out, "upstream_" + stem),
               functions=[f"{stem}_{i}" for i in range(min(count, args.per_file))],
               reference=reference_program(stem))
        os.remove(imported)
    return 0


if __name__ == "__main__":
    sys.exit(main())
