#!/usr/bin/python3
"""Search times of the main job's bundles (docs/Benchmarks/Search.md).

    search-times.py DIR...

Reads the search.txt of every pipeline_<case> bundle under each DIR (what
bench/make-pipeline-bundles.py saved of mirage-superoptimize's remarks) and
prints a Markdown table: the outcome, verified candidates, seconds to the
first and the best verified candidate and of the whole search.
"""

import pathlib
import sys

from remarks import parse


def row(path):
    parsed = parse(path.read_text())
    if parsed is None:
        return None
    return {"case": path.parent.name[len("pipeline_"):], **parsed}


def main(dirs):
    print("| case | outcome without a tuning database | verified | first s "
          "| best s | total s |")
    print("|---|---|---|---|---|---|")
    for d in dirs:
        for path in sorted(pathlib.Path(d).glob("pipeline_*/search.txt")):
            r = row(path)
            if r:
                limit = " (time limit)" if r["limit"] else ""
                print(f"| {r['case']} | {r['outcome']} | {r['verified']} | "
                      f"{r['first']} | {r['best']} | {r['total']}{limit} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
