#!/usr/bin/env python3
"""Writes the generality suite's programs (bench/gpu/generality.py) as
kernel graphs, one file per program: bench/generality/<name>.mlir.

    write-programs.py [--check]

With --check nothing is written: exits 1, naming them, if a file is
missing, differs from what the generator writes, or names no program.
"""
import argparse
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "gpu"))

from generality import SPECS  # noqa: E402


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    options = parser.parse_args(argv)
    wanted = {f"{spec.name}.mlir": spec.mlir() for spec in SPECS}
    if options.check:
        present = {path.name for path in HERE.glob("*.mlir")}
        wrong = sorted(name for name, text in wanted.items()
                       if name not in present
                       or (HERE / name).read_text() != text)
        stale = sorted(present - set(wanted))
        for name in wrong:
            print(f"{name}: missing or not what generality.py writes")
        for name in stale:
            print(f"{name}: no program of generality.py")
        return 1 if wrong or stale else 0
    for name, text in wanted.items():
        (HERE / name).write_text(text)
    print(f"wrote {len(wanted)} programs to {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
