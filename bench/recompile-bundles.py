#!/usr/bin/env python3
"""Recompiles bundles of bench/make-gpu-bundles.py with other code
generation flags, to compare two code generators on the same µGraphs (A/B
runs of bench/gpu-bench.sh --no-compile).

    recompile-bundles.py SRC_ROOT DST_ROOT [--build build] [--only A,B]
                         [-- mirage-bundle flags...]

Every bundle directory of SRC_ROOT (or those whose names start with one of
--only's prefixes) is compiled again from its source.mlir, with the same
functions and reference, into DST_ROOT; the flags after `--` are added to
mirage-bundle's (e.g. `-- --stages=4`). A simt_ bundle keeps its
--tensor-cores=false.
"""
import argparse
import os
import shutil
import subprocess
import sys

from mirage import CHECKOUT
from mirage.mugraphs import HAND_WRITTEN, reference_program
from mirage.plan import read_plan


def reference_of(name):
    """The reference program of bundle directory `name`, or None (the
    bundle's module holds it, or it is its own)."""
    kind, _, stem = name.partition("_")
    benchmark = lambda case: os.path.join(CHECKOUT, "examples", "benchmarks",
                                          case + ".mlir")
    if kind in ("searched", "simt"):
        return benchmark(stem)
    if kind == "mugraph":
        case = HAND_WRITTEN.get(stem)
        return case and benchmark(case)
    if kind == "upstream":
        return reference_program(stem)
    return None


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("src")
    parser.add_argument("dst")
    parser.add_argument("--build", default=os.path.join(CHECKOUT, "build"))
    parser.add_argument("--only", default="")
    args = parser.parse_args(argv)
    bundler = os.path.join(args.build, "bin", "mirage-bundle")
    prefixes = tuple(p for p in args.only.split(",") if p)
    for name in sorted(os.listdir(args.src)):
        source = os.path.join(args.src, name, "source.mlir")
        if not os.path.isfile(source) or (prefixes and not name.startswith(prefixes)):
            continue
        functions = list(read_plan(os.path.join(args.src, name)).functions)
        out = os.path.join(args.dst, name)
        command = [bundler, source, "-o", out,
                   "--functions=" + ",".join(functions)]
        reference = reference_of(name)
        if reference:
            command.append("--reference=" + reference)
        if name.startswith("simt_"):
            command.append("--tensor-cores=false")
        subprocess.run(command + extra, check=True)
        shutil.copyfile(source, os.path.join(out, "source.mlir"))
        print(f"{name}: {len(functions)} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
