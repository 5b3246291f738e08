#!/usr/bin/env python3
"""Checks compiled bundles on a GPU against the programs they compile.

    check.py BUNDLES_ROOT [--out DIR] [--library PATH] [--cli PATH]
             [--scale S] [--seed N] [--device N]

BUNDLES_ROOT is a bundle (a directory with plan.json) or a directory of
bundles (its subdirectories with a plan.json).

For every chip of the bundle whose PTX runs on the device (on an H100 both
sm_90a and sm_80, whose PTX JIT-compiles forward) and every function with a
`program` or a `reference` (mirage.interpreter interprets both) it:

1. runs the function (through mirage.runtime) on seeded random inputs,
   normal(0, 1) * INPUT_SCALE rounded to the input dtype, into outputs
   pre-filled with NaN, so elements the kernels never write fail the check;
2. the codegen check, which decides: evaluates the function's `program`
   (graph_defs included) from the same inputs in "emulate" mode (float32
   arithmetic, every value rounded to its dtype, as the kernels do) and
   requires per output max|out - expected| / max|expected| <= BOUNDS[dtype]
   for the least precise dtype among the program's values (relative_error
   says how NaN and infinities count); also reported: the error against a
   float64 evaluation of the program, and that of the emulation itself
   against float64, as a yardstick;
3. the reference comparison, reported apart: the same error against a
   float32 evaluation of the `reference`, within the reference's bound, is
   "matches reference". A µGraph that does not compute its reference is a
   property of the µGraph, not of the code generator, so it does not fail
   the check. A function without a `program` (older bundles) is checked
   against its reference instead, which then decides;
4. runs it again into zero-filled outputs and requires bit-identical results;
5. captures a call into a CUDA graph, replays it, requires identical results;
6. requires bad calls to raise: Python-side (wrong count, shape, dtype,
   non-contiguous, CPU tensor) and library-side through
   BundleFunction.launch, which skips the Python checks (wrong shape, CPU
   pointer, wrong count, an output overlapping an input);
7. runs the mirage-run CLI on it when --cli is given;
8. times it: the median of TIMED_RUNS CUDA-event-timed calls after
   WARMUP_RUNS.

A failure in one case is recorded and the others go on. Writes
DIR/gpu-check.json and DIR/gpu-check.md (DIR: --out, else $OUT, else
./gpu-check-out), prints `GPU check: N passed, M failed (K differ from their
reference)`, and exits 1 if anything failed.
"""

import argparse
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import traceback
import zlib

from mirage import interpreter, runtime
from mirage.backends import TorchBackend
from mirage.plan import read_plan

#: Pass bound on max|out - expected| / max|expected|, by the least precise
#: dtype among the values of the program compared with (nested bodies
#: included). f16 keeps 11 significant bits and bf16 8 (unit roundoff 4.9e-4
#: and 3.9e-3); against the emulated program only summation order and
#: approximate instructions differ, which can flip a rounding of an
#: intermediate; against the float32 reference a handful of rounded
#: intermediates and long reductions also count. Both stay well inside 2e-2
#: of the largest output. Pure-f32 programs differ only in summation order
#: and approximate instructions (ex2.approx, rsqrt.approx), hence 1e-3.
BOUNDS = {"f32": 1e-3, "f16": 2e-2, "bf16": 2e-2}
#: Random inputs are normal(0, 1) * INPUT_SCALE. At 0.1 an attention score
#: q.k over 64 (or 128) channels has a standard deviation of about 0.08
#: (0.11), so exp() stays far below the f16 maximum of 65504, and products
#: over 4096 channels stay near 1.
INPUT_SCALE = 0.1
SEED = 0
WARMUP_RUNS = 3
TIMED_RUNS = 20
CLI_TIMEOUT_S = 300


def bound_for(program):
    """The pass bound of a program: that of its least precise dtype."""
    return max(BOUNDS[dtype] for dtype in program.dtypes)


def relative_error(output, expected, backend):
    """max|output - expected| / max|expected| over the positions where both
    are finite (the absolute error when those expected values are all zero).
    A position where both are NaN, or both the same infinity, counts as
    equal; any other position where either is not finite makes the error
    inf. Works on torch tensors and numpy arrays alike (`backend.to`)."""
    output, expected = backend.to(output, "f64"), backend.to(expected, "f64")
    output_nan, expected_nan = output != output, expected != expected
    output_inf = abs(output) == math.inf
    expected_inf = abs(expected) == math.inf
    finite = ~(output_nan | output_inf | expected_nan | expected_inf)
    equal = (output_nan & expected_nan) | \
        (output_inf & expected_inf & (output == expected))
    if bool((~finite & ~equal).any()):
        return math.inf
    if not bool(finite.any()):
        return 0.0
    scale = float(abs(expected[finite]).max())
    error = float(abs(output[finite] - expected[finite]).max())
    return error / scale if scale > 0 else error


def bits(tensor):
    """The tensor's bits as integers, for exact comparison (NaN included)."""
    import torch
    return tensor.view({2: torch.int16, 4: torch.int32}[tensor.element_size()])


def same_bits(a, b):
    import torch
    return all(torch.equal(bits(x), bits(y)) for x, y in zip(a, b))


def make_inputs(spec, seed, scale, device):
    import torch
    generator = torch.Generator(device=device).manual_seed(seed)
    backend = TorchBackend(torch)
    return [(torch.randn(t.shape, generator=generator, device=device,
                         dtype=torch.float32) * scale)
            .to(backend.dtypes[t.dtype]) for t in spec.inputs]


def empty_outputs(spec, device, fill):
    import torch
    backend = TorchBackend(torch)
    return [torch.full(t.shape, fill, dtype=backend.dtypes[t.dtype],
                       device=device) for t in spec.outputs]


def expect_raises(kinds, call):
    """True if `call` raises one of `kinds`, else a message."""
    try:
        call()
    except kinds:
        return True
    except Exception as error:  # noqa: BLE001 - reported, not hidden
        return f"raised {type(error).__name__}: {error}"
    return "did not raise"


def bad_calls(function, inputs, outputs, stream, device_index):
    """Calls that must be rejected, as (label, expected exceptions, call)."""
    import torch
    spec = function.spec
    cases = []
    if inputs:
        cases.append(("missing input", TypeError,
                      lambda: function(*inputs[:-1])))
    cases.append(("extra input", TypeError,
                  lambda: function(*inputs, torch.empty_like(outputs[0]))))
    first = inputs[0] if inputs else outputs[0]
    where = "input" if inputs else "output"

    def replaced(tensor):
        """(inputs, outputs) with `first` replaced by `tensor`."""
        if where == "input":
            return [tensor] + inputs[1:], outputs
        return inputs, [tensor] + outputs[1:]

    def python_call(tensor):
        ins, outs = replaced(tensor)
        return lambda: function(*ins, out=outs)

    def library_call(ins, outs):
        return lambda: function.launch(ins, outs, stream, device_index)

    grown = torch.zeros((first.shape[0] + 1,) + tuple(first.shape[1:]),
                        dtype=first.dtype, device=first.device)
    cases.append((f"{where} shape", ValueError, python_call(grown)))
    cases.append((f"{where} dtype", TypeError, python_call(first.double())))
    cases.append((f"{where} on the CPU", ValueError, python_call(first.cpu())))
    wide = [d for d, extent in enumerate(first.shape) if extent > 1]
    if wide:
        d = wide[-1]
        doubled = list(first.shape)
        doubled[d] *= 2
        strided = torch.zeros(doubled, dtype=first.dtype,
                              device=first.device)[
            (slice(None),) * d + (slice(None, None, 2),)]
        cases.append((f"non-contiguous {where}", ValueError,
                      python_call(strided)))
    argument_error = runtime.MirageArgumentError
    cases.append(("library: wrong shape", argument_error,
                  library_call(*replaced(grown))))
    cpu = first.cpu()
    cases.append(("library: CPU pointer", argument_error,
                  library_call(*replaced(cpu))))
    cases.append(("library: wrong count", argument_error,
                  library_call(inputs + [outputs[0]], outputs)))
    aliased = [i for i, t in enumerate(spec.inputs)
               if (t.shape, t.dtype) == (spec.outputs[0].shape,
                                         spec.outputs[0].dtype)]
    if aliased:
        cases.append(("library: output overlaps an input", argument_error,
                      library_call(inputs,
                                   [inputs[aliased[0]]] + outputs[1:])))
    return cases


def time_function(function, inputs, outputs):
    import torch
    for _ in range(WARMUP_RUNS):
        function(*inputs, out=outputs)
    times = []
    for _ in range(TIMED_RUNS):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        function(*inputs, out=outputs)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def run_cli(cli, bundle_dir, name, device_index, chip):
    result = subprocess.run(
        [str(cli), str(bundle_dir), "--function", name, "--iters", "3",
         "--device", str(device_index), "--chip", chip],
        capture_output=True, text=True, timeout=CLI_TIMEOUT_S)
    if result.returncode != 0:
        lines = (result.stdout + result.stderr).strip().splitlines()
        return f"exit {result.returncode}: " + " / ".join(lines[-3:])
    bad = [line for line in result.stdout.splitlines()
           if line.startswith("output ") and "non-finite 0" not in line]
    return not bad or "non-finite outputs: " + " / ".join(bad)


def non_finite(array):
    """Whether `array` (torch or numpy) has a NaN or an infinity."""
    return bool(((array != array) | (abs(array) == math.inf)).any())


def compare_outputs(outputs, inputs, program, ref, backend):
    """Compares the `outputs` of a function run on `inputs` with its
    `program` and its reference `ref` (interpreter.Programs; either may be
    None, not both) evaluated on `backend`. Returns the record fields:

    criterion          "program", or "reference" when there is no program
    bound              the pass bound of the criterion's program
    outputs            per output: max_rel_err (against the criterion: the
                       emulated program, else the float32 reference),
                       max_rel_err_f64 (against its float64 evaluation),
                       emulated_rel_err_f64 (emulation against float64: what
                       low precision alone costs), and with a reference
                       reference_rel_err and reference_rel_err_f64
    max_rel_err        the per-output max_rel_err
    reference_bound    the bound of the reference comparison
    reference_rel_err  the per-output reference_rel_err
    matches_reference  whether every reference_rel_err is within
                       reference_bound (None without a reference)
    reference_error    why the reference could not be evaluated, if so (only
                       with a program; else the error propagates)
    notes              remarks, such as a float64 result that is not finite
    """
    fields = {"criterion": "program" if program is not None else "reference",
              "bound": None, "outputs": [{"index": i}
                                         for i in range(len(outputs))],
              "max_rel_err": [], "reference_bound": None,
              "reference_rel_err": [], "matches_reference": None,
              "reference_error": None, "notes": []}
    entries = fields["outputs"]

    def evaluate(checked, modes):
        return {mode: interpreter.evaluate(checked, inputs, backend, mode)
                for mode in modes}

    def note_non_finite(results, label):
        for index, result in enumerate(results):
            if non_finite(result):
                fields["notes"].append(
                    f"output {index}: the float64 {label} is not finite "
                    "(inputs scaled too large?)")

    if program is not None:
        fields["bound"] = bound_for(program)
        runs = evaluate(program, ("emulate", "f64"))
        for entry, out, emulated, exact in zip(entries, outputs,
                                               runs["emulate"], runs["f64"]):
            entry["max_rel_err"] = relative_error(out, emulated, backend)
            entry["max_rel_err_f64"] = relative_error(out, exact, backend)
            entry["emulated_rel_err_f64"] = relative_error(emulated, exact,
                                                           backend)
        note_non_finite(runs["f64"], "program")
    if ref is not None:
        try:
            bound = bound_for(ref)
            runs = evaluate(ref, ("f32", "f64") +
                            (("emulate",) if program is None else ()))
        except Exception as error:  # noqa: BLE001 - reported, not fatal
            if program is None:
                raise
            fields["matches_reference"] = False
            fields["reference_error"] = f"{type(error).__name__}: {error}"
        else:
            fields["reference_bound"] = bound
            for entry, out, f32, exact in zip(entries, outputs, runs["f32"],
                                              runs["f64"]):
                entry["reference_rel_err"] = relative_error(out, f32, backend)
                entry["reference_rel_err_f64"] = relative_error(out, exact,
                                                                backend)
            fields["reference_rel_err"] = [e["reference_rel_err"]
                                           for e in entries]
            fields["matches_reference"] = all(
                e <= bound for e in fields["reference_rel_err"])
            if program is None:
                fields["bound"] = bound
                for entry, emulated, exact in zip(entries, runs["emulate"],
                                                  runs["f64"]):
                    entry["max_rel_err"] = entry["reference_rel_err"]
                    entry["max_rel_err_f64"] = entry["reference_rel_err_f64"]
                    entry["emulated_rel_err_f64"] = relative_error(
                        emulated, exact, backend)
                note_non_finite(runs["f64"], "reference")
    fields["max_rel_err"] = [e["max_rel_err"] for e in entries]
    return fields


def load_programs(spec):
    """The function's `program` and `reference` as interpreter.Programs (None
    where plan.json has none), each checked against the function's
    signature, and why the reference is unusable, if it is. The reference
    only decides without a program, so only then is its error raised."""
    def load(data, label):
        if data is None:
            return None
        program = interpreter.Program.from_json(data, label,
                                              block_graphs=label == "program")
        program.check_signature(spec.inputs, spec.outputs)
        return program

    program = load(spec.program, "program")
    try:
        return program, load(spec.reference, "reference"), None
    except interpreter.ProgramError as error:
        if program is None:
            raise
        return program, None, str(error)


def check_function(bundle, spec, options, record):
    """Runs every check of one function, filling `record`."""
    import torch
    device = torch.device("cuda", options.device)
    program, ref, reference_error = load_programs(spec)
    record["criterion"] = "program" if program is not None else "reference"
    record["chip"] = bundle.chip(options.device)
    function = bundle(spec.name)
    case = f"{record['bundle']}/{spec.name}"
    seed = options.seed + zlib.crc32(case.encode())
    inputs = make_inputs(spec, seed, options.scale, device)
    checks = record["checks"]

    outputs = function(*inputs, out=empty_outputs(spec, device, math.nan))
    outputs = [outputs] if len(spec.outputs) == 1 else list(outputs)
    torch.cuda.synchronize(device)
    backend = TorchBackend(torch, device)
    record.update(compare_outputs(outputs, inputs, program, ref, backend))
    if reference_error:
        record.update(matches_reference=False,
                      reference_error=reference_error)
    for entry, output in zip(record["outputs"], spec.outputs):
        entry["dtype"] = output.dtype
    checks["accuracy"] = all(
        e <= record["bound"] for e in record["max_rel_err"]) or \
        f"max_rel_err above the bound (against the {record['criterion']})"

    def deterministic():
        again = function(*inputs, out=empty_outputs(spec, device, 0.0))
        again = [again] if len(spec.outputs) == 1 else list(again)
        torch.cuda.synchronize(device)
        return same_bits(outputs, again) or "second run differs"

    def graph_replay():
        static = empty_outputs(spec, device, 0.0)
        function(*inputs, out=static)  # Warm up outside the capture.
        torch.cuda.synchronize(device)
        graph = torch.cuda.CUDAGraph()
        for tensor in static:
            tensor.zero_()
        with torch.cuda.graph(graph):
            function(*inputs, out=static)
        graph.replay()
        torch.cuda.synchronize(device)
        return same_bits(outputs, static) or "replay differs"

    def rejects_bad_calls():
        stream = torch.cuda.current_stream(device).cuda_stream
        failures = []
        for label, kinds, call in bad_calls(function, inputs, outputs, stream,
                                            options.device):
            outcome = expect_raises(kinds, call)
            if outcome is not True:
                failures.append(f"{label}: {outcome}")
        torch.cuda.synchronize(device)
        return not failures or "; ".join(failures)

    subchecks = [("deterministic", deterministic),
                 ("graph_replay", graph_replay),
                 ("rejects_bad_calls", rejects_bad_calls)]
    def cli():
        outcome = run_cli(options.cli, bundle.directory, spec.name,
                          options.device, record["chip"])
        # The CLI's own random inputs may overflow a µGraph that does not
        # compute its reference (the saved QKNorm graphs): a property of the
        # program, not of the code, so only a note there.
        if (isinstance(outcome, str) and outcome.startswith("non-finite")
                and record["matches_reference"] is False):
            record["notes"].append("cli: " + outcome)
            return True
        return outcome

    if options.cli:
        subchecks.append(("cli", cli))
    for name, check in subchecks:
        try:
            checks[name] = check()
        except Exception as error:  # noqa: BLE001 - recorded per check
            checks[name] = f"{type(error).__name__}: {error}"
    record["time_ms"] = time_function(function, inputs,
                                      empty_outputs(spec, device, 0.0))


def new_record(bundle_name, function_name, device_name):
    return {"bundle": bundle_name, "function": function_name, "chip": None,
            "device": device_name, "criterion": None, "outputs": [],
            "max_rel_err": [], "bound": None, "reference_rel_err": [],
            "reference_bound": None, "matches_reference": None,
            "reference_error": None, "notes": [], "checks": {},
            "time_ms": None, "passed": False, "error": None}


def json_safe(value):
    """`value` with non-finite floats as strings, which JSON lacks."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    return value


def find_bundles(root):
    root = pathlib.Path(root)
    if (root / "plan.json").is_file():
        return [root]
    return sorted(p.parent for p in root.glob("*/plan.json"))


def runnable_chips(plan, major):
    """The chips of a bundle's Plan whose PTX runs on a device of compute
    capability `major`.x, as the runtime decides (chipRunsOn): sm_90a on
    9.x only, sm_80 on 8.0 and newer. [None] (the runtime's own choice,
    which then reports why nothing runs) when there is none."""
    chips = [chip for chip in sorted(plan.ptx)
             if (chip == "sm_90a" and major == 9) or
             (chip == "sm_80" and major >= 8)]
    return chips or [None]


def check_bundle(bundle_dir, options, device_name, major):
    """Records for every function with a program or a reference of one
    bundle, once per chip that runs on the device (on an H100 the sm_80 PTX
    runs too), and the names of the functions with neither."""
    name = bundle_dir.name
    try:
        plan = read_plan(bundle_dir)
        specs = plan.functions
        chips = runnable_chips(plan, major)
    except Exception as error:  # noqa: BLE001
        record = new_record(name, None, device_name)
        record["error"] = f"{type(error).__name__}: {error}"
        return [record], []
    skipped = [f"{name}/{f}" for f, s in specs.items() if not checkable(s)]
    records = []
    for chip in chips:
        bundle, load_error = None, None
        try:
            bundle = runtime.load_bundle(bundle_dir, library=options.library,
                                         device=options.device, chip=chip)
        except Exception as error:  # noqa: BLE001
            load_error = f"{type(error).__name__}: {error}"
        for spec in specs.values():
            if not checkable(spec):
                continue
            record = new_record(name, spec.name, device_name)
            record["chip"] = chip
            records.append(record)
            if bundle is None:
                record["error"] = load_error
            else:
                try:
                    check_function(bundle, spec, options, record)
                except Exception as error:  # noqa: BLE001
                    record["error"] = f"{type(error).__name__}: {error}"
                    traceback.print_exc()
            record["passed"] = record["error"] is None and \
                bool(record["checks"]) and \
                all(v is True for v in record["checks"].values())
            print(f"{'passed' if record['passed'] else 'FAILED'}: {name}/"
                  f"{spec.name} ({record['chip']}): max_rel_err "
                  f"{format_errors(record['max_rel_err'])} against the "
                  f"{record['criterion'] or '-'} (bound {record['bound']}), "
                  f"matches reference: {format_reference(record)}, time "
                  f"{format_milliseconds(record['time_ms'])} ms"
                  + (f"; {record['error']}" if record["error"] else ""),
                  flush=True)
        if bundle is not None:
            bundle.close()
    return records, skipped


def checkable(spec):
    """Whether a function has a program or a reference to be checked
    against."""
    return spec.program is not None or spec.reference is not None


def format_errors(errors):
    return ", ".join(f"{e:.2e}" for e in errors) if errors else "-"


def format_milliseconds(time_ms):
    return "-" if time_ms is None else f"{time_ms:.4f}"


def format_check(value):
    return "-" if value is None else ("yes" if value is True else "NO")


def format_reference(record):
    """The "matches reference" cell: yes or no with the errors, or -."""
    if record["matches_reference"] is None:
        return "-"
    answer = "yes" if record["matches_reference"] else "no"
    if record["reference_error"]:
        return f"{answer} ({record['reference_error']})"
    return f"{answer} ({format_errors(record['reference_rel_err'])})"


def differ_from_reference(records):
    """The records whose outputs do not match their reference."""
    return [r for r in records if r["matches_reference"] is False]


def summary(records):
    """The final line of the check."""
    passed = sum(r["passed"] for r in records)
    return (f"GPU check: {passed} passed, {len(records) - passed} failed "
            f"({len(differ_from_reference(records))} differ from their "
            "reference)")


def write_markdown(path, records, skipped, device_name):
    lines = [
        "# GPU check",
        "",
        f"Device: {device_name}. Inputs: normal(0, 1) * {INPUT_SCALE}. "
        "Error: max|out - expected| / max|expected| over the finite "
        "positions (both NaN, or the same infinity, count as equal; any "
        "other non-finite mismatch is an infinite error). \"checked "
        "against\": the function's program, evaluated with every value "
        "rounded to its dtype (emulating the kernels), or the float32 "
        "reference for a function without a program; this decides. Bounds "
        "by the least precise dtype of that program: " +
        ", ".join(f"{d} {b:g}" for d, b in BOUNDS.items()) + ". \"matches "
        "reference\": the error against the float32 reference, within the "
        "reference's bound; a property of the µGraph, reported, not "
        "failed.",
        "",
        "| bundle | function | chip | checked against | max rel err | bound "
        "| matches reference | deterministic | graph replay | bad calls "
        "| CLI | time (ms) | result |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
        "| --- | --- |",
    ]
    for r in records:
        checks = r["checks"]
        lines.append(
            f"| {r['bundle']} | {r['function'] or '-'} | {r['chip'] or '-'} "
            f"| {r['criterion'] or '-'} "
            f"| {format_errors(r['max_rel_err'])} | {r['bound'] or '-'} "
            f"| {format_reference(r)} "
            f"| {format_check(checks.get('deterministic'))} "
            f"| {format_check(checks.get('graph_replay'))} "
            f"| {format_check(checks.get('rejects_bad_calls'))} "
            f"| {format_check(checks.get('cli'))} "
            f"| {format_milliseconds(r['time_ms'])} "
            f"| {'passed' if r['passed'] else 'FAILED'} |")
    failures = [r for r in records if not r["passed"]]
    if failures:
        lines += ["", "## Failures", ""]
        for r in failures:
            reasons = [r["error"]] if r["error"] else []
            reasons += [f"{k}: {v}" for k, v in r["checks"].items()
                        if v is not True]
            text = "; ".join(str(x) for x in reasons).replace("\n", " / ")
            lines.append(f"- {r['bundle']}/{r['function'] or '-'} "
                         f"({r['chip'] or '-'}): {text}")
    differing = differ_from_reference(records)
    if differing:
        lines += ["", "## Differ from their reference", ""]
        lines += [f"- {r['bundle']}/{r['function']} ({r['chip'] or '-'}): "
                  f"{format_reference(r)}, bound {r['reference_bound']}"
                  for r in differing]
    noted = [r for r in records if r["notes"]]
    if noted:
        lines += ["", "## Notes", ""]
        lines += [f"- {r['bundle']}/{r['function']} ({r['chip'] or '-'}): "
                  + "; ".join(r["notes"]) for r in noted]
    if skipped:
        lines += ["", "Functions without a program or a reference (not "
                  "checked): " + ", ".join(skipped) + "."]
    path.write_text("\n".join(lines) + "\n")


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bundles_root")
    parser.add_argument("--out", default=os.environ.get("OUT") or
                        "gpu-check-out")
    parser.add_argument("--library", default=None,
                        help="libmirage_runtime.so (default: see "
                             "mirage.runtime.find_library)")
    parser.add_argument("--cli", default=None, help="mirage-run to test too")
    parser.add_argument("--scale", type=float, default=INPUT_SCALE)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--device", type=int, default=0)
    return parser.parse_args(argv)


def main(argv):
    options = parse_arguments(argv)
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.cuda.set_device(options.device)
    device_name = torch.cuda.get_device_name(options.device)
    major = torch.cuda.get_device_capability(options.device)[0]
    print("GPU check bounds (max rel err against the emulated program): " +
          ", ".join(f"{d} {b:g}" for d, b in BOUNDS.items()) +
          f"; input scale {options.scale}", flush=True)

    bundles = find_bundles(options.bundles_root)
    if not bundles:
        print(f"GPU check: no bundles under {options.bundles_root}")
        return 1
    records, skipped = [], []
    for bundle_dir in bundles:
        bundle_records, bundle_skipped = check_bundle(bundle_dir, options,
                                                      device_name, major)
        records += bundle_records
        skipped += bundle_skipped

    out = pathlib.Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "gpu-check.json").write_text(
        json.dumps(json_safe(records), indent=2) + "\n")
    write_markdown(out / "gpu-check.md", records, skipped, device_name)
    if skipped:
        print("not checked (no program or reference): " + ", ".join(skipped))
    print(summary(records))
    return 1 if not records or not all(r["passed"] for r in records) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
