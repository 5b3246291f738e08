#!/usr/bin/env python3
"""Benchmarks Mirage's kernels against PyTorch on a GPU.

    bench.py BUNDLES_ROOT [--out DIR] [--cases A,B,...] [--no-compile]
             [--compile-mode MODE] [--time-budget S] [--library PATH]
             [--commit C] [--seed N] [--scale S] [--device N]
             [--keep BENCH_JSON]

For every case of a suite (--suite: the benchmarks of
docs/Benchmarks/Method.md, cases.CASES, the generality suite of
docs/Benchmarks/Generality.md, generality.GENERALITY, or the bandwidth
suite, bandwidth.BANDWIDTH), in this one process:

1. makes the case's inputs, normal(0, 1) * scale in its dtype (seeded per case),
   and the float32 evaluation (mirage.interpreter) of the benchmark program,
   the `reference` of the case's bundles, from them;
2. Mirage: every function with the case's signature of the bundles under
   BUNDLES_ROOT that implement it (find_candidates, in order of preference:
   searched_<case>, simt_<case> (the same µGraph without tensor cores),
   mugraph_<µGraph> of HAND_WRITTEN, upstream_<file> of
   REFERENCES, bench_<case>, as bench/make-gpu-bundles.py names them),
   each on the device's own PTX: runs it into outputs filled with NaN and,
   when ‖out − ref‖ / ‖ref‖ is within the bound, times it with
   triton.testing.do_bench and do_bench_cudagraph (medians);
3. checks and times the baselines of cases.py the same way, on the same
   inputs: PyTorch eager (its CUDA-graph time is eager under CUDA graphs)
   and, for attention, scaled_dot_product_attention under each backend
   and way of grouping query heads (cases.sdpa_variants);
   for the bandwidth suite, also times the same way a device copy that
   moves the case's unique bytes (copy_times: read and written, half
   each), to which kernel_results compares Mirage's kernel;
4. writes bench.json, bench.md and bench.png (kernel_results.py) to DIR
   (--out, else $OUT, else ./gpu-bench-out).

Then, compilation being slow, it compiles each case's baseline with
torch.compile in each of --compile-modes (default: "default" and
"max-autotune-no-cudagraphs", each timed plain and replayed from a CUDA
graph), checks and times it, and writes the results again after each case,
starting no compilation once --time-budget seconds have passed since the
start (those are reported as skipped). With --keep, an earlier call's
bench.json of the same run (suite, commit and device), the cases it holds
complete (measured, with every compile mode measured, none skipped) are
kept as they are and only the others are measured, each case still wholly
in one process: a suite longer than one call is measured over several.
Last, the case's face-off (face_off):
Mirage's headline kernel, the copy of the bandwidth suite and every correct
baseline near the best (FACE_OFF_MARGIN) are timed again, in turns over
FACE_OFF_ROUNDS rounds, and each keeps its lowest median per mode. The memory
floor divides each case's unique bytes by the copy bandwidth measured at the
start. Prints progress and the table; exits 1 if a case has no correct
Mirage kernel, 2 on bad arguments.
"""

import argparse
import datetime
import json
import math
import os
import pathlib
import subprocess
import sys
import time
import zlib

import cases
import check
import kernel_results
from bandwidth import BANDWIDTH
from cases import CASES
from generality import GENERALITY
from mirage import CHECKOUT, interpreter, runtime, tuning
from mirage.backends import TorchBackend
from mirage.mugraphs import HAND_WRITTEN, REFERENCES
from mirage.plan import FunctionSpec, TensorSpec, read_plan

#: Bundle kinds of make-gpu-bundles.py, in order of preference.
KINDS = ("pipeline", "searched", "simt", "mugraph", "upstream", "bench")
TIME_BUDGET_S = 360
COMPILE_MODES = ("default", "max-autotune-no-cudagraphs")
#: The cases of each suite, by name.
SUITES = {"benchmarks": CASES, "generality": GENERALITY,
          "bandwidth": BANDWIDTH}
ALL_CASES = {**CASES, **GENERALITY, **BANDWIDTH}
COPY_BYTES = 1 << 30
#: Medians per timing mode, of which the lowest counts: on an H100 the same
#: call's do_bench_cudagraph median moved by up to 12% between two timings
#: in a row (clocks under sustained load; bench/results/bd1802f-gpu-
#: experiments.md), more than the differences the suites decide on.
TIMING_REPEATS = 2
#: Rounds of a case's face-off (face_off): after its baselines are compiled,
#: Mirage's headline kernel and its nearest rivals are timed again in turns.
FACE_OFF_ROUNDS = 2
#: Baselines whose figure is at most this factor times the lower of the
#: best baseline's and Mirage's take part in the face-off.
FACE_OFF_MARGIN = 1.10
START = time.monotonic()


def bundle_case(name):
    """The case that the bundle directory `name` of make-gpu-bundles.py
    implements, or None."""
    kind, _, stem = name.partition("_")
    if kind in ("pipeline", "searched", "simt", "bench"):
        case = stem
    elif kind == "mugraph":
        case = HAND_WRITTEN.get(stem)
    elif kind == "upstream":
        case = REFERENCES.get(stem, stem)
    else:
        return None
    return case if case in ALL_CASES else None


def find_candidates(root, case):
    """The bundle directories under `root` that implement `case`, in order
    of preference (KINDS), then by name."""
    found = [bundle for bundle in check.find_bundles(root)
             if bundle_case(bundle.name) == case]
    return sorted(found, key=lambda b: (KINDS.index(b.name.partition("_")[0]),
                                        b.name))


def matching_functions(specs, case):
    """The names of the functions (FunctionSpecs by name) with the
    signature of `case`: its inputs and output, in its dtype."""
    inputs = [TensorSpec(shape, case.dtype) for shape in case.inputs]
    outputs = [TensorSpec(case.output, case.dtype)]
    return [name for name, spec in specs.items()
            if spec.inputs == inputs and spec.outputs == outputs]


def find_commit(option, environ, repo):
    """The commit measured: `option`, else $MIRAGE_COMMIT, else the HEAD of
    the git checkout `repo` (the GPU machine gets a copy without .git),
    else "unknown"."""
    if option:
        return option
    if environ.get("MIRAGE_COMMIT"):
        return environ["MIRAGE_COMMIT"]
    try:
        result = subprocess.run(["git", "-C", str(repo), "rev-parse",
                                 "--short", "HEAD"], capture_output=True,
                                text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return result.stdout.strip()


def relative_error(output, expected):
    """‖output − expected‖ / ‖expected‖ (Frobenius norms, in float64;
    `output` is taken in the shape of `expected`); inf when either is not
    finite."""
    import torch
    output = output.reshape(expected.shape).double()
    expected = expected.double()
    if not bool(torch.isfinite(output).all()):
        return math.inf
    error = float((output - expected).norm() / expected.norm())
    return error if math.isfinite(error) else math.inf


def short(error):
    """One line of at most 300 characters about an exception."""
    text = f"{type(error).__name__}: {error}".strip().splitlines()[0]
    return text[:300]


def time_modes(call, notes=None, repeats=None):
    """Median µs of `call` under triton.testing.do_bench and
    do_bench_cudagraph (on a side stream, which capture needs), each the
    lowest of `repeats` (default TIMING_REPEATS) medians taken one after
    the other; a mode that fails is left out, with why appended to
    `notes`."""
    import torch
    import triton.testing

    def cudagraph(fn, **options):
        with torch.cuda.stream(torch.cuda.Stream()):
            return triton.testing.do_bench_cudagraph(fn, **options)

    times = {}
    for mode, bench in (("do_bench", triton.testing.do_bench),
                        ("cudagraph", cudagraph)):
        try:
            times[mode] = min(1000 * bench(call, return_mode="median")
                              for _ in range(repeats or TIMING_REPEATS))
        except Exception as error:  # noqa: BLE001 - reported per mode
            if notes is not None:
                notes.append(f"{mode}: {short(error)}")
        torch.cuda.synchronize()
    return times


def face_off(contenders, rounds=FACE_OFF_ROUNDS, timer=None):
    """Times `contenders`, a list of (entry, call), again in turns:
    `rounds` rounds that each time every contender once with `timer`
    (default: time_modes with one median per mode), in forward then
    reverse order, so that the drift of the clocks under sustained load
    reaches them all alike. Each entry's time in a mode becomes the lowest
    of all its medians in that mode."""
    timer = timer or (lambda call: time_modes(call, repeats=1))
    for turn in range(rounds):
        for entry, call in (contenders if turn % 2 == 0
                            else contenders[::-1]):
            for mode, us in timer(call).items():
                old = entry["times"].get(mode)
                entry["times"][mode] = us if old is None else min(old, us)


def face_off_contenders(record, calls):
    """The (name, entry, call) of `record`'s face-off: its headline Mirage
    kernel, the copy of the bandwidth suite, and every correct baseline
    whose figure is at most FACE_OFF_MARGIN times the lower of the best
    baseline's and Mirage's; `calls` maps ("candidate", bundle, function), ("baseline",
    name) and ("copy",) to the calls that time them. Without a headline
    (the case failed) there is no face-off."""
    if record["status"] != "ok":
        return []
    headline = ("candidate", record["bundle"], record["function"])
    if headline not in calls:
        return []
    [entry] = [c for c in record["candidates"]
               if c["bundle"] == record["bundle"]
               and c["function"] == record["function"]]
    contenders = [(f"{record['bundle']}/{record['function']}", entry,
                   calls[headline])]
    if "copy_times" in record and ("copy",) in calls:
        contenders.append(("copy", {"times": record["copy_times"]},
                           calls[("copy",)]))
    limit = FACE_OFF_MARGIN * min(record["best_baseline_us"] or math.inf,
                                  record["mirage_us"])
    for name, baseline in record["baselines"].items():
        figure = kernel_results.figure(baseline)
        if (baseline["correct"] and figure and figure[1] <= limit
                and ("baseline", name) in calls):
            contenders.append((name, baseline, calls[("baseline", name)]))
    return contenders


def copy_bandwidth(nbytes=COPY_BYTES):
    """The device's copy bandwidth in bytes/s, counting bytes read and
    written: the median do_bench time of copying `nbytes`."""
    import torch
    import triton.testing
    source = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
    target = torch.empty_like(source)
    ms = triton.testing.do_bench(lambda: target.copy_(source),
                                 return_mode="median")
    return 2 * nbytes / (ms * 1e-3)


def copy_call(nbytes, device):
    """A device copy that moves `nbytes`, counting bytes read and written as
    the memory floor does: nbytes / 2 bytes (uint8) copied from one tensor
    to another on `device`."""
    import torch
    source = torch.empty(nbytes // 2, dtype=torch.uint8, device=device)
    target = torch.empty_like(source)
    return lambda: target.copy_(source)


def copy_times(nbytes, device):
    """time_modes of copy_call(nbytes, device)."""
    return time_modes(copy_call(nbytes, device))


def run_variant(call, expected, bound, poison=None):
    """Runs `call` (which returns the output) once, after `poison` if
    given, compares it with `expected` and, if within `bound`, times it.
    Returns max_rel_err, correct, times and error."""
    import torch
    entry = {"max_rel_err": None, "correct": False, "times": {},
             "error": None}
    try:
        if poison:
            poison()
        output = call()
        torch.cuda.synchronize()
        error = relative_error(output, expected)
        entry.update(max_rel_err=error, correct=error <= bound)
        if not entry["correct"]:
            entry["error"] = f"max_rel_err {error:.2e} above the bound {bound}"
            return entry
        notes = []
        entry["times"] = time_modes(call, notes)
        entry["error"] = "; ".join(notes) or None
    except Exception as error:  # noqa: BLE001 - recorded per variant
        entry["error"] = short(error)
    return entry


def case_reference(case, bundle_dirs):
    """The benchmark program of `case` as an interpreter.Program: the
    `reference` of its bench_ bundle, else of the first candidate that has
    one, checked against the case's signature; None if there is none."""
    for bundle_dir in sorted(bundle_dirs,
                             key=lambda b: not b.name.startswith("bench_")):
        try:
            specs = read_plan(bundle_dir).functions
        except ValueError:
            continue  # reported with the candidates
        for name in matching_functions(specs, case):
            spec = specs[name]
            if spec.reference is not None:
                program = interpreter.Program.from_json(spec.reference)
                program.check_signature(spec.inputs, spec.outputs)
                return program
    return None


def tuned_winners(path, field="function"):
    """The winner's `field` ("function"; "backend": "ptx" or "triton";
    "overlap": whether it runs with programmatic dependent launch) for
    every tuning key of the tuning database at `path` (docs/Runtime.md
    "Tuning"), {} without one."""
    if path is None or not path.exists():
        return {}
    with open(path) as f:
        database = json.load(f)
    # A winner without a backend is PTX's (databases before version 3),
    # one without an overlap overlaps (before version 4, or as measured).
    default = {"backend": "ptx", "overlap": True}
    return {entry["key"]: {**default, **entry["winner"]}[field]
            for entry in database.get("entries", [])}


def pipeline_functions(bundle_dir, names, winners):
    """The functions of the pipeline bundle `bundle_dir` to measure, with
    their source: the tuned winner of its tuning group ("pipeline", the
    main job's result) and the function the cost model chose ("cost_model",
    for comparison); the group's other functions mirage-tune measured."""
    with open(bundle_dir / "plan.json") as f:
        functions = json.load(f)["functions"]
    chosen = {}
    for function in functions:
        name, tuning = function["name"], function.get("tuning")
        if name not in names:
            continue
        if tuning is None:
            chosen[name] = "cost_model"
        elif winners.get(tuning["key"]) == name:
            chosen[name] = "pipeline"
    return chosen


def mirage_candidates(case, bundle_dirs, inputs, expected, bound, options,
                      calls, kept):
    """Checks and times every candidate function of `case`. The calls of
    the pipeline bundles' functions go into `calls` (for the face-off),
    those bundles into `kept`, to be closed by the caller."""
    import torch
    entries = []
    winners = tuned_winners(options.tuning_db)
    backends = tuned_winners(options.tuning_db, "backend")
    overlaps = tuned_winners(options.tuning_db, "overlap")
    for bundle_dir in bundle_dirs:
        base = {"bundle": bundle_dir.name, "function": None, "chip": None}
        try:
            sources, plan = None, read_plan(bundle_dir)
            names = matching_functions(plan.functions, case)
            if bundle_dir.name.startswith("pipeline_"):
                sources = pipeline_functions(bundle_dir, names, winners)
                names = list(sources)
            bundle = runtime.load_bundle(bundle_dir, library=options.library,
                                         device=options.device)
        except Exception as error:  # noqa: BLE001 - recorded per bundle
            entries.append({**base, "max_rel_err": None, "correct": False,
                            "times": {}, "error": short(error)})
            continue
        for name in names:
            function, backend, options_of_call = bundle(name), "ptx", {}
            tuned = plan.functions[name].tuning
            winner = sources and sources[name] == "pipeline"
            if winner and backends.get(tuned["key"]) == "triton":
                # The winner's Triton form, as the Python API runs it.
                function = tuning.TritonFunction(bundle_dir, name)
                backend = "triton"
            elif winner and not overlaps.get(tuned["key"], True):
                # As its bundle runs it: kernel after kernel.
                options_of_call = {"overlap": False}
            outputs = torch.empty(case.output, dtype=inputs[0].dtype,
                                  device=inputs[0].device)

            def call(function=function, outputs=outputs,
                     options_of_call=options_of_call):
                return function(*inputs, out=outputs, **options_of_call)
            entry = {**base, "function": name,
                     "source": sources[name] if sources else "comparison",
                     "backend": backend,
                     "chip": bundle.chip(options.device),
                     **run_variant(call, expected, bound,
                                   poison=lambda: outputs.fill_(math.nan))}
            entries.append(entry)
            progress(case.name, f"{bundle_dir.name}/{name}", entry)
            if sources:
                calls[("candidate", bundle_dir.name, name)] = call
        if sources:
            kept.append(bundle)
        else:
            bundle.close()
    return entries


def progress(case, what, entry):
    times = kernel_results.times_cell(entry["times"])
    print(f"  {case}: {what}: rel. error "
          f"{kernel_results.format_error(entry['max_rel_err'])}, "
          f"{times} µs" + (f" ({entry['error']})" if entry["error"] else ""),
          flush=True)


class CaseState:
    """What the compile phase and the face-off of a checked case need: its
    inputs, the expected output, the error bound, the calls that time its
    variants (face_off_contenders) and the bundles to close at the end."""

    def __init__(self, inputs, expected, bound, calls, bundles):
        self.inputs, self.expected, self.bound = inputs, expected, bound
        self.calls, self.bundles = calls, bundles

    def close(self):
        for bundle in self.bundles:
            bundle.close()
        self.bundles, self.calls = [], {}


def benchmark_case(case, options, meta, bandwidth):
    """The record of one case without torch.compile, and the CaseState the
    compile phase needs, None if unchecked."""
    import torch
    record = kernel_results.new_record(case, meta, bandwidth)
    device = torch.device("cuda", options.device)
    calls = {}
    if case.suite == "bandwidth":
        # What the program's time is held against: a copy of its bytes,
        # timed in this run the same way (kernel_results.summarise).
        calls[("copy",)] = copy_call(record["bytes"], device)
        record["copy_times"] = time_modes(calls[("copy",)])
        print(f"  {case.name}: copy of {record['bytes'] / 1e6:.3g} MB: "
              f"{kernel_results.times_cell(record['copy_times'])} µs",
              flush=True)
    bundle_dirs = find_candidates(options.bundles_root, case.name)
    if not bundle_dirs:
        record["error"] = (
            f"no Mirage kernel: no bundle for {case.name} under "
            f"{options.bundles_root} (searched_{case.name}, mugraph_*, "
            f"upstream_*, bench_{case.name})")
        return kernel_results.summarise(record), None
    program = case_reference(case, bundle_dirs)
    if program is None:
        record["error"] = ("no Mirage kernel checked: no bundle of the case "
                           "has its reference program")
        return kernel_results.summarise(record), None
    spec = FunctionSpec(case.name, [TensorSpec(shape, case.dtype)
                                    for shape in case.inputs], [])
    seed = options.seed + zlib.crc32(case.name.encode())
    inputs = check.make_inputs(spec, seed, options.scale, device)
    [expected] = interpreter.evaluate(program, inputs,
                                      TorchBackend(torch, device), "f32")
    bound = check.bound_for(program)
    record["bound"] = bound
    kept = []
    record["candidates"] = mirage_candidates(case, bundle_dirs, inputs,
                                             expected, bound, options, calls,
                                             kept)
    baselines = {"eager": lambda: case.program(*inputs)}
    if case.attention:
        baselines.update(cases.sdpa_variants(case, inputs))
    for name, call in baselines.items():
        record["baselines"][name] = run_variant(call, expected, bound)
        calls[("baseline", name)] = call
        progress(case.name, name, record["baselines"][name])
    return (kernel_results.summarise(record),
            CaseState(inputs, expected, bound, calls, kept))


def compile_name(mode):
    """The baseline name of torch.compile in `mode`."""
    return "torch.compile" + ("" if mode == "default" else f" {mode}")


def compile_baseline(case, state, mode):
    """torch.compile's entry for `case`: compiled, checked and timed;
    compile_s is the time of the first call, which compiles. The compiled
    call goes into state.calls."""
    import torch
    inputs, expected, bound = state.inputs, state.expected, state.bound
    start = time.monotonic()
    try:
        torch._dynamo.reset()
        compiled = torch.compile(case.program, mode=mode, dynamic=False)
        compiled(*inputs)
        torch.cuda.synchronize()
    except Exception as error:  # noqa: BLE001 - recorded
        return {"max_rel_err": None, "correct": False, "times": {},
                "error": "compilation failed: " + short(error)}
    compile_s = time.monotonic() - start
    call = state.calls[("baseline", compile_name(mode))] = \
        lambda: compiled(*inputs)
    return {**run_variant(call, expected, bound),
            "compile_s": round(compile_s, 1)}


def skipped(why):
    return {"max_rel_err": None, "correct": False, "times": {},
            "error": f"skipped: {why}"}


def is_complete(record, compile_modes):
    """Whether `record` was measured with every baseline: its status is ok
    and every torch.compile mode of `compile_modes` was compiled (timed or
    failed, not skipped)."""
    if record.get("status") != "ok":
        return False
    baselines = record.get("baselines") or {}
    for mode in compile_modes:
        entry = baselines.get(compile_name(mode))
        if entry is None or (entry.get("error") or "").startswith("skipped"):
            return False
    return True


def kept_records(path, options, meta):
    """The records of the bench.json `path` that --keep keeps, by case: the
    complete ones (is_complete) of options.cases. ValueError when the file
    is unreadable or of another suite, commit or device: a run's cases are
    measured at one commit on one kind of device."""
    kept = {}
    for record in kernel_results.load(path):
        for field, wanted in (("suite", options.suite),
                              ("commit", meta["commit"]),
                              ("device", meta["device"])):
            if record.get(field) != wanted:
                raise ValueError(
                    f"{path}: case {record['case']} is of {field} "
                    f"{record.get(field)!r}, this run of {wanted!r}")
        if (record["case"] in options.cases and
                is_complete(record, options.compile_modes)):
            kept[record["case"]] = record
    return kept


def summary_line(record):
    if record["status"] != "ok":
        return f"{record['case']}: FAILED: {record['error']}"
    text = (f"{record['case']}: Mirage {record['bundle']}/"
            f"{record['function']} {record['mirage_us']:.3g} µs "
            f"({record['mirage_mode']}), rel. error "
            f"{record['max_rel_err']:.1e}")
    if record["speedup"]:
        text += (f"; best baseline {record['best_baseline']} "
                 f"{record['best_baseline_us']:.3g} µs: speed-up "
                 f"{record['speedup']:.2f}x")
    text += (f"; floor {record['floor_us']:.3g} µs "
             f"({record['floor_fraction']:.2g} of it)")
    if record.get("copy_fraction"):
        text += (f"; copy {record['copy_us']:.3g} µs "
                 f"({record['copy_fraction']:.2f} of its bandwidth)")
    return text


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="bench.py", description=__doc__.split("\n")[0])
    parser.add_argument("bundles_root", type=pathlib.Path,
                        help="bundles of bench/make-gpu-bundles.py")
    parser.add_argument("--out", type=pathlib.Path,
                        default=os.environ.get("OUT") or "gpu-bench-out")
    parser.add_argument("--suite", choices=SUITES, default="benchmarks")
    parser.add_argument("--cases", default="",
                        help="comma-separated cases (default: the suite's)")
    parser.add_argument("--no-compile", action="store_true",
                        help="skip the torch.compile baselines")
    parser.add_argument("--compile-modes", default=",".join(COMPILE_MODES),
                        help="comma-separated torch.compile modes")
    parser.add_argument("--time-budget", type=float, default=TIME_BUDGET_S,
                        help="seconds after which no torch.compile starts")
    parser.add_argument("--library", default=None,
                        help="libmirage_runtime.so (default: see "
                             "mirage.runtime.find_library)")
    parser.add_argument("--commit", default=None,
                        help="the commit measured (default: $MIRAGE_COMMIT, "
                             "else git)")
    parser.add_argument("--seed", type=int, default=check.SEED)
    parser.add_argument("--scale", type=float, default=check.INPUT_SCALE)
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--tuning-db", type=pathlib.Path, default=None,
                        help="mirage-tune's database for the pipeline_ "
                             "bundles: its winners are the headline")
    parser.add_argument("--keep", type=pathlib.Path, default=None,
                        help="bench.json of an earlier call of this run: "
                             "its complete cases are kept, not measured")
    options = parser.parse_args(argv)
    root = options.bundles_root
    if not root.is_dir():
        parser.error(f"BUNDLES_ROOT {root} is not a directory")
    if not check.find_bundles(root):
        parser.error(f"no bundles under {root} (make them with "
                     f"bench/make-gpu-bundles.py {root})")
    suite = SUITES[options.suite]
    options.cases = [c for c in options.cases.split(",") if c] or list(suite)
    for name in options.cases:
        if name not in suite:
            parser.error(f"unknown case {name!r} of suite {options.suite} "
                         f"(known: {', '.join(suite)})")
    options.compile_modes = [m for m in options.compile_modes.split(",") if m]
    if not options.cases:
        parser.error("--cases names no case")
    try:
        runtime.find_library(options.library)
    except FileNotFoundError as error:
        parser.error(str(error))
    return options, parser


def main(argv):
    options, parser = parse_arguments(argv)
    try:
        import torch
        import triton
        import triton.testing  # noqa: F401
    except ImportError as error:
        parser.error(f"needs torch and triton: {error}")
    if not torch.cuda.is_available():
        parser.error("no CUDA device (torch.cuda.is_available() is false)")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.cuda.set_device(options.device)
    meta = {"device": torch.cuda.get_device_name(options.device),
            "date": datetime.date.today().isoformat(),
            "commit": find_commit(options.commit, os.environ, CHECKOUT),
            "torch": torch.__version__, "triton": triton.__version__}
    bandwidth = copy_bandwidth()
    print(f"{meta['device']}, commit {meta['commit']}, torch "
          f"{meta['torch']}, triton {meta['triton']}; copy bandwidth "
          f"{bandwidth / 1e12:.2f} TB/s; results in {options.out}",
          flush=True)

    kept = {}
    if options.keep:
        try:
            kept = kept_records(options.keep, options, meta)
        except ValueError as error:
            parser.error(f"--keep: {error}")
    records, states = [], {}
    for name in options.cases:
        if name in kept:
            print(f"{name}: kept from {options.keep}", flush=True)
            records.append(kept[name])
            states[name] = None
            continue
        print(f"{name}:", flush=True)
        record, states[name] = benchmark_case(ALL_CASES[name], options,
                                              meta, bandwidth)
        records.append(record)
        kernel_results.save(options.out, records)
        print(summary_line(record), flush=True)

    for record in records:
        name = record["case"]
        if states[name] is None:
            continue
        for mode in options.compile_modes:
            if options.no_compile:
                entry = skipped("--no-compile")
            elif time.monotonic() - START > options.time_budget:
                entry = skipped(f"time budget of {options.time_budget:g} s "
                                "spent")
            else:
                print(f"{name}: torch.compile ({mode})", flush=True)
                entry = compile_baseline(ALL_CASES[name], states[name], mode)
                progress(name, compile_name(mode), entry)
            record["baselines"][compile_name(mode)] = entry
        kernel_results.summarise(record)
        contenders = face_off_contenders(record, states[name].calls)
        if contenders:
            print(f"{name}: face-off of " +
                  ", ".join(n for n, _, _ in contenders), flush=True)
            face_off([(entry, call) for _, entry, call in contenders])
            record["face_off"] = [n for n, _, _ in contenders]
            kernel_results.summarise(record)
            print(summary_line(record), flush=True)
        states[name].close()
        kernel_results.save(options.out, records)

    print("\n".join(kernel_results.table(records)))
    geomean = kernel_results.geomean_speedup(records)
    print("geometric-mean speed-up over the best baseline: " +
          (f"{geomean:.2f}x" if geomean else "none measured"))
    failed = [r["case"] for r in records if r["status"] != "ok"]
    print(f"kernel benchmark: {len(records) - len(failed)} cases measured, "
          f"{len(failed)} failed" + (f" ({', '.join(failed)})" if failed
                                     else "") + f"; results in {options.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
