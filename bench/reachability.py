#!/usr/bin/env python3
"""Which saved upstream µGraphs the search generates (docs/Search.md,
"Reachability").

    reachability.py BUNDLES_DIR [--build build] [--time-limit S] [--out JSON]

BUNDLES_DIR holds the upstream_<stem> bundles of bench/make-gpu-bundles.py
(--no-search --per-file 1000 gives every saved µGraph). Each file's graphs,
after the benchmark program they implement, go through
`mirage-opt --mirage-test-reachable` (the files the verifier proves wrong
are left out). Writes {"time_limit": S, "files": {stem: {function:
verdict}}, "rules": {rule: count}} to JSON (default reachability.json) and
prints the count of each verdict's rule.
"""

import argparse
import collections
import json
import pathlib
import re
import subprocess
import sys

from mirage import CHECKOUT
from mirage.mugraphs import upstream_module

#: A remark of mirage-test-reachable: the line it names and its verdict.
REMARK = re.compile(r"^[^:]*:(\d+):\d+: remark: (.*)$")


def function_at(text, line):
    """The function of MLIR `text` that starts last at or before `line`."""
    name = None
    for number, source in enumerate(text.splitlines(), 1):
        if number > line:
            break
        found = re.search(r"func\.func @([\w.]+)\(", source)
        if found:
            name = found.group(1)
    return name


def verdicts(text, reference, opt, time_limit, scratch):
    """{function: verdict} of the candidates of module `text`."""
    scratch.write_text(text)
    result = subprocess.run(
        [str(opt), str(scratch), "--mirage-test-reachable="
         f"reference={reference} time-limit={time_limit:g}", "-o",
         "/dev/null"], capture_output=True, text=True)
    found = {}
    for line in result.stderr.splitlines():
        match = REMARK.match(line)
        if match:
            found[function_at(text, int(match.group(1)))] = match.group(2)
    if result.returncode and not found:
        raise RuntimeError(result.stderr.strip())
    return found


def rule(verdict):
    """"reachable", or the rule an unreachable verdict names."""
    match = re.match(r"unreachable \(([^)]*)\)", verdict)
    return match.group(1) if match else verdict


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundles", type=pathlib.Path)
    parser.add_argument("--build", type=pathlib.Path,
                        default=pathlib.Path(CHECKOUT) / "build")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--out", type=pathlib.Path,
                        default=pathlib.Path("reachability.json"))
    args = parser.parse_args()
    opt = args.build / "bin" / "mirage-opt"
    files, rules = {}, collections.Counter()
    scratch = args.out.with_suffix(".mlir")
    for source in sorted(args.bundles.glob("upstream_*/source.mlir")):
        stem = source.parent.name[len("upstream_"):]
        try:
            text, reference = upstream_module(source)
        except ValueError as error:
            print(f"{stem}: left out: {error}", flush=True)
            continue
        files[stem] = verdicts(text, reference, opt, args.time_limit,
                               scratch)
        counts = collections.Counter(map(rule, files[stem].values()))
        rules.update(counts)
        print(f"{stem}: " + ", ".join(f"{k} {v}" for k, v in
                                     sorted(counts.items())), flush=True)
    scratch.unlink(missing_ok=True)
    args.out.write_text(json.dumps({"time_limit": args.time_limit,
                                    "files": files, "rules": dict(rules)},
                                   indent=1) + "\n")
    total = sum(rules.values())
    for name, count in rules.most_common():
        print(f"{name}: {count} of {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
