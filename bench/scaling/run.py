#!/usr/bin/python3
"""The scaling benchmark (docs/Benchmarks/Scaling.md): compile time against
program length.

For each program of generate.py (a chain of kernel ops, one graph_def holding
a chain of block ops) and each length, times
`mirage-opt --mirage-to-ptx-pipeline` stage by stage (--mlir-timing) and
`mirage-bundle` (both chips) as a whole, and writes the times as JSON.

  run.py [--sizes 10,100,1000,10000] [--chip sm_90a] [--timeout S]
         [--max-kernel-ops N] [--no-bundle] [-o bench/results/scaling.json]

A run past --timeout seconds is recorded as timed out and the longer programs
of that family are skipped.
"""

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import generate  # noqa: E402

# Top-level entries of mirage-opt's timing report, by the stage they measure.
STAGES = {
    "Parser": "parse",
    "'func.func' Pipeline": "expand",
    "ConvertMirageBlockToGPUPass": "block-to-gpu",
    "ConvertMirageKernelToGPUPass": "kernel-to-gpu",
    "GpuNVVMAttachTarget": "kernel-to-gpu",
    "'gpu.module' Pipeline": "to-llvm",
    "GpuModuleToBinaryPass": "llvm-to-ptx",
    "Output": "output",
}


def git_commit():
    return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()


def stage_times(report):
    """Seconds per stage from --mlir-timing --mlir-output-format=json."""
    times = {}
    for entry in json.loads(report):
        stage = STAGES.get(entry.get("name"), "other")
        if entry.get("name") == "Total":
            continue
        times[stage] = round(times.get(stage, 0.0) + entry["wall"]["duration"], 4)
    return times


def timing_report(stderr):
    """The JSON timing report at the end of mirage-opt's standard error."""
    return stderr[stderr.index('[\n{"wall"'):]


def time_opt(path, args, timeout):
    """Stage times of the PTX pipeline on `path`, or None past `timeout`."""
    pipeline = f"chip={args.chip} max-kernel-ops={args.max_kernel_ops}"
    command = [os.path.join(args.build, "bin", "mirage-opt"), path,
               f"--mirage-to-ptx-pipeline={pipeline}", "-o", os.devnull,
               "--mlir-timing", "--mlir-output-format=json"]
    start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    wall = time.monotonic() - start
    times = stage_times(timing_report(done.stderr))
    times["total"] = round(wall, 3)
    return times


def time_bundle(path, args, timeout, out_dir):
    """Seconds mirage-bundle takes on `path`, or None past `timeout`."""
    command = [os.path.join(args.build, "bin", "mirage-bundle"), path,
               "-o", out_dir, f"--max-kernel-ops={args.max_kernel_ops}"]
    start = time.monotonic()
    try:
        subprocess.run(command, capture_output=True, timeout=timeout,
                       check=True)
    except subprocess.TimeoutExpired:
        return None
    return round(time.monotonic() - start, 3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000,10000")
    parser.add_argument("--families", default=",".join(generate.GENERATORS))
    parser.add_argument("--chip", default="sm_90a")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--max-kernel-ops", type=int, default=64)
    parser.add_argument("--no-bundle", action="store_true")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("-o", "--output",
                        default=os.path.join(ROOT, "bench", "results",
                                             "scaling.json"))
    args = parser.parse_args()

    results = []
    with tempfile.TemporaryDirectory() as scratch:
        for family in args.families.split(","):
            opt_out, bundle_out = False, args.no_bundle
            for ops in map(int, args.sizes.split(",")):
                path = os.path.join(scratch, f"{family}-{ops}.mlir")
                with open(path, "w") as program:
                    program.write(generate.GENERATORS[family](ops))
                row = {"program": family, "ops": ops}
                if not opt_out:
                    row["mirage_opt"] = time_opt(path, args, args.timeout)
                    opt_out = row["mirage_opt"] is None
                if not bundle_out:
                    row["mirage_bundle"] = time_bundle(
                        path, args, args.timeout,
                        os.path.join(scratch, f"bundle-{family}-{ops}"))
                    bundle_out = row["mirage_bundle"] is None
                print(json.dumps(row), flush=True)
                results.append(row)

    report = {
        "date": datetime.date.today().isoformat(),
        "commit": git_commit(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "chip": args.chip,
        "max_kernel_ops": args.max_kernel_ops,
        "timeout_s": args.timeout,
        "results": results,
    }
    with open(args.output, "w") as out:
        json.dump(report, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
