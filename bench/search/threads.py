#!/usr/bin/python3
"""How the search scales with threads (docs/Benchmarks/Search.md, issue 27's
deliverable 4): runs mirage-superoptimize in-process (mirage.compiler, so
that it runs wherever the Python package does, on the GPU machine too) on
each program with each number of search threads, one search at a time,
with the options of bench/make-pipeline-bundles.py (emit-candidates,
max-candidates=8, no tuning database).

    threads.py [--threads 1,4,16] [--time-limit 60] [--out FILE] PROGRAM...

Prints a Markdown table and writes the rows as JSON to FILE: per program
and thread count, the remark's outcome, verified candidates and the seconds
to the first and the best verified candidate and of the whole function's
search ("total"), and the pass's wall time (the whole function's search,
then the other forms in what it leaves).
"""

import argparse
import json
import os
import pathlib
import sys
import time

from remarks import parse


def pipeline(threads, time_limit):
    return (f"mirage-superoptimize{{emit-candidates=true max-candidates=8 "
            f"use-tuning-db=false search-threads={threads} "
            f"time-limit={time_limit:g}}}")


def measure(program, threads, time_limit):
    """One search of `program` (a path) with `threads` threads: a row."""
    from mirage import compiler
    start = time.monotonic()
    compiler.run_pipeline(program.read_text(), pipeline(threads, time_limit),
                          name=program.name)
    wall = time.monotonic() - start
    parsed = parse(compiler.last_remarks()) or {}
    return {"case": program.stem, "threads": threads,
            "wall": round(wall, 2), **parsed}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("programs", nargs="+", type=pathlib.Path)
    parser.add_argument("--threads", default="1,4,16")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--out", type=pathlib.Path)
    args = parser.parse_args(argv)
    counts = [int(t) for t in args.threads.split(",")]
    rows = []
    print(f"{os.cpu_count()} CPUs; threads {counts}; time limit "
          f"{args.time_limit:g} s", flush=True)
    print("| case | threads | outcome | verified | first s | best s | "
          "total s | pass s |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    for program in args.programs:
        for threads in counts:
            r = measure(program, threads, args.time_limit)
            rows.append(r)
            print(f"| {r['case']} | {threads} | {r.get('outcome', '–')} | "
                  f"{r.get('verified', '–')} | {r.get('first', '–')} | "
                  f"{r.get('best', '–')} | {r.get('total', '–')} | "
                  f"{r['wall']} |", flush=True)
            if args.out:
                args.out.write_text(json.dumps(
                    {"cpus": os.cpu_count(), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
