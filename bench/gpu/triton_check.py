#!/usr/bin/env python3
"""Checks generated Triton modules on a GPU against their torch references.

    triton_check.py MODULES_DIR [--out FILE] [--seed N] [--device N]
                    [--only SUBSTRING] [--time-budget S] [--winners DB]

MODULES_DIR is what bench/make-triton-modules.py wrote: Triton modules
(`mirage-translate --mirage-to-triton`) and manifest.json, which names for
each module the host functions to check and the host function of the
reference program (kernel ops only, so plain torch). For every such
function it

1. runs the function and the reference on the same seeded inputs,
   normal(0, 1) * INPUT_SCALE rounded to the input dtypes, with torch.empty
   filling new tensors with NaN so that elements no kernel writes fail;
2. requires, per output, max|out - ref| / max|ref| <= BOUNDS[dtype] for the
   least precise dtype of the function's inputs and outputs;
3. times both: the median of TIMED_RUNS CUDA-event-timed calls after
   WARMUP_RUNS (the first of which compiles the kernels), which includes
   Python's launch overhead, and the mean GPU time of a call replayed from
   a CUDA graph, which does not (`*_graph_us`, None when capture fails).

With --winners DB (a tuning database of mirage-tune), only the functions
the database records as winners are checked (of modules made with
make-triton-modules.py --searched from the bundles' source.mlir: the tuned
choice under Triton). A failure (an exception included) is recorded and the
others go on. With
--time-budget, modules not started within S seconds are listed in the
report's `skipped` instead of being checked. Writes
FILE (default: $OUT/triton-check.json, else ./triton-check.json), prints
`Triton check: N passed, M failed`, and exits 1 if anything failed.
"""

import argparse
import contextlib
import importlib.util
import json
import os
import pathlib
import statistics
import sys
import time
import traceback

import torch
import triton

#: Pass bound on max|out - ref| / max|ref| by the least precise dtype. The
#: kernels compute in float32 and round only what they store; the torch
#: reference rounds every intermediate to its dtype, so for f16 and bf16 the
#: two differ by a few units of roundoff of the intermediates (as in
#: bench/gpu/check.py).
BOUNDS = {torch.float32: 1e-3, torch.float16: 2e-2, torch.bfloat16: 2e-2}
#: Inputs are normal(0, 1) * INPUT_SCALE (bench/gpu/check.py says why 0.1).
INPUT_SCALE = 0.1
WARMUP_RUNS = 3
TIMED_RUNS = 20


def load_module(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def nan_filled_empty():
    """torch.empty returns NaN-filled tensors inside the block."""
    empty = torch.empty

    def filled(*args, **kwargs):
        return empty(*args, **kwargs).fill_(float("nan"))

    torch.empty = filled
    try:
        yield
    finally:
        torch.empty = empty


def make_inputs(specs, seed, device):
    generator = torch.Generator(device="cpu").manual_seed(seed)
    return [(torch.randn(shape, generator=generator) * INPUT_SCALE)
            .to(dtype).to(device) for shape, dtype in specs]


def relative_error(out, ref):
    out, ref = out.float(), ref.float()
    if not torch.isfinite(out).all():
        return float("inf")
    scale = ref.abs().max().item() or 1e-30
    return (out - ref).abs().max().item() / scale


def median_us(function, inputs):
    for _ in range(WARMUP_RUNS):
        function(*inputs)
    times = []
    for _ in range(TIMED_RUNS):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        function(*inputs)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(times)


def graph_us(function, inputs):
    """The GPU time of one call, replayed from a CUDA graph (no Python or
    launch overhead), or None when the call cannot be captured."""
    try:
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(WARMUP_RUNS):
                function(*inputs)
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            function(*inputs)
    except RuntimeError:
        return None
    graph.replay()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(TIMED_RUNS):
        graph.replay()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / TIMED_RUNS


def check_function(module, name, reference, seed, device):
    function, specs, outputs = module.FUNCTIONS[name]
    ref_function, ref_specs, ref_outputs = module.FUNCTIONS[reference]
    if specs != ref_specs or outputs != ref_outputs:
        raise ValueError(f"@{name} and @{reference} have different "
                         "signatures")
    inputs = make_inputs(specs, seed, device)
    with nan_filled_empty():
        got = function(*inputs)
        expected = ref_function(*inputs)
    torch.cuda.synchronize()
    dtypes = [dtype for _, dtype in specs + outputs]
    bound = max(BOUNDS[dtype] for dtype in dtypes)
    errors = [relative_error(o, r) for o, r in zip(got, expected)]
    return {"passed": all(e <= bound for e in errors), "errors": errors,
            "bound": bound, "triton_us": median_us(function, inputs),
            "reference_us": median_us(ref_function, inputs),
            "triton_graph_us": graph_us(function, inputs),
            "reference_graph_us": graph_us(ref_function, inputs)}


def us(time):
    return "n/a" if time is None else f"{time:.1f} us"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--only", default="",
                        help="check only modules whose name contains this")
    parser.add_argument("--winners", type=pathlib.Path,
                        help="check only the winners this tuning database "
                        "records")
    parser.add_argument("--time-budget", type=float, default=0.0,
                        help="start no module after this many seconds "
                        "(0: no limit)")
    args = parser.parse_args()
    out = args.out or pathlib.Path(os.environ.get("OUT", ".")) / \
        "triton-check.json"
    device = torch.device("cuda", args.device)
    torch.cuda.set_device(device)
    manifest = json.loads((args.modules / "manifest.json").read_text())

    winners = None
    if args.winners:
        winners = {entry["winner"]["function"] for entry in
                   json.loads(args.winners.read_text())["entries"]}
    results, skipped = [], []
    started = time.monotonic()
    for entry in manifest["modules"]:
        if args.only not in entry["module"]:
            continue
        if args.time_budget and time.monotonic() - started > args.time_budget:
            skipped.append(entry["module"])
            continue
        try:
            module = load_module(args.modules / entry["module"])
        except Exception:
            results.append({"module": entry["module"], "passed": False,
                            "exception": traceback.format_exc()})
            continue
        for name in entry["functions"]:
            if winners is not None and name not in winners:
                continue
            record = {"module": entry["module"], "function": name,
                      "reference": entry["reference"]}
            try:
                record.update(check_function(module, name,
                                             entry["reference"], args.seed,
                                             device))
            except Exception:
                record.update(passed=False, exception=traceback.format_exc())
            results.append(record)
            status = "ok" if record["passed"] else "FAIL"
            detail = (f"errors {record['errors']}, triton "
                      f"{record['triton_us']:.1f} us "
                      f"(graph {us(record['triton_graph_us'])}), reference "
                      f"{record['reference_us']:.1f} us "
                      f"(graph {us(record['reference_graph_us'])})"
                      if "errors" in record else
                      record["exception"].strip().splitlines()[-1])
            print(f"{entry['module']} {name}: {status} ({detail})",
                  flush=True)

    passed = sum(r["passed"] for r in results)
    report = {"device": torch.cuda.get_device_name(device),
              "torch": torch.__version__, "triton": triton.__version__,
              "refused": manifest.get("refused", []), "skipped": skipped,
              "results": results}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"Triton check: {passed} passed, {len(results) - passed} failed"
          f"{f', {len(skipped)} modules skipped' if skipped else ''} "
          f"({out})")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
