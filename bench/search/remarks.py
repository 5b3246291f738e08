"""What mirage-superoptimize's remark says of a search: the outcome, the
verified candidates and the seconds to the first and the best verified
candidate and of the whole function's search (docs/Search.md)."""

import re

REMARK = re.compile(
    r"remark: (?P<outcome>[^:]+): .*?(?P<verified>\d+) of (?P<checked>\d+) "
    r"verified in (?P<total>[\d.]+) s(?P<rest>.*)")
FIRST_BEST = re.compile(r"first verified after (?P<first>[\d.]+) s, best "
                        r"after (?P<best>[\d.]+) s")


def parse(text):
    """The first search remark in `text` as a dict (outcome, verified,
    first, best, total, limit), the times as strings ("–" for none), or
    None when there is none."""
    match = REMARK.search(text)
    if not match:
        return None
    times = FIRST_BEST.search(match.group("rest"))
    return {"outcome": match.group("outcome"),
            "verified": f"{match.group('verified')} of "
                        f"{match.group('checked')}",
            "first": times.group("first") if times else "–",
            "best": times.group("best") if times else "–",
            "total": match.group("total"),
            "limit": "time limit" in match.group("rest")}
