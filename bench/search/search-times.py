#!/usr/bin/python3
"""Search times of the main job's bundles (docs/Benchmarks/Search.md).

    search-times.py DIR...

Reads the search.txt of every pipeline_<case> bundle under each DIR (what
bench/make-pipeline-bundles.py saved of mirage-superoptimize's remarks) and
prints a Markdown table: the outcome, verified candidates, seconds to the
first and the best verified candidate and of the whole search.
"""

import pathlib
import re
import sys

REMARK = re.compile(
    r"remark: (?P<outcome>[^:]+): .*?(?P<verified>\d+) of (?P<checked>\d+) "
    r"verified in (?P<total>[\d.]+) s(?P<rest>.*)")
FIRST_BEST = re.compile(r"first verified after (?P<first>[\d.]+) s, best "
                        r"after (?P<best>[\d.]+) s")


def row(path):
    text = path.read_text()
    match = REMARK.search(text)
    if not match:
        return None
    times = FIRST_BEST.search(match.group("rest"))
    return {"case": path.parent.name[len("pipeline_"):],
            "outcome": match.group("outcome"),
            "verified": f"{match.group('verified')} of "
                        f"{match.group('checked')}",
            "first": times.group("first") if times else "–",
            "best": times.group("best") if times else "–",
            "total": match.group("total"),
            "limit": "time limit" in match.group("rest")}


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
