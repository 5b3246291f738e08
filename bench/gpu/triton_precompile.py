#!/usr/bin/env python3
"""Compiles the Triton modules of bundles in parallel, filling Triton's
on-disk cache, so that the measurements that follow (mirage.tuning, one
function after another) do not wait for a compile each.

    triton_precompile.py BUNDLE... [--jobs N]

Each BUNDLE/triton.py runs every function of its FUNCTIONS table once on
zero inputs of its specs, in a process of its own (at most N at once,
default: the CPU count). A function that fails here fails again where it is
measured, which reports it; this script only prints it.
"""

import argparse
import concurrent.futures
import os
import pathlib
import sys


def compile_module(path):
    """Runs every function of the module at `path` once; returns the lines
    to print."""
    import torch
    from mirage import tuning
    module = tuning.load_triton_module(path)
    lines = []
    for name, (function, inputs, _) in module.FUNCTIONS.items():
        tensors = [torch.zeros(shape, dtype=dtype, device="cuda")
                   for shape, dtype in inputs]
        try:
            function(*tensors)
        except Exception as error:  # reported where it is measured
            lines.append(f"{path}: {name}: {type(error).__name__}")
    torch.cuda.synchronize()
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundles", type=pathlib.Path, nargs="+")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    modules = [b / "triton.py" for b in args.bundles
               if (b / "triton.py").is_file()]
    context = __import__("multiprocessing").get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
            max_workers=max(1, args.jobs), mp_context=context) as pool:
        for path, lines in zip(modules, pool.map(compile_module, modules)):
            print(f"compiled {path.parent.name}", *lines, sep="\n",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
