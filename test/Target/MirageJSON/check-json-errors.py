#!/usr/bin/env python3
"""Checks that mirage-translate diagnoses broken µGraph JSON instead of crashing.

Usage: check-json-errors.py MIRAGE_TRANSLATE DIR

Runs `MIRAGE_TRANSLATE --import-mirage-json FILE -o /dev/null` on every
`*.json` file of DIR (sorted, not recursive) and requires, for each one:
  - the process exits on its own within the timeout with exit code exactly 1
    (a signal, a timeout, exit 0 or any other code is a failure);
  - stderr contains "error:";
  - stderr names the problem's place: the file name, "graph" (the importer's
    "graph G, op N (...)" locations) or "malformed JSON";
  - stderr contains none of the crash markers below.
Prints one line per failing file with the reason, then a summary line
`checked N files: D diagnosed, C crashed`, where C counts every file that was
not properly diagnosed (crashed, hung, accepted, or reported badly), and
exits 1 if any file failed. Standard library only.
"""

import os
import signal
import subprocess
import sys

TIMEOUT_S = 20

CRASH_MARKERS = (
    "PLEASE submit",
    "Stack dump",
    "Assertion",
    "LLVM ERROR",
    "UNREACHABLE",
    "AddressSanitizer",
    "runtime error:",
)


def excerpt(text, limit=300):
    text = " | ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return text if len(text) <= limit else text[:limit] + "..."


def describe_signal(returncode):
    signum = -returncode
    try:
        return "killed by signal %d (%s)" % (signum, signal.Signals(signum).name)
    except ValueError:
        return "killed by signal %d" % signum


def check(tool, path):
    """Returns None when `path` is diagnosed properly, else the reason."""
    try:
        proc = subprocess.run(
            [tool, "--import-mirage-json", path, "-o", os.devnull],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return "timed out after %d s" % TIMEOUT_S
    except OSError as e:
        return "could not run %s: %s" % (tool, e)
    stderr = proc.stderr.decode("utf-8", errors="replace")
    markers = [m for m in CRASH_MARKERS if m in stderr]
    if proc.returncode < 0:
        return "%s; stderr: %s" % (describe_signal(proc.returncode), excerpt(stderr))
    if markers:
        return "crash marker(s) %s in stderr (exit %d): %s" % (
            ", ".join(repr(m) for m in markers), proc.returncode, excerpt(stderr))
    if proc.returncode == 0:
        return "accepted (exit 0); stderr: %s" % (excerpt(stderr) or "<empty>")
    if proc.returncode != 1:
        return "exit code %d, expected 1; stderr: %s" % (proc.returncode, excerpt(stderr))
    if "error:" not in stderr:
        return "exit code 1 but no 'error:' in stderr: %s" % (excerpt(stderr) or "<empty>")
    name = os.path.basename(path)
    if not any(s in stderr for s in (name, "graph", "malformed JSON")):
        return ("diagnostic names neither the file, a graph nor 'malformed JSON': %s"
                % excerpt(stderr))
    return None


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: %s MIRAGE_TRANSLATE DIR\n" % os.path.basename(argv[0]))
        return 2
    tool, directory = argv[1], argv[2]
    if not os.path.isdir(directory):
        sys.stderr.write("error: %s is not a directory\n" % directory)
        return 2
    inputs = sorted(f for f in os.listdir(directory) if f.endswith(".json"))
    if not inputs:
        sys.stderr.write("error: no *.json files in %s\n" % directory)
        return 2
    failed = 0
    for name in inputs:
        reason = check(tool, os.path.join(directory, name))
        if reason is not None:
            failed += 1
            print("FAIL %s: %s" % (name, reason))
    print("checked %d files: %d diagnosed, %d crashed"
          % (len(inputs), len(inputs) - failed, failed))
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
