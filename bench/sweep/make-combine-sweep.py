#!/usr/bin/env python3
"""Bundles of a split µGraph over its combining kernel's rows per block and
threads per block.

    make-combine-sweep.py OUT BUNDLE:FUNCTION... [--rows 1,2,4,8,16]
                          [--threads 64,128,256,512] [--build build]
                          [--bundle-option=FLAG]...

For each FUNCTION of the pipeline bundle BUNDLE (a split µGraph: a first
kernel whose parts its last graph_def, the combining kernel, adds up) writes
OUT/searched_<case>: one tuning group for `mirage-tune`, with the case's
program as written (examples/benchmarks/<case>.mlir, or the generality
suite's bench/generality/<case>.mlir) and FUNCTION with its
combining kernel's blocks holding each of --rows rows of the output (the
grid axis over the rows grows to match) at each of --threads threads,
named `<case>_r<rows>_t<threads>`. Each --bundle-option is passed on to
mirage-bundle (a code generator flag such as `--preload-one-pass`), so
that two runs into two folders compare the flag on the same variants. The
sweep measured how the combining kernel's time depends on its launch
(docs/Benchmarks/KernelProfiles.md, "Attention: the combining kernel").
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

from tuning_group import write_bundle  # noqa: E402


def function_text(source, name):
    """The text of func.func @name in `source`, without its attributes."""
    match = re.search(rf"^  func\.func @{name}\(.*?^  }}$", source,
                      re.M | re.S)
    if not match:
        raise SystemExit(f"no function @{name}")
    text = re.sub(r" attributes \{.*?\}\} \{", " {", match.group(0), count=1)
    return text + "\n"


def with_combine_launch(function, name, rows, threads):
    """`function` renamed `name`, its last graph_def's blocks holding `rows`
    rows of the output at `threads` threads."""
    head, sep, last = function.rpartition("mirage_kernel.graph_def(")
    line, rest = last.split("\n", 1)
    grid = [int(g) for g in re.search(r"grid \[(\d+), (\d+), (\d+)\]",
                                      line).groups()]
    shape = [int(d) for d in re.search(
        r"-> tensor<([\dx]+)x[a-z0-9]+>", line).group(1).split("x")]
    body, end = rest.split("\n    }\n", 1)
    imap = re.search(r"imap <([^>]*)>", body).group(1)
    axis = next((a for a, d in (m.split(" = ") for m in imap.split(", "))
                 if d == "1"), None)
    if axis is None:
        # No grid axis over the rows yet: the first free one takes them.
        used = set(re.findall(r"([xyz]) = \d", body))
        axis = next(a for a, size in zip("xyz", grid)
                    if size == 1 and a not in used)
        body = re.sub(r"([io]map <)([^>]*)>",
                      lambda m: f"{m.group(1)}{m.group(2)}, {axis} = 1>",
                      body)
    index = "xyz".index(axis)
    old_rows = shape[1] // grid[index]
    if shape[1] % rows:
        raise SystemExit(f"{name}: {rows} rows do not divide {shape[1]}")
    grid[index] = shape[1] // rows
    line = re.sub(r"grid \[\d+, \d+, \d+\] block \[\d+, 1, 1\]",
                  f"grid [{grid[0]}, {grid[1]}, {grid[2]}] "
                  f"block [{threads}, 1, 1]", line)
    body = body.replace(f"stensor<1x{old_rows}x", f"stensor<1x{rows}x")
    text = head + sep + line + "\n" + body + "\n    }\n" + end
    return re.sub(r"func\.func @[\w.]+", f"func.func @{name}", text, count=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("functions", nargs="+", metavar="BUNDLE:FUNCTION")
    parser.add_argument("--rows", default="1,2,4,8,16")
    parser.add_argument("--threads", default="64,128,256,512")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--bundle-option", action="append", default=[],
                        metavar="FLAG", help="a flag for mirage-bundle")
    args = parser.parse_args()
    rows = [int(r) for r in args.rows.split(",")]
    threads = [int(t) for t in args.threads.split(",")]
    bundler = os.path.join(args.build, "bin", "mirage-bundle")
    for spec in args.functions:
        bundle, function = spec.split(":")
        case = function.split("_candidate_")[0]
        with open(os.path.join(bundle, "source.mlir")) as f:
            original = function_text(f.read(), function)
        functions = [with_combine_launch(original, f"{case}_r{r}_t{t}", r, t)
                     for r in rows for t in threads]
        program = next(p for p in (
            os.path.join(ROOT, "examples", "benchmarks", f"{case}.mlir"),
            os.path.join(ROOT, "bench", "generality", f"{case}.mlir"))
            if os.path.exists(p))
        write_bundle(os.path.join(args.out, f"searched_{case}"), bundler,
                     case, "combine", program, functions, args.bundle_option)
        print(f"{case}: {len(functions)} functions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
