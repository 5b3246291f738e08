#!/usr/bin/env python3
"""The Triton-versus-PTX table of the kernel benchmark (docs/Triton.md).

    triton_vs_ptx.py BENCH_JSON TRITON_CHECK_JSON [--json OUT]

BENCH_JSON is bench/gpu/bench.py's output for the pipeline bundles (each
case's headline is the tuned winner of its `pipeline_<case>` bundle);
TRITON_CHECK_JSON is bench/gpu/triton_check.py's output for the Triton
modules of the same search outputs (bench/make-triton-modules.py
--searched <bundle>/source.mlir). For each case, the winner's time under
the PTX backend (bench.py's CUDA-graph median) beside the same µGraph's
time under Triton (triton_check.py's CUDA-graph mean), both without launch
overhead, and whether the Triton version matched its reference. Prints a
Markdown table and, with --json, writes the rows.
"""

import argparse
import json
import pathlib
import sys


def rows(bench, check):
    triton = {r["function"]: r for r in check["results"] if "function" in r}
    out = []
    for case in bench:
        winner = next((c for c in case.get("candidates", [])
                       if c.get("source") == "pipeline"), None)
        if winner is None:
            continue
        record = triton.get(winner["function"], {})
        ptx = winner["times"].get("cudagraph")
        tri = record.get("triton_graph_us")
        out.append({
            "case": case["case"], "function": winner["function"],
            "ptx_us": ptx, "triton_us": tri,
            "triton_passed": record.get("passed"),
            "triton_error": max(record["errors"]) if record.get("errors")
            else None,
            "triton_over_ptx": tri / ptx if tri and ptx else None})
    return out


def cell(value, digits=1):
    return "–" if value is None else f"{value:.{digits}f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", type=pathlib.Path)
    parser.add_argument("check", type=pathlib.Path)
    parser.add_argument("--json", type=pathlib.Path)
    args = parser.parse_args()
    table = rows(json.loads(args.bench.read_text()),
                 json.loads(args.check.read_text()))
    print("| case | µGraph (tuned winner) | PTX µs | Triton µs | "
          "Triton / PTX | Triton correct |")
    print("|---|---|---|---|---|---|")
    for r in table:
        correct = {True: "yes", False: "no", None: "not run"}[
            r["triton_passed"]]
        print(f"| {r['case']} | `{r['function']}` | {cell(r['ptx_us'])} | "
              f"{cell(r['triton_us'])} | {cell(r['triton_over_ptx'], 2)} | "
              f"{correct} |")
    if args.json:
        args.json.write_text(json.dumps(table, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
