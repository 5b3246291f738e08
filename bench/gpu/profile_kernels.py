#!/usr/bin/env python3
"""Where a case's time goes, kernel by kernel, on a GPU.

    profile_kernels.py BUNDLES_ROOT CASE:FUNCTION... [--compile]
                       [--compile-modes M,N] [--out DIR] [--runs N]
                       [--library PATH] [--device N]

For every CASE:FUNCTION (a case of bench.py's suites and a function of its
pipeline bundle BUNDLES_ROOT/pipeline_CASE; several functions of one case
are profiled side by side in its table) it runs the function, the case's
eager PyTorch program and, with --compile, its torch.compile in each of
--compile-modes (default: "default"), N times
each back to back under torch.profiler, and reports every kernel those calls
launched with its mean duration per call (CUPTI's kernel records: the
runtime's own kernels, cuBLASLt's and PyTorch's alike). The sum is the busy
time of the GPU per call; the gap to a CUDA-graph median is launch latency.

With --graph it also times each variant as the benchmark does: the median
of CUDA-graph replays of 10 calls, divided by 10 (the "graph" row).

Writes DIR/profile.json and DIR/profile.md (DIR: --out, else $OUT, else
./profile-out) and prints the table. With --plain it only makes the calls,
without torch.profiler, for an outside profiler (ncu, nsys) to watch.
"""

import argparse
import collections
import json
import os
import pathlib
import sys
import zlib

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench import ALL_CASES, compile_name  # noqa: E402
import check  # noqa: E402
from event_timing import graph_us  # noqa: E402
from mirage import runtime  # noqa: E402
from mirage.plan import FunctionSpec, TensorSpec  # noqa: E402


def kernel_times(call, runs, plain=False):
    """{kernel name: mean µs per call} over `runs` calls of `call` ({} when
    `plain`: the calls are made, nothing is measured)."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    for _ in range(3):
        call()
    torch.cuda.synchronize()
    if plain:
        for _ in range(runs):
            call()
        torch.cuda.synchronize()
        return {}
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(runs):
            call()
        torch.cuda.synchronize()
    totals = collections.defaultdict(float)
    for event in prof.events():
        if event.device_type.name == "CUDA" and event.device_time > 0:
            totals[event.name] += event.device_time
    return {name: total / runs for name, total in totals.items()}


def group_targets(targets):
    """{case: [function, ...]} of CASE:FUNCTION targets, cases and each
    case's functions in the order given; ValueError on a target that names
    no case of bench.py's suites or no function."""
    groups = {}
    for target in targets:
        case, _, function = target.partition(":")
        if case not in ALL_CASES or not function:
            raise ValueError(f"{target}: expected CASE:FUNCTION with a case "
                             "of bench.py's suites")
        groups.setdefault(case, []).append(function)
    return groups


def profile_case(root, case_name, functions, options):
    """{variant: {kernel: µs per call}} of `functions` of the case's
    pipeline bundle, its eager program and its torch.compile modes."""
    import torch
    case = ALL_CASES[case_name]
    device = torch.device("cuda", options.device)
    spec = FunctionSpec(case.name, [TensorSpec(shape, case.dtype)
                                    for shape in case.inputs], [])
    seed = 1 + zlib.crc32(case.name.encode())
    inputs = check.make_inputs(spec, seed, 0.1, device)
    bundle = runtime.load_bundle(root / f"pipeline_{case_name}",
                                 library=options.library,
                                 device=options.device)
    calls = {"mirage " + function: lambda kernel=bundle(function): kernel(
        *inputs) for function in functions}
    calls["eager"] = lambda: case.program(*inputs)
    for mode in options.compile_modes if options.compile else ():
        torch._dynamo.reset()
        compiled = torch.compile(case.program, mode=mode, dynamic=False)
        calls[compile_name(mode)] = lambda compiled=compiled: compiled(*inputs)
    results = {name: kernel_times(call, options.runs, options.plain)
               for name, call in calls.items()}
    if options.graph:
        for name, call in calls.items():
            results[name]["graph"] = graph_us(call)
    return results


def markdown(results):
    lines = ["| case | variant | kernel | µs per call |", "|---|---|---|---|"]
    for case, variants in results.items():
        for variant, kernels in variants.items():
            for name, us in sorted(kernels.items(), key=lambda kv: -kv[1]):
                lines.append(f"| {case} | {variant} | `{name[:90]}` | "
                             f"{us:.2f} |")
            busy = sum(us for name, us in kernels.items() if name != "graph")
            lines.append(f"| {case} | {variant} | **sum** | **{busy:.2f}** |")
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=pathlib.Path)
    parser.add_argument("targets", nargs="+", metavar="CASE:FUNCTION")
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--compile-modes", default="default",
                        help="comma-separated torch.compile modes")
    parser.add_argument("--plain", action="store_true")
    parser.add_argument("--graph", action="store_true")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--out", type=pathlib.Path,
                        default=pathlib.Path(os.environ.get(
                            "OUT", "profile-out")))
    parser.add_argument("--library")
    parser.add_argument("--device", type=int, default=0)
    options = parser.parse_args(argv)
    options.compile_modes = [m for m in options.compile_modes.split(",") if m]
    try:
        groups = group_targets(options.targets)
    except ValueError as error:
        parser.error(str(error))
    results = {}
    for case, functions in groups.items():
        try:
            results[case] = profile_case(options.root, case, functions,
                                         options)
        except Exception as error:  # noqa: BLE001 - reported per case
            results[case] = {"error": {str(error)[:200]: 0.0}}
    options.out.mkdir(parents=True, exist_ok=True)
    (options.out / "profile.json").write_text(json.dumps(results, indent=1))
    table = markdown(results)
    (options.out / "profile.md").write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
