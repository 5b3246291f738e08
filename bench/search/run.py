#!/usr/bin/env python3
"""The search benchmark: runs mirage-superoptimize on every benchmark program
of examples/benchmarks (docs/Benchmarks/Method.md) and records, per case, the
search time, what it explored and what it found.

    bench/search/run.py [--build build] [--time-limit 30] [--output FILE]

Writes a markdown table (default docs/Benchmarks/Search.md) and prints it.
The search explores one for-loop range after another and verifies, after
each, the candidates that may beat the best so far; the remark gives the time
to the first and to the best verified candidate, recorded here beside the
whole search time.

    --threads N    search threads (default 1)
"""
import argparse
import datetime
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REMARK = re.compile(
    r"remark: (?P<verdict>superoptimized|left unchanged[^:]*): (?P<rest>.*)")
NUMBERS = re.compile(
    r"(?P<configs>\d+) configurations, (?P<states>\d+) states, (?P<pruned>\d+) "
    r"values pruned, (?P<complete>\d+) complete candidates, (?P<verified>\d+) "
    r"of (?P<checked>\d+) verified in (?P<seconds>[0-9.]+) s(?: \((?P<timeout>[^)]*)\))?"
    r"(?:; first verified after (?P<first>[0-9.]+) s, best after (?P<best>[0-9.]+) s)?(; estimated (?P<before>[0-9.]+)(?: -> | us, best candidate )(?P<after>[0-9.]+) us)?")


def function_text(ir, name):
    """The text of function @name in `ir`, or ''."""
    start = ir.find(f"func.func @{name}(")
    if start < 0:
        return ""
    end = ir.find("func.func @", start + 1)
    return ir[start:end if end >= 0 else len(ir)]


def describe(ir):
    """Kernels and block-graph op counts of a function."""
    kernels = ir.count("mirage_kernel.graph_def")
    grid = re.search(r"grid \[([^\]]*)\]", ir)
    forloop = re.search(r"forloop (\d+)", ir)
    ops = re.findall(r"= (matmul|forloop_accum|thread_graph|div|mul|add|exp|silu|sqrt|"
                     r"reduction|rms_norm|input_loader|output_saver)\b", ir)
    counts = {}
    for op in ops:
        counts[op] = counts.get(op, 0) + 1
    body = ", ".join(f"{n} {op}" for op, n in sorted(counts.items()))
    return (f"{kernels} graph_def, grid [{grid.group(1)}], forloop "
            f"{forloop.group(1)}: {body}" if kernels and grid and forloop else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--output", default=os.path.join(ROOT, "docs", "Benchmarks", "Search.md"))
    args = parser.parse_args()
    opt = os.path.join(args.build, "bin", "mirage-opt")
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    rows = []
    benchmarks = os.path.join(ROOT, "examples", "benchmarks")
    for name in sorted(os.listdir(benchmarks)):
        case = os.path.splitext(name)[0]
        start = time.time()
        result = subprocess.run(
            [opt, os.path.join(benchmarks, name),
             f"--mirage-superoptimize=time-limit={args.time_limit} "
             f"search-threads={args.threads} emit-candidates=true"],
            capture_output=True, text=True)
        wall = time.time() - start
        remark = REMARK.search(result.stderr)
        numbers = NUMBERS.search(remark.group("rest")) if remark else None
        if not remark or not numbers:
            rows.append(f"| {case} | error | | | | | | | | | {wall:.1f} | "
                        f"{result.stderr.strip().splitlines()[-1] if result.stderr else ''} |")
            continue
        n = numbers.groupdict()
        found = remark.group("verdict") == "superoptimized"
        estimate = (f"{n['before']} → {n['after']}" if n["after"] else "")
        rows.append(
            f"| {case} | {'yes' if found else remark.group('verdict')} | "
            f"{n['configs']} | {n['states']} | {n['pruned']} | {n['complete']} | "
            f"{n['verified']} of {n['checked']} | {estimate} | "
            f"{n['first'] or ''} | {n['best'] or ''} | {wall:.1f}"
            f"{' (' + n['timeout'] + ')' if n['timeout'] else ''} | "
            f"{describe(function_text(result.stdout, case + '_candidate_0'))} |")
    table = "\n".join([
        "# Search benchmark",
        "",
        f"`bench/search/run.py --time-limit {args.time_limit:g} --threads "
        f"{args.threads}` on this 2-core "
        f"CPU machine, {datetime.date.today()}, commit {commit}: "
        "`mirage-superoptimize` on every benchmark program (one output; "
        "one-graph_def µGraphs and split pairs; docs/Search.md). \"first\" and "
        "\"best\": seconds until the first and the best verified candidate; "
        "\"seconds\": wall time of the whole search — enumeration, pruning "
        "and verification at full size, of every for-loop range. \"best "
        "candidate\": the cheapest verified µGraph (emitted with "
        "`emit-candidates`), whether or not it replaced the program. "
        "\"estimated µs\": the cost model's H100 estimate for "
        "the reference and for the candidate (the function is only replaced "
        "when cheaper).",
        "",
        "| case | replaced | configurations | states | values pruned | "
        "complete candidates | verified | estimated µs | first | best | "
        "seconds | best candidate |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        *rows, ""])
    with open(args.output, "w") as f:
        f.write(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
