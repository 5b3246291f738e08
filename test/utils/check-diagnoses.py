#!/usr/bin/env python3
"""Checks that a tool diagnoses every broken input of a corpus instead of
crashing.

Usage: check-diagnoses.py [--suffix .mlir] [--place WORD]... DIR -- TOOL ARG...

Runs `TOOL ARG...` on every `*SUFFIX` file of DIR (sorted, not recursive),
with `{}` in the arguments replaced by the file (appended when absent), and
requires, for each one:
  - the process exits on its own within the timeout with exit code exactly 1
    (a signal, a timeout, exit 0 or any other code is a failure);
  - stderr contains "error:";
  - with --place, stderr names the problem's place: the file name or one of
    the given words;
  - stderr contains none of the crash markers below.
Prints one line per failing file with the reason, then a summary line
`checked N inputs: D diagnosed, C crashed`, where C counts every input that
was not properly diagnosed (crashed, hung, accepted, or reported badly), and
exits 1 if any input failed. Standard library only.
"""

import argparse
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


def check(command, path, places):
    """Returns None when `path` is diagnosed properly, else the reason."""
    args = [arg.replace("{}", path) for arg in command]
    if not any("{}" in arg for arg in command):
        args.append(path)
    try:
        proc = subprocess.run(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return "timed out after %d s" % TIMEOUT_S
    except OSError as e:
        return "could not run %s: %s" % (args[0], e)
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
    if places and not any(s in stderr for s in [os.path.basename(path)] + places):
        return "diagnostic names neither the file nor any of %s: %s" % (
            places, excerpt(stderr))
    return None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suffix", default=".mlir")
    parser.add_argument("--place", action="append", default=[],
                        help="a word that locates the problem (repeatable)")
    parser.add_argument("directory")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv[1:])
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or not os.path.isdir(args.directory):
        parser.print_usage(sys.stderr)
        return 2
    inputs = sorted(f for f in os.listdir(args.directory)
                    if f.endswith(args.suffix))
    if not inputs:
        sys.stderr.write("error: no *%s files in %s\n" % (args.suffix, args.directory))
        return 2
    failed = 0
    for name in inputs:
        reason = check(command, os.path.join(args.directory, name), args.place)
        if reason is not None:
            failed += 1
            print("FAIL %s: %s" % (name, reason))
    print("checked %d inputs: %d diagnosed, %d crashed"
          % (len(inputs), len(inputs) - failed, failed))
    sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
