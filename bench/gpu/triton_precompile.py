#!/usr/bin/env python3
"""Compiles the Triton modules of bundles in parallel, filling Triton's
on-disk cache, so that the measurements that follow (mirage.tuning, one
function after another) do not wait for a compile each.

    triton_precompile.py BUNDLE... [--jobs N] [--limit S] [--slow FILE]
                                   [--device D]

Each BUNDLE/triton.py runs every function of its FUNCTIONS table once on
zero inputs of its specs, in processes of its own, each taking every k-th
of at most 8 functions (at most N processes at once, default: the CPU
count). A function that fails here fails again where it is
measured, which reports it; this script only prints it. A function whose
compile takes longer than S seconds (default 60) is given up: its process
is stopped, the module's other functions go on in a new one, and the
function is listed in FILE as `BUNDLE-NAME FUNCTION`, one per line, which
`python3 -m mirage.tuning --skip-triton FILE` then leaves out (one
attention module's compile outlasted a whole benchmark call). Functions
that took more than 10 s are printed with their time.
"""

import argparse
import concurrent.futures
import os
import pathlib
import queue
import subprocess
import sys
import threading
import time


#: Functions per compiling process, about.
FUNCTIONS_PER_PROCESS = 8


#: What a FUNCTIONS line of a function sharing an earlier one's Triton form
#: says (mirage-translate --mirage-to-triton).
SHARED_FORM = "# the Triton form of @"


def count_functions(path):
    """The functions of the module at `path`, counted in its text (its
    FUNCTIONS table has one `"name": (...)` line each)."""
    table = path.read_text().partition("\nFUNCTIONS = {\n")[2]
    return sum(line.startswith('    "') and SHARED_FORM not in line
               for line in table.splitlines())


def compile_module(path, part, parts, skip, device="cuda"):
    """Runs function `part`, `part + parts`, ... of the module at `path`
    but those of `skip` once on `device`, announcing each on stdout before
    and after."""
    import torch
    from mirage import tuning
    module = tuning.load_triton_module(path)
    # A form listed under several names compiles once, under its first.
    forms = {}
    for name, entry in module.FUNCTIONS.items():
        forms.setdefault(entry[0], (name, entry))
    for index, (name, (function, inputs, _)) in enumerate(forms.values()):
        if index % parts != part or name in skip:
            continue
        print(f"begin {name}", flush=True)
        tensors = [torch.zeros(shape, dtype=dtype, device=device)
                   for shape, dtype in inputs]
        try:
            function(*tensors)
            if device.startswith("cuda"):
                torch.cuda.synchronize()
            print(f"end {name}", flush=True)
        except Exception as error:  # reported where it is measured
            print(f"end {name} {type(error).__name__}", flush=True)


def _read_lines(stream, lines):
    for line in stream:
        lines.put(line.rstrip("\n"))
    lines.put(None)


def run_part(path, part, parts, limit, device):
    """Compiles part `part` of `parts` of the module at `path` in child
    processes, stopping one whose function takes longer than `limit`
    seconds; returns the lines to print and the functions given up."""
    slow, report, done = [], [], []
    while True:
        # A new process goes on after the functions done or given up.
        child = subprocess.Popen(
            [sys.executable, __file__, "--one", str(path),
             "--part", f"{part}/{parts}", "--skip", ",".join(done + slow),
             "--device", device],
            stdout=subprocess.PIPE, text=True)
        lines = queue.Queue()
        threading.Thread(target=_read_lines, args=(child.stdout, lines),
                         daemon=True).start()
        current, stopped = None, False
        while True:
            try:
                line = lines.get(timeout=limit)
            except queue.Empty:
                # Only a function under way is waited on for `limit`.
                if current is None:
                    continue
                child.kill()
                child.wait()
                slow.append(current)
                report.append(f"{path}: {current}: no compile in {limit} s")
                stopped = True
                break
            if line is None:
                break
            words = line.split()
            if words[:1] == ["begin"]:
                current, began = words[1], time.monotonic()
            elif words[:1] == ["end"]:
                current, seconds = None, time.monotonic() - began
                done.append(words[1])
                if len(words) > 2:
                    report.append(f"{path}: {words[1]}: {words[2]}")
                elif seconds > 10:
                    report.append(f"{path}: {words[1]}: {seconds:.0f} s")
        if not stopped:
            if child.wait() != 0:
                report.append(f"{path}: part {part} of {parts}: exit "
                              f"{child.returncode}")
            return report, slow


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundles", type=pathlib.Path, nargs="*")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--slow", type=pathlib.Path)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--one", type=pathlib.Path, help=argparse.SUPPRESS)
    parser.add_argument("--part", default="0/1", help=argparse.SUPPRESS)
    parser.add_argument("--skip", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one is not None:
        part, parts = map(int, args.part.split("/"))
        compile_module(args.one, part, parts,
                       set(filter(None, args.skip.split(","))), args.device)
        return 0
    modules = [b / "triton.py" for b in args.bundles
               if (b / "triton.py").is_file()]
    start = time.monotonic()
    given_up = []
    with concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, args.jobs)) as pool:
        parts = {}
        for path in modules:
            count = max(1, -(-count_functions(path) //
                             FUNCTIONS_PER_PROCESS))
            parts[path] = [
                pool.submit(run_part, path, part, count, args.limit,
                            args.device) for part in range(count)]
        owner = {future: path for path, futures in parts.items()
                 for future in futures}
        # Reported by module, as each one's last part finishes.
        for finished in concurrent.futures.as_completed(owner):
            path = owner[finished]
            if path not in parts or \
                    not all(future.done() for future in parts[path]):
                continue
            report, slow = [], []
            for future in parts.pop(path):
                lines, names = future.result()
                report += lines
                slow += names
            print(f"compiled {path.parent.name} "
                  f"({time.monotonic() - start:.0f} s)", *report, sep="\n",
                  flush=True)
            given_up += [f"{path.parent.name} {name}" for name in slow]
    if args.slow is not None:
        args.slow.write_text("".join(f"{line}\n" for line in given_up))
    return 0


if __name__ == "__main__":
    sys.exit(main())
