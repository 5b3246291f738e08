#!/usr/bin/env python3
"""Checks every saved µGraph of the public implementation against the
benchmark reference program, and writes the table of docs/Mugraphs.md.

For each file of saved µGraphs (--mugraphs; docs/Mugraphs.md) it imports the graphs with
mirage-translate, puts the matching examples/benchmarks reference first, and
runs `mirage-opt --mirage-check-equivalence` once (so the reference is
evaluated once per file), at full size (`reduce-dimensions=false`: the
table's bounds are those of full-size checks; docs/Verification.md). Every graph is reported as equivalent (with the
bound and the float64 error) or rejected (with the first differing element
and the float64 error as evidence).

    mugraph-equivalence.py --build build [--jobs 2] [--only a,b] [--output F]
                           [--expect docs/Mugraphs.md]

Exits 1 when a file fails to import or a check cannot run; rejections are
results, not failures. With --expect, the rows computed (all columns but the
time) must equal those of the committed table, or it exits 1.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from mirage import CHECKOUT
from mirage.mugraphs import DEFAULT_MUGRAPHS, reference_program

VERDICT = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):\d+: (?P<kind>remark|error): (?P<text>.*)$")
EQUIVALENT = re.compile(
    r"is equivalent to @\S+: (?P<trials>\d+) trials, false-positive "
    r"probability <= 2\^(?P<bound>-?[0-9.]+)(?:; output dimension [^;]*)*"
    r"(; float64 relative error (?P<err>\S+))?")
DIFFERENT = re.compile(
    r"is not equivalent to @\S+: (?P<where>.*?)(; float64 relative error "
    r"(?P<err>\S+))?$")


def keep_slice(module_text, stem, index, count):
    """Drops the imported functions `stem_i` with i % count != index."""
    out, keep = [], True
    for line in module_text.split("\n"):
        m = re.match(r"\s*func\.func @" + re.escape(stem) + r"_(\d+)\(", line)
        if m:
            keep = int(m.group(1)) % count == index
        elif re.match(r"\s*func\.func ", line):
            keep = True
        if keep:
            out.append(line)
    return "\n".join(out)


def check_file(path, build, part=(0, 1)):
    """Returns a dict with the per-graph results of one µGraph file; with
    `part` = (i, n), only of its graphs whose index is i modulo n."""
    stem = os.path.splitext(os.path.basename(path))[0]
    reference = reference_program(stem)
    start = time.time()
    imported = subprocess.run(
        [os.path.join(build, "bin", "mirage-translate"),
         "--import-mirage-json", path],
        capture_output=True, text=True)
    if imported.returncode != 0:
        return {"file": stem, "error": "import failed: " + imported.stderr}
    with open(reference) as f:
        reference_text = f.read()
    # The reference function first, then the imported module's functions.
    body = imported.stdout.strip()
    assert body.startswith("module {") and body.endswith("}")
    body = keep_slice(body[len("module {"):-1], stem, *part)
    module = reference_text + "\n" + body + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as tmp:
        tmp.write(module)
    try:
        lines = module.split("\n")
        names = {}
        for number, line in enumerate(lines, 1):
            m = re.match(r"\s*func\.func @([\w.$-]+)", line)
            if m:
                names[number] = m.group(1)
        checked = subprocess.run(
            [os.path.join(build, "bin", "mirage-opt"),
             "--mirage-check-equivalence=reduce-dimensions=false", tmp.name,
             "-o", os.devnull],
            capture_output=True, text=True)
    finally:
        os.unlink(tmp.name)
    graphs = {}
    for line in checked.stderr.splitlines():
        m = VERDICT.match(line)
        if not m or int(m.group("line")) not in names:
            continue
        name = names[int(m.group("line"))]
        text = m.group("text")
        eq = EQUIVALENT.match(text)
        if m.group("kind") == "remark" and eq:
            graphs[name] = {"equivalent": True, "trials": int(eq["trials"]),
                            "bound": float(eq["bound"]), "err": eq["err"]}
            continue
        diff = DIFFERENT.match(text)
        if diff:
            graphs[name] = {"equivalent": False, "where": diff["where"],
                            "err": diff["err"]}
        else:
            graphs[name] = {"equivalent": False, "where": text, "err": None,
                            "unchecked": True}
    expected = [n for n in names.values() if n.startswith(stem + "_")]
    missing = [n for n in expected if n not in graphs]
    result = {"file": stem, "reference": os.path.basename(reference),
              "graphs": graphs, "count": len(expected),
              "seconds": time.time() - start}
    if missing:
        result["error"] = ("no verdict for " + ", ".join(missing) + "\n" +
                           checked.stderr[-2000:])
    return result


def render(results):
    out = ["| file | reference | graphs | equivalent | rejected | "
           "weakest bound | max float64 error (equivalent) | seconds |",
           "|---|---|---|---|---|---|---|---|"]
    details = []
    for r in results:
        graphs = r["graphs"]
        eq = [g for g in graphs.values() if g["equivalent"]]
        rejected = sorted(n for n, g in graphs.items() if not g["equivalent"])
        bound = max((g["bound"] for g in eq), default=None)
        err = max((float(g["err"]) for g in eq if g["err"]), default=None)
        out.append("| {} | {} | {} | {} | {} | {} | {} | {:.0f} |".format(
            r["file"], r["reference"], r["count"], len(eq), len(rejected),
            "2^{:.0f}".format(bound) if bound is not None else "-",
            "{:.1e}".format(err) if err is not None else "-", r["seconds"]))
        for name in rejected:
            g = graphs[name]
            details.append("| {} | {} | {} |".format(
                name, g["where"], g["err"] or "-"))
    text = "\n".join(out) + "\n"
    if details:
        text += ("\n### Rejected graphs\n\n| graph | first difference "
                 "(finite field) | float64 relative error |\n|---|---|---|\n" +
                 "\n".join(details) + "\n")
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(CHECKOUT, "build"))
    parser.add_argument("--mugraphs", default=DEFAULT_MUGRAPHS)
    parser.add_argument("--only", default="",
                        help="comma-separated file stems to check")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--output", help="write the table here")
    parser.add_argument("--expect",
                        help="a committed table whose rows must be reproduced")
    parser.add_argument("--part", default="0/1",
                        help="I/N: check only the graphs whose index is I mod N")
    parser.add_argument("--save", help="also write the results as JSON here")
    parser.add_argument("--merge", nargs="*", default=[],
                        help="render from saved JSON results instead of "
                             "checking (parts of one file are combined)")
    args = parser.parse_args()

    files = sorted(f for f in os.listdir(args.mugraphs) if f.endswith(".json"))
    if args.only:
        wanted = set(args.only.split(","))
        files = [f for f in files if os.path.splitext(f)[0] in wanted]
    paths = [os.path.join(args.mugraphs, f) for f in files]
    part = tuple(int(x) for x in args.part.split("/"))
    if args.merge:
        results = merge_saved(args.merge)
    else:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda p: check_file(p, args.build, part),
                                    paths))
    if args.save:
        with open(args.save, "w") as f:
            json.dump(results, f)
    failed = [r for r in results if "error" in r]
    for r in failed:
        print("{}: {}".format(r["file"], r["error"]), file=sys.stderr)
    table = render([r for r in results if "graphs" in r])
    if args.output:
        with open(args.output, "w") as f:
            f.write(table)
    print(table, end="")
    mismatches = expect_rows(table, args.expect) if args.expect else 0
    total = sum(r.get("count", 0) for r in results)
    eq = sum(sum(g["equivalent"] for g in r["graphs"].values())
             for r in results if "graphs" in r)
    print("checked {} graphs in {} files: {} equivalent, {} rejected, {} "
          "files failed".format(total, len(results), eq, total - eq,
                                len(failed)))
    return 1 if failed or mismatches else 0


def merge_saved(paths):
    """Combines saved results; parts of the same file add up."""
    merged = {}
    for path in paths:
        with open(path) as f:
            for r in json.load(f):
                if r["file"] not in merged:
                    merged[r["file"]] = r
                    continue
                m = merged[r["file"]]
                m["graphs"].update(r["graphs"])
                m["count"] += r["count"]
                m["seconds"] += r["seconds"]
    return [merged[k] for k in sorted(merged)]


def comparable(row):
    """A table row without its time column (the last one)."""
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    return cells[:-1] if len(cells) == 8 else cells


def expect_rows(table, path):
    """Compares the rows of `table` with those of the committed `path`."""
    with open(path) as f:
        committed = {}
        for line in f:
            if line.startswith("| ") and not line.startswith("| file"):
                cells = comparable(line)
                committed[cells[0]] = cells
    mismatches = 0
    for line in table.splitlines():
        if not line.startswith("| ") or line.startswith("| file") or \
                line.startswith("| graph"):
            continue
        cells = comparable(line)
        if committed.get(cells[0]) != cells:
            print("differs from {}: {} (committed: {})".format(
                path, cells, committed.get(cells[0])))
            mismatches += 1
    print("{} rows reproduce the committed table".format(
        "all" if not mismatches else "not all"))
    return mismatches


if __name__ == "__main__":
    sys.exit(main())
