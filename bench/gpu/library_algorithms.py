#!/usr/bin/env python3
"""Times bundle functions with each cuBLASLt algorithm in turn.

    library_algorithms.py BUNDLE FUNCTION [FUNCTION ...] [--library PATH]
                          [--algorithms N] [--device N]

The runtime chooses each library matmul's algorithm by timing cuBLASLt's
proposals (docs/Runtime.md, "Library matmuls"). This script shows what the
choice costs a whole function: it runs one process per setting, the
runtime's own timed choice ("timed") and then MIRAGE_LIBRARY_ALGORITHM=0
to N-1 (default 8, the runtime's number of proposals), each forcing that
proposal for every library matmul that has more, and times every FUNCTION
there as bench.py does (time_modes: do_bench and do_bench_cudagraph, the
lower counts) on inputs of normal(0, 1) * 0.1. Prints a Markdown table of
µs, a row per setting, a column per function; with MIRAGE_LIBRARY_LOG=1 in
the environment the runtime's choices go to stderr as well.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

#: The number of proposals the runtime asks cuBLASLt for.
PROPOSALS = 8


def settings(count):
    """The runtime's timed choice, then every proposal below `count`."""
    return ["timed"] + [str(i) for i in range(count)]


def child_environ(environ, setting):
    """A copy of `environ` that forces `setting`'s algorithm (none for
    "timed")."""
    child = dict(environ)
    child.pop("MIRAGE_LIBRARY_ALGORITHM", None)
    if setting != "timed":
        child["MIRAGE_LIBRARY_ALGORITHM"] = setting
    return child


def table(rows, functions):
    """Markdown: a row per setting in the order first seen, a column per
    function, µs to two decimals ("–" where nothing was measured)."""
    order, times = [], {}
    for row in rows:
        if row["algorithm"] not in times:
            order.append(row["algorithm"])
            times[row["algorithm"]] = {}
        times[row["algorithm"]][row["function"]] = row["us"]
    lines = ["| algorithm | " + " | ".join(functions) + " |",
             "| --- | " + " | ".join("---" for _ in functions) + " |"]
    for setting in order:
        cells = [f"{times[setting][f]:.2f}" if f in times[setting] else "–"
                 for f in functions]
        lines.append(f"| {setting} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def measure(options):
    """In a child process: times each function under this process's
    setting and prints a JSON line for each."""
    import torch
    from bench import time_modes
    from mirage import runtime

    bundle = runtime.load_bundle(options.bundle, library=options.library,
                                 device=options.device)
    torch.manual_seed(1)
    device = torch.device("cuda", options.device)
    setting = os.environ.get("MIRAGE_LIBRARY_ALGORITHM", "timed")
    for name in options.functions:
        function = bundle(name)
        inputs = [(torch.randn(spec.shape, device=device) * 0.1)
                  .to(runtime.torch_dtype(spec.dtype))
                  for spec in function.spec.inputs]
        outputs = [torch.empty(spec.shape, device=device,
                               dtype=runtime.torch_dtype(spec.dtype))
                   for spec in function.spec.outputs]
        times = time_modes(lambda: function(*inputs, out=outputs))
        print(json.dumps({"algorithm": setting, "function": name,
                          "us": min(times.values())}), flush=True)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("functions", nargs="+")
    parser.add_argument("--library")
    parser.add_argument("--algorithms", type=int, default=PROPOSALS,
                        choices=range(1, PROPOSALS + 1))
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--child", action="store_true",
                        help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        measure(options)
        return 0
    rows, failed = [], []
    for setting in settings(options.algorithms):
        child = subprocess.run(
            [sys.executable, __file__, "--child", *argv],
            env=child_environ(os.environ, setting), stdout=subprocess.PIPE,
            text=True, check=False)
        rows += [json.loads(line) for line in child.stdout.splitlines()
                 if line.startswith("{")]
        if child.returncode:
            failed.append(setting)
    print(table(rows, options.functions))
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
