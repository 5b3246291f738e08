#!/usr/bin/env python3
"""Runs mirage-test-subexpressions on saved µGraph files against their
benchmark references and prints one summary line per file.

Usage: subexpressions-mugraphs.py MIRAGE_TRANSLATE MIRAGE_OPT MUGRAPHS_DIR FILE...
"""
import os
import re
import subprocess
import sys

from mirage.mugraphs import reference_program

REMARK = re.compile(r"remark: (\d+) values: (\d+) subexpressions of the "
                    r"reference, (\d+) not, (\d+) unknown")


def main(argv):
    translate, opt, directory, files = argv[1], argv[2], argv[3], argv[4:]
    for name in files:
        stem = os.path.splitext(name)[0]
        imported = subprocess.run(
            [translate, "--import-mirage-json", os.path.join(directory, name)],
            check=True, capture_output=True, text=True).stdout
        body = "\n".join(line for line in imported.split("\n")
                         if line not in ("module {", "}"))
        with open(reference_program(stem)) as f:
            source = f.read() + "\n" + body
        result = subprocess.run([opt, "--mirage-test-subexpressions", "-o",
                                 os.devnull], input=source, capture_output=True,
                                text=True)
        remarks = [tuple(map(int, m.groups()))
                   for m in REMARK.finditer(result.stderr)]
        if result.returncode != 0 or not remarks:
            print(f"{stem}: FAILED\n{result.stderr[-2000:]}")
            continue
        values, yes, no, unknown = (sum(r[i] for r in remarks) for i in range(4))
        rejected = sum(1 for r in remarks if r[2] > 0)
        print(f"{stem}: {len(remarks)} graphs, {values} values, {yes} "
              f"subexpressions, {no} not, {unknown} unknown; {rejected} graphs "
              f"with a value that is not")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
