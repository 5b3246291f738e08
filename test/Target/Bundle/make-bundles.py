#!/usr/bin/env python3
"""Builds one bundle per input for the ptxas tests.

Usage: make-bundles.py MIRAGE_TRANSLATE MIRAGE_BUNDLE OUT_DIR [--FLAG=V...] INPUT...

An input is a Mirage .mlir file or a saved µGraph .json file of the public
implementation (imported first by MIRAGE_TRANSLATE). Each becomes OUT_DIR/<stem>;
flags (`--chips=C,...`, `--library-matmuls=false`, ...) go to MIRAGE_BUNDLE.
Prints one line per input with its number of functions, and exits non-zero on
any failure.
"""
import os
import subprocess
import sys

from mirage.plan import read_plan


def main(argv):
    translate, bundler, out_dir, inputs = argv[1], argv[2], argv[3], argv[4:]
    flags = [arg for arg in inputs if arg.startswith("--")]
    inputs = [arg for arg in inputs if arg not in flags]
    failures = 0
    for path in inputs:
        stem = os.path.splitext(os.path.basename(path))[0]
        bundle = os.path.join(out_dir, stem)
        source = path
        if path.endswith(".json"):
            source = os.path.join(out_dir, stem + ".mlir")
            subprocess.run([translate, "--import-mirage-json", path, "-o", source],
                           check=True)
        result = subprocess.run([bundler, source, "-o", bundle] + flags,
                                capture_output=True, text=True)
        if result.returncode != 0:
            print(f"{stem}: FAILED\n{result.stderr}")
            failures += 1
            continue
        functions = len(read_plan(bundle).functions)
        print(f"{stem}: {functions} functions bundled")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
