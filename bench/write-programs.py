#!/usr/bin/env python3
"""Writes the programs of the generality and bandwidth suites
(bench/gpu/generality.py, bench/gpu/bandwidth.py) as kernel graphs, one file
per program: bench/<suite>/<name>.mlir.

    write-programs.py [--check]

With --check nothing is written: exits 1, naming them, if a file is
missing, differs from what the generator writes, or names no program
(bench/gpu/write_programs.py).
"""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "gpu"))

import bandwidth  # noqa: E402
import generality  # noqa: E402
import write_programs  # noqa: E402

if __name__ == "__main__":
    statuses = [write_programs.main(sys.argv[1:], suite.SPECS,
                                    HERE / name, f"{name}.py")
                for name, suite in (("generality", generality),
                                    ("bandwidth", bandwidth))]
    sys.exit(max(statuses))
