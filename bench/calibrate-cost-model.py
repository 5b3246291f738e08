#!/usr/bin/env python3
"""Ranks the search's cost model against measured kernel times.

    calibrate-cost-model.py RESULTS BUNDLES [--build build] [--chip sm_90a]
                            [--output docs/Benchmarks/CostModel.md]

RESULTS is a kernel benchmark's JSON (bench/results/latest.json, written by
bench/gpu/update-kernel-results.py); BUNDLES the bundle directory it ran
(bench/make-gpu-bundles.py keeps each bundle's source.mlir). For every
correct Mirage candidate measured, the script asks `mirage-opt
--mirage-kernel-expand-to-blocks --mirage-estimate-cost` for the model's
estimate and reports Spearman's rank correlation between estimates and
measured times (the CUDA-graph median): per case, over the candidates of
that case, and pooled over all candidates. The `simt_` bundles (a searched
µGraph compiled without tensor cores, a code-generator comparison the
model does not describe) are left out.
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REMARK = re.compile(r"remark: @(?P<name>[\w.$-]+): estimated (?P<us>[0-9.]+) us")


def ranks(values):
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(xs, ys):
    """Spearman's rank correlation, or None when it is undefined."""
    if len(xs) != len(ys) or len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return None
    return cov / (vx * vy) ** 0.5


def estimates(opt, source, chip):
    """The model's estimate (µs) of every function of `source`."""
    result = subprocess.run(
        [opt, source, "--mirage-kernel-expand-to-blocks",
         f"--mirage-estimate-cost=chip={chip}", "-o", os.devnull],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"mirage-opt failed on {source}: {result.stderr.strip()}")
    return {m["name"]: float(m["us"]) for m in REMARK.finditer(result.stderr)}


def measured(candidate):
    """The candidate's measured time (µs), or None."""
    if not candidate.get("correct"):
        return None
    times = candidate.get("times") or {}
    return times.get("cudagraph") or times.get("do_bench")


def collect(results, bundles, opt, chip):
    """(case, bundle/function, estimate, measured) of every measured candidate."""
    rows, cache = [], {}
    for case in results:
        for candidate in case.get("candidates", []):
            if candidate["bundle"].startswith("simt_"):
                continue
            time = measured(candidate)
            source = os.path.join(bundles, candidate["bundle"], "source.mlir")
            if time is None or not os.path.exists(source):
                continue
            if source not in cache:
                cache[source] = estimates(opt, source, chip)
            estimate = cache[source].get(candidate["function"])
            if estimate is not None:
                rows.append((case["case"],
                             f"{candidate['bundle']}/{candidate['function']}",
                             estimate, time))
    return rows


def report(rows, results, chip, measured_by, title):
    lines = [f"# {title}", ""]
    first = results[0] if results else {}
    lines.append(
        f"`bench/calibrate-cost-model.py`: the search's cost model "
        f"(`chip={chip}`, docs/Search.md) against {measured_by} of "
        f"{first.get('date', '?')} on {first.get('device', '?')} at commit "
        f"{first.get('commit', '?')}. Spearman's "
        "rank correlation between estimated and measured times (CUDA-graph "
        "medians) of every correct Mirage candidate: 1 means the model orders "
        "candidates as the GPU does.")
    lines.append("")
    pooled = spearman([r[2] for r in rows], [r[3] for r in rows])
    lines.append(f"**Pooled over {len(rows)} candidates: "
                 f"{'n/a' if pooled is None else f'{pooled:.2f}'}**")
    lines += ["", "| case | candidates | rank correlation |", "| --- | --- | --- |"]
    for case in sorted({r[0] for r in rows}):
        subset = [r for r in rows if r[0] == case]
        rho = spearman([r[2] for r in subset], [r[3] for r in subset])
        lines.append(f"| {case} | {len(subset)} | "
                     f"{'n/a (fewer than 3 or ties)' if rho is None else f'{rho:.2f}'} |")
    lines += ["", "| candidate | estimated µs | measured µs |", "| --- | --- | --- |"]
    for case, name, estimate, time in sorted(rows):
        lines.append(f"| {name} | {estimate:.1f} | {time:.1f} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results")
    parser.add_argument("bundles")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--chip", default="sm_90a")
    parser.add_argument("--output", default=os.path.join(ROOT, "docs", "Benchmarks", "CostModel.md"))
    parser.add_argument("--title", default="Cost model against measured kernels")
    parser.add_argument("--measured-by",
                        default="the kernel benchmark (docs/Benchmarks/Kernels.md)",
                        help="what measured RESULTS, for the report")
    args = parser.parse_args()
    try:
        with open(args.results) as f:
            results = json.load(f)
    except (OSError, ValueError) as error:
        print(f"error: cannot read {args.results}: {error}", file=sys.stderr)
        return 1
    if not isinstance(results, list):
        print(f"error: {args.results} is not a list of benchmark cases", file=sys.stderr)
        return 1
    opt = os.path.join(args.build, "bin", "mirage-opt")
    try:
        rows = collect(results, args.bundles, opt, args.chip)
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    text = report(rows, results, args.chip, args.measured_by, args.title)
    with open(args.output, "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
