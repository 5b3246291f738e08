#!/usr/bin/env python3
"""Proves every outlined kernel graph of a module equivalent to itself before
a transformation.

Usage: check-outlined.py MIRAGE_OPT BEFORE AFTER

BEFORE and AFTER are modules printed by mirage-opt (one `func.func` per
function, at two spaces of indentation). For every function of AFTER whose
name ends in `_graph<N>` (what mirage-outline-kernel-graphs makes), runs
`MIRAGE_OPT --mirage-check-equivalence` on a module holding BEFORE's function
of that name, renamed @reference, and AFTER's; prints one line per function
and a summary `checked N outlined functions, S superoptimized, 0 failed`, and
exits 1 when one is not proved equivalent. Standard library only.
"""

import re
import subprocess
import sys

FUNCTION = re.compile(r"^  func\.func @(\w+)\(.*?^  }$", re.M | re.S)


def functions(path):
    with open(path) as f:
        text = f.read()
    return {m.group(1): m.group(0) for m in FUNCTION.finditer(text)}


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    tool, before, after = argv[1:]
    old, new = functions(before), functions(after)
    outlined = sorted(name for name in new if re.search(r"_graph\d+$", name))
    failed = superoptimized = 0
    for name in outlined:
        reference = old[name].replace("@" + name + "(", "@reference(", 1)
        module = "module {\n%s\n%s\n}\n" % (reference, new[name])
        proc = subprocess.run(
            [tool, "--mirage-check-equivalence=reference=reference",
             "-o", "/dev/null", "-"],
            input=module.encode(), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        searched = "graph_def" in new[name]
        superoptimized += searched
        ok = proc.returncode == 0 and b"is equivalent" in proc.stderr
        failed += not ok
        print("%s: %s%s" % (name, "equivalent" if ok else "NOT PROVED",
                            " (superoptimized)" if searched else ""))
        if not ok:
            sys.stdout.write(proc.stderr.decode(errors="replace"))
    print("checked %d outlined functions, %d superoptimized, %d failed"
          % (len(outlined), superoptimized, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
