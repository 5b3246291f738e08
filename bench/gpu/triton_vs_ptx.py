#!/usr/bin/env python3
"""The Triton-versus-PTX table of the main job's tuning (docs/Triton.md).

    triton_vs_ptx.py TUNING_DB [--json OUT]

TUNING_DB is the tuning database bench/gpu-pipeline.sh writes when the
pipeline bundles carry their Triton modules (make-pipeline-bundles.py
--triton): each group's PTX forms measured by the runtime's tuner and its
Triton forms by mirage.tuning, by one rule in one run (docs/Runtime.md,
"Triton measurements"). For each group: the fastest correct PTX form, the
fastest correct Triton form, the Triton time of the PTX winner's own µGraph,
how many Triton forms were correct, wrong or failed, and the backend the
tuner chose. Prints a Markdown table and, with --json, writes the rows.
"""

import argparse
import json
import pathlib
import re
import sys


def case_name(function):
    """The case a pipeline function belongs to: its name without the
    `_as_written` or `_candidate_<n>` suffix."""
    return re.sub(r"_(as_written|candidate_\d+)$", "", function)


def fastest(measurements):
    ok = [m for m in measurements if m["status"] == "ok"]
    return min(ok, key=lambda m: m["median_us"]) if ok else None


def rows(database):
    out = []
    for entry in database["entries"]:
        measured = entry["measurements"]
        ptx = [m for m in measured if m.get("backend", "ptx") == "ptx"]
        triton = [m for m in measured if m.get("backend") == "triton"]
        best_ptx, best_triton = fastest(ptx), fastest(triton)
        same = next((m for m in triton if best_ptx and m["status"] == "ok"
                     and m["function"] == best_ptx["function"]), None)
        counts = {status: sum(m["status"] == status for m in triton)
                  for status in ("ok", "wrong", "failed")}
        out.append({
            "case": case_name(entry["winner"]["function"]),
            "ptx_function": best_ptx and best_ptx["function"],
            "ptx_us": best_ptx and best_ptx["median_us"],
            "triton_function": best_triton and best_triton["function"],
            "triton_us": best_triton and best_triton["median_us"],
            "triton_same_us": same and same["median_us"],
            "triton": counts,
            "winner": entry["winner"]["function"],
            "backend": entry["winner"].get("backend", "ptx")})
    return sorted(out, key=lambda r: r["case"])


def cell(value, digits=1):
    return "–" if value is None else f"{value:.{digits}f}"


def ratio(a, b):
    return a / b if a and b else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=pathlib.Path)
    parser.add_argument("--json", type=pathlib.Path)
    args = parser.parse_args()
    table = rows(json.loads(args.database.read_text()))
    print("| case | best PTX µs | best Triton µs | Triton / PTX | "
          "PTX winner as Triton µs | Triton forms ok / wrong / failed | "
          "chosen |")
    print("|---|---|---|---|---|---|---|")
    for r in table:
        counts = r["triton"]
        print(f"| {r['case']} | {cell(r['ptx_us'])} | "
              f"{cell(r['triton_us'])} | "
              f"{cell(ratio(r['triton_us'], r['ptx_us']), 2)} | "
              f"{cell(r['triton_same_us'])} | {counts['ok']} / "
              f"{counts['wrong']} / {counts['failed']} | "
              f"`{r['winner']}` ({r['backend']}) |")
    if args.json:
        args.json.write_text(json.dumps(table, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
