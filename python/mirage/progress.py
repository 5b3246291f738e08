"""The search's progress as a bar: `superoptimize(progress=...)`.

The compiler reports each for-loop range the search finishes as a line on
file descriptor 2 (docs/Search.md, "progress"). `bar()` catches those
lines for the duration of a compiler call and shows the latest as one
line, rewritten in place: how much of the time limit is used, the ranges
done, the candidates verified and the best estimate. The time limit bounds
the whole search, so the bar's fill (the share of the limit used) never
runs ahead of the search: it ends full at the latest.
Anything else written to descriptor 2 meanwhile passes through unchanged.
"""

import contextlib
import os
import re
import sys
import threading

__all__ = ["LINE", "render", "bar"]

#: A progress line of mirage-superoptimize.
LINE = re.compile(
    r"mirage-superoptimize: (?P<name>\S+): forloop (?P<forloop>\d+): "
    r"(?P<launches>\d+) launches, (?P<states>\d+) states, (?P<complete>\d+) "
    r"complete, (?P<verified>\d+) of (?P<checked>\d+) verified"
    r"(?:, best (?P<best>[\d.]+) us)?, (?P<seconds>[\d.]+) s"
    r"(?P<stopped> \(time limit\))?")


def render(match, ranges_done, time_limit, width=24):
    """The bar for progress line `match` (LINE's), after `ranges_done`
    for-loop ranges, under a limit of `time_limit` seconds."""
    seconds = float(match["seconds"])
    fraction = min(1.0, seconds / time_limit) if time_limit > 0 else 0.0
    if match["stopped"]:
        fraction = 1.0
    filled = round(fraction * width)
    text = (f"[{'#' * filled}{'.' * (width - filled)}] "
            f"{seconds:.0f}/{time_limit:g} s, {ranges_done} for-loop "
            f"range{'s' if ranges_done != 1 else ''}, {match['verified']} "
            f"verified")
    if match["best"]:
        text += f", best {match['best']} us"
    if match["stopped"]:
        text += " (time limit)"
    return text


def _pump(source, out, time_limit):
    shown, ranges = "", set()
    for line in source:
        match = LINE.match(line)
        if match:
            ranges.add(match["forloop"])
            text = render(match, len(ranges), time_limit)
            out.write("\r" + text + " " * max(0, len(shown) - len(text)))
            shown = text
        else:
            out.write(("\n" if shown else "") + line)
            shown = ""
        out.flush()
    if shown:
        out.write("\n")
        out.flush()


@contextlib.contextmanager
def bar(time_limit, stream=None):
    """Within the block, progress lines written to file descriptor 2 show
    as a bar on `stream` (default: the original descriptor 2)."""
    sys.stderr.flush()
    saved = os.dup(2)
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)
    out = stream or os.fdopen(os.dup(saved), "w")
    source = os.fdopen(read_end, "r", errors="replace")
    thread = threading.Thread(target=_pump, args=(source, out, time_limit),
                              daemon=True)
    thread.start()
    try:
        yield
    finally:
        sys.stderr.flush()
        # The pipe's last write end goes: the pump reads to its end.
        os.dup2(saved, 2)
        os.close(saved)
        thread.join()
        source.close()
        if stream is None:
            out.close()
