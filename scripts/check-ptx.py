#!/usr/bin/env python3
"""Assembles every PTX file of one or more bundles with ptxas.

Usage: check-ptx.py [--summary FILE] [--registers] BUNDLE_DIR...

For each bundle (a directory with plan.json), runs
`ptxas -v -arch=<chip> <chip>.ptx` for every chip of the plan, checks that
every kernel the plan launches is an `.entry` of the PTX and that no kernel
spills registers to local memory, and prints one line per bundle and a total:

    ptxas: 52 kernels in 34 PTX files assembled (sm_80: 26, sm_90a: 26), 0 failures, 0 spilling, at most 40 registers

A kernel that spills (ptxas reports spill stores or loads) is a failure,
and so is a PTX file about which ptxas says more than its resource report
(a warning, or an `info` such as "Potential out of bound access", which
flags a kernel reading past a shared variable's declared size).
--registers prints one line per kernel:

    gated_mlp/sm_90a gated_mlp_kernel0: 31 registers, 0 bytes stack, 0 bytes spill stores, 0 bytes spill loads

With --summary, the total line is also
appended to FILE (scripts/test.sh prints those lines after the tests). Exits
non-zero if any file does not assemble, lacks a launched kernel, spills or
draws a diagnostic.
ptxas is $CUDA_ROOT/bin/ptxas, else /usr/local/cuda/bin/ptxas.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ENTRY = re.compile(r"^\.visible \.entry (\w+)\(", re.M)
#: What `ptxas -v` reports for each function: its name, then its stack frame
#: and spills, then its registers.
FUNCTION = re.compile(
    r"Function properties for (\w+)\s*\n\s*(\d+) bytes stack frame, "
    r"(\d+) bytes spill stores, (\d+) bytes spill loads\s*\n"
    r"ptxas info\s*: Used (\d+) registers")
#: What ptxas says about a file beyond `-v`'s resource report: warnings, and
#: infos that are diagnostics rather than counts ("Potential out of bound
#: access ...").
DIAGNOSTIC = re.compile(r"^ptxas.*(?:warning|Potential out of bound).*$",
                        re.M | re.I)


def ptxas_path():
    root = os.environ.get("CUDA_ROOT", "/usr/local/cuda")
    return os.path.join(root, "bin", "ptxas")


def kernel_resources(ptxas_output):
    """Per function of `ptxas -v` output: (name, registers, stack bytes,
    spill store bytes, spill load bytes)."""
    return [(name, int(registers), int(stack), int(stores), int(loads))
            for name, stack, stores, loads, registers
            in FUNCTION.findall(ptxas_output)]


def check_bundle(bundle, ptxas, counts, resources):
    """Returns the number of PTX files of `bundle` and of its failures.
    Counts its kernels per chip in `counts`; adds their register counts to
    `resources["registers"]` and its spilling kernels to
    `resources["spilling"]`; prints every kernel if `resources["verbose"]`."""
    with open(os.path.join(bundle, "plan.json")) as f:
        plan = json.load(f)
    # Library calls (docs/Runtime.md) launch no kernel.
    launched = {launch["kernel"] for function in plan["functions"]
                for launch in function["launches"] if "kernel" in launch}
    failures = 0
    for chip, name in sorted(plan["ptx"].items()):
        path = os.path.join(bundle, name)
        with open(path) as f:
            entries = set(ENTRY.findall(f.read()))
        missing = launched - entries
        if missing:
            print(f"{path}: launched kernels missing from the PTX: "
                  f"{', '.join(sorted(missing))}")
            failures += 1
        with tempfile.TemporaryDirectory() as tmp:
            result = subprocess.run(
                [ptxas, "-v", f"-arch={chip}", path,
                 "-o", os.path.join(tmp, "out.cubin")],
                capture_output=True, text=True)
        if result.returncode != 0:
            print(f"{path}: ptxas -arch={chip} failed:\n{result.stderr}")
            failures += 1
            continue
        diagnostics = DIAGNOSTIC.findall(result.stdout + result.stderr)
        if diagnostics:
            print(f"{path}: ptxas -arch={chip}: {len(diagnostics)} "
                  f"diagnostics, the first: {diagnostics[0]}")
            failures += 1
        counts.setdefault(chip, 0)
        counts[chip] += len(entries)
        label = f"{os.path.basename(os.path.normpath(bundle))}/{chip}"
        for name, registers, stack, stores, loads in sorted(
                kernel_resources(result.stdout + result.stderr)):
            resources["registers"].append(registers)
            line = (f"{label} {name}: {registers} registers, {stack} bytes "
                    f"stack, {stores} bytes spill stores, {loads} bytes "
                    f"spill loads")
            if stores or loads:
                print(f"{line}: SPILLS")
                resources["spilling"] += 1
                failures += 1
            elif resources["verbose"]:
                print(line)
    print(f"{os.path.basename(os.path.normpath(bundle))}: "
          f"{len(launched)} kernels, chips {', '.join(sorted(plan['ptx']))}, "
          f"{'ok' if not failures else 'FAILED'}")
    return len(plan["ptx"]), failures


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--summary")
    parser.add_argument("--registers", action="store_true")
    parser.add_argument("bundles", nargs="+")
    args = parser.parse_args(argv[1:])
    summary = args.summary
    ptxas = ptxas_path()
    counts = {}
    resources = {"registers": [], "spilling": 0, "verbose": args.registers}
    failures = 0
    files = 0
    for bundle in args.bundles:
        bundle_files, bundle_failures = check_bundle(bundle, ptxas, counts,
                                                     resources)
        files += bundle_files
        failures += bundle_failures
    per_chip = ", ".join(f"{chip}: {n}" for chip, n in sorted(counts.items()))
    line = (f"ptxas: {sum(counts.values())} kernels in {files} PTX files "
            f"assembled ({per_chip}), {failures} failures, "
            f"{resources['spilling']} spilling, at most "
            f"{max(resources['registers'], default=0)} registers")
    print(line)
    if summary:
        os.makedirs(os.path.dirname(os.path.abspath(summary)), exist_ok=True)
        with open(summary, "a") as f:
            f.write(f"{line} [{' '.join(os.path.basename(os.path.normpath(b)) for b in args.bundles)}]\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
