#!/usr/bin/env python3
"""Writes the bandwidth suite's programs (bench/gpu/bandwidth.py) as kernel
graphs, one file per program: bench/bandwidth/<name>.mlir.

    write-programs.py [--check]

With --check nothing is written: exits 1, naming them, if a file is
missing, differs from what the generator writes, or names no program
(bench/gpu/write_programs.py, which the generality suite's writer shares).
"""
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "gpu"))

import write_programs  # noqa: E402
from bandwidth import SPECS  # noqa: E402

if __name__ == "__main__":
    sys.exit(write_programs.main(sys.argv[1:], SPECS, HERE, "bandwidth.py"))
