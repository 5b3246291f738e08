#!/usr/bin/env python3
"""Imports every saved µGraph file, counts the graphs, and checks that
import -> export -> import reproduces the first import exactly.

    import-all.py MIRAGE_TRANSLATE DIR

Prints `FILE: N graphs, round trip ok` per file and a closing
`imported N files, M graphs` line; exits 1 on any failure.
"""

import os
import subprocess
import sys


def run(args, stdin=None):
    return subprocess.run(args, input=stdin, capture_output=True, text=True)


def main(translate, directory):
    files = sorted(f for f in os.listdir(directory) if f.endswith(".json"))
    graphs = failures = 0
    for name in files:
        stem = name[:-len(".json")]
        first = run([translate, "--import-mirage-json",
                     os.path.join(directory, name)])
        if first.returncode != 0:
            print(f"{name}: import failed: {first.stderr.strip()}")
            failures += 1
            continue
        count = first.stdout.count(f"func.func @{stem}_")
        exported = run([translate, "--export-mirage-json"], first.stdout)
        second = run([translate, "--import-mirage-json",
                      f"--mirage-json-prefix={stem}"], exported.stdout)
        same = exported.returncode == 0 and second.stdout == first.stdout
        print(f"{name}: {count} graphs, round trip "
              f"{'ok' if same else 'DIFFERS'}")
        graphs += count
        failures += not same
    print(f"imported {len(files)} files, {graphs} graphs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
