"""Writes the programs of a suite (generality.py's Spec: a name and its
kernel graph, `mlir()`) into a directory, one file per program:
<directory>/<name>.mlir. bench/write-programs.py calls `main` for each
suite:

    write-programs.py [--check]

With --check nothing is written: returns 1, naming them, if a file is
missing, differs from what the generator writes, or names no program.
"""

import argparse


def main(argv, specs, directory, source):
    """Writes (or with --check in `argv`, checks) the kernel graph of every
    Spec of `specs` as `directory`/<name>.mlir; `source` names the module
    that generates them in the messages. Returns the exit status."""
    parser = argparse.ArgumentParser(
        description=f"Writes the programs of {source} to {directory}.")
    parser.add_argument("--check", action="store_true")
    options = parser.parse_args(argv)
    wanted = {f"{spec.name}.mlir": spec.mlir() for spec in specs}
    if options.check:
        present = {path.name for path in directory.glob("*.mlir")}
        wrong = sorted(name for name, text in wanted.items()
                       if name not in present
                       or (directory / name).read_text() != text)
        stale = sorted(present - set(wanted))
        for name in wrong:
            print(f"{name}: missing or not what {source} writes")
        for name in stale:
            print(f"{name}: no program of {source}")
        return 1 if wrong or stale else 0
    for name, text in wanted.items():
        (directory / name).write_text(text)
    print(f"wrote {len(wanted)} programs to {directory}")
    return 0
