#!/usr/bin/env python3
"""Builds the bundles of the main job, as a user runs it, for every benchmark.

    make-pipeline-bundles.py OUT_DIR [--build build] [--time-limit 60]
                             [--candidates K] [--search-threads 2]
                             [--cases A,B] [--programs DIR] [--triton]
                             [--variant=--FLAG]...

For every program of DIR (default examples/benchmarks, the benchmarks;
bench/generality holds the generality suite): `mirage-superoptimize`
with `emit-candidates=true` (and `max-candidates=K` when --candidates is
given; the pass's default with emit-candidates is 16, what a user gets),
which keeps the function (the cost model's choice) and adds the program as
written and the K best verified candidates as one tuning group (docs/Runtime.md, "Tuning"), then
`mirage-bundle` of the result into OUT_DIR/pipeline_<case>. Nothing but the
reference program goes in: `mirage-tune` on the GPU picks the group's
fastest correct function, which is the pipeline's result
(bench/gpu-pipeline.sh). Each bundle keeps the MLIR it was compiled from as
source.mlir and the search's remark as search.txt. With --triton, each
bundle also gets triton.py, the Triton module of its functions
(`mirage-translate --mirage-to-triton --triton-skip-unsupported`), whose
forms bench/gpu-pipeline.sh then measures beside the PTX. Each
--variant (a code generator flag of mirage-bundle, such as
`--running-max-chains=false`) also bundles the same searched MLIR with that
flag into OUT_DIR/<flag>_<case> (`=` written `-`, e.g.
running-max-chains-false_<case>), so that one GPU run compares the flag on
the same candidates.
"""
import argparse
import os
import shutil
import subprocess
import sys

from mirage import CHECKOUT
from mirage.plan import read_plan


def main():
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--build", default=os.path.join(CHECKOUT, "build"))
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--candidates", type=int, default=0)
    parser.add_argument("--search-threads", type=int, default=2)
    parser.add_argument("--cases", default="")
    parser.add_argument("--programs",
                        default=os.path.join(CHECKOUT, "examples",
                                             "benchmarks"))
    parser.add_argument("--triton", action="store_true")
    parser.add_argument("--variant", action="append", default=[])
    args = parser.parse_args()
    opt = os.path.join(args.build, "bin", "mirage-opt")
    bundler = os.path.join(args.build, "bin", "mirage-bundle")
    benchmarks = args.programs
    wanted = set(filter(None, args.cases.split(",")))
    os.makedirs(args.out, exist_ok=True)
    for name in sorted(os.listdir(benchmarks)):
        stem, extension = os.path.splitext(name)
        if extension != ".mlir" or (wanted and stem not in wanted):
            continue
        out = os.path.join(args.out, "pipeline_" + stem)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        source = os.path.join(out, "source.mlir")
        options = (f"emit-candidates=true time-limit={args.time_limit:g} "
                   f"search-threads={args.search_threads}")
        if args.candidates:
            options += f" max-candidates={args.candidates}"
        search = subprocess.run(
            [opt, os.path.join(benchmarks, name),
             f"--mirage-superoptimize={options}", "-o", source],
            capture_output=True, text=True)
        with open(os.path.join(out, "search.txt"), "w") as f:
            f.write(search.stderr)
        if search.returncode != 0:
            print(f"pipeline_{stem}: the search failed:\n{search.stderr}",
                  file=sys.stderr)
            return 1
        if not bundle(bundler, source, out):
            return 1
        if args.triton:
            subprocess.run([os.path.join(args.build, "bin",
                                         "mirage-translate"),
                            "--mirage-to-triton", "--triton-skip-unsupported",
                            source, "-o", os.path.join(out, "triton.py")],
                           check=True, capture_output=True)
        plan = read_plan(out)
        print(f"pipeline_{stem}: {len(plan.functions)} functions, chips "
              f"{', '.join(sorted(plan.ptx))}", flush=True)
        for flag in args.variant:
            name = flag.lstrip("-").replace("=", "-")
            variant = os.path.join(args.out, f"{name}_{stem}")
            shutil.rmtree(variant, ignore_errors=True)
            if not bundle(bundler, source, variant, flag):
                return 1
    return 0


def bundle(bundler, source, out, *flags):
    """Runs mirage-bundle on `source` into `out` with `flags`; prints its
    error and returns False when it fails (an unknown flag, say)."""
    result = subprocess.run([bundler, source, *flags, "-o", out],
                            capture_output=True, text=True)
    if result.returncode != 0:
        print(f"{os.path.basename(out)}: mirage-bundle "
              f"{' '.join(flags)} failed:\n{result.stderr}", file=sys.stderr)
    return result.returncode == 0


if __name__ == "__main__":
    sys.exit(main())
