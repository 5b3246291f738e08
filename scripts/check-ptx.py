#!/usr/bin/env python3
"""Assembles every PTX file of one or more bundles with ptxas.

Usage: check-ptx.py [--summary FILE] BUNDLE_DIR...

For each bundle (a directory with plan.json), runs
`ptxas -arch=<chip> <chip>.ptx` for every chip of the plan, checks that every
kernel the plan launches is an `.entry` of the PTX, and prints one line per
bundle and a total:

    ptxas: 52 kernels in 34 PTX files assembled (sm_80: 26, sm_90a: 26), 0 failures

With --summary, the total line is also appended to FILE (scripts/test.sh
prints those lines after the tests). Exits non-zero if any file does not
assemble or lacks a launched kernel.
ptxas is $CUDA_ROOT/bin/ptxas, else /usr/local/cuda/bin/ptxas.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ENTRY = re.compile(r"^\.visible \.entry (\w+)\(", re.M)


def ptxas_path():
    root = os.environ.get("CUDA_ROOT", "/usr/local/cuda")
    return os.path.join(root, "bin", "ptxas")


def check_bundle(bundle, ptxas, counts):
    """Returns the number of PTX files of `bundle` and of its failures."""
    with open(os.path.join(bundle, "plan.json")) as f:
        plan = json.load(f)
    launched = {launch["kernel"] for function in plan["functions"]
                for launch in function["launches"]}
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
                [ptxas, f"-arch={chip}", path, "-o", os.path.join(tmp, "out.cubin")],
                capture_output=True, text=True)
        if result.returncode != 0:
            print(f"{path}: ptxas -arch={chip} failed:\n{result.stderr}")
            failures += 1
            continue
        counts.setdefault(chip, 0)
        counts[chip] += len(entries)
    print(f"{os.path.basename(os.path.normpath(bundle))}: "
          f"{len(launched)} kernels, chips {', '.join(sorted(plan['ptx']))}, "
          f"{'ok' if not failures else 'FAILED'}")
    return len(plan["ptx"]), failures


def main(argv):
    summary = None
    if len(argv) > 2 and argv[1] == "--summary":
        summary, argv = argv[2], argv[2:]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    ptxas = ptxas_path()
    counts = {}
    failures = 0
    files = 0
    for bundle in argv[1:]:
        bundle_files, bundle_failures = check_bundle(bundle, ptxas, counts)
        files += bundle_files
        failures += bundle_failures
    per_chip = ", ".join(f"{chip}: {n}" for chip, n in sorted(counts.items()))
    line = (f"ptxas: {sum(counts.values())} kernels in {files} PTX files "
            f"assembled ({per_chip}), {failures} failures")
    print(line)
    if summary:
        os.makedirs(os.path.dirname(os.path.abspath(summary)), exist_ok=True)
        with open(summary, "a") as f:
            f.write(f"{line} [{' '.join(os.path.basename(os.path.normpath(b)) for b in argv[1:])}]\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
