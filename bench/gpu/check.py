#!/usr/bin/env python3
"""Checks compiled bundles on a GPU against their reference programs.

    check.py BUNDLES_ROOT [--out DIR] [--library PATH] [--cli PATH]
             [--scale S] [--seed N] [--device N]

BUNDLES_ROOT is a bundle (a directory with plan.json) or a directory of
bundles (its subdirectories with a plan.json).

For every chip of the bundle whose PTX runs on the device (on an H100 both
sm_90a and sm_80, whose PTX JIT-compiles forward) and every function with
a `reference` program it:

1. runs the function (through mirage.runtime) on seeded random inputs,
   normal(0, 1) * INPUT_SCALE rounded to the input dtype, into outputs
   pre-filled with NaN, so elements the kernels never write fail the check;
2. interprets the reference in float32 and in float64 from the same inputs,
   and reports per output max|out - ref| / max|ref| against the float32 one,
   which must not exceed BOUNDS[dtype] for the least precise dtype among the
   program's values (also shown: the error against float64, and the error a
   float32 execution rounding every value to its dtype would have, as a
   yardstick);
3. runs it again into zero-filled outputs and requires bit-identical results;
4. captures a call into a CUDA graph, replays it, requires identical results;
5. requires bad calls to raise: Python-side (wrong count, shape, dtype,
   non-contiguous, CPU tensor) and library-side through
   BundleFunction.launch, which skips the Python checks (wrong shape, CPU
   pointer, wrong count, an output overlapping an input);
6. runs the mirage-run CLI on it when --cli is given;
7. times it: the median of TIMED_RUNS CUDA-event-timed calls after
   WARMUP_RUNS.

A failure in one case is recorded and the others go on. Writes
DIR/gpu-check.json and DIR/gpu-check.md (DIR: --out, else $OUT, else
./gpu-check-out), prints `GPU check: N passed, M failed`, and exits 1 if
anything failed.
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

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(HERE))

import reference  # noqa: E402
from mirage import runtime  # noqa: E402

#: Pass bound on max|out - ref| / max|ref| against the float32 reference, by
#: the least precise dtype among the program's values. f16 keeps 11
#: significant bits and bf16 8 (unit roundoff 4.9e-4 and 3.9e-3); a handful
#: of rounded intermediates and long reductions stay well inside 2e-2 of the
#: largest output. Pure-f32 programs differ from the reference only in
#: summation order and approximate instructions (ex2.approx, rsqrt.approx),
#: hence 1e-3.
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


class TorchBackend:
    """reference.evaluate's backend protocol on torch tensors."""

    def __init__(self, torch):
        self.torch = torch
        self.dtypes = {"f16": torch.float16, "bf16": torch.bfloat16,
                       "f32": torch.float32, "f64": torch.float64}

    def to(self, x, dtype):
        return x.to(self.dtypes[dtype])

    def exp(self, x):
        return self.torch.exp(x)

    def sqrt(self, x):
        return self.torch.sqrt(x)

    def erf(self, x):
        return self.torch.erf(x)

    def sigmoid(self, x):
        return self.torch.sigmoid(x)

    def relu(self, x):
        return self.torch.relu(x)

    def concat(self, xs, dim):
        return self.torch.cat(xs, dim)


def bound_for(program):
    """The pass bound of a program: that of its least precise dtype."""
    return max(BOUNDS[dtype] for dtype in program.dtypes)


def relative_error(output, expected):
    """max|output - expected| / max|expected| (the absolute error when the
    expected tensor is all zeros); inf when output has non-finite values."""
    output, expected = output.double(), expected.double()
    if not bool(output.isfinite().all()):
        return math.inf
    scale = float(expected.abs().max()) if expected.numel() else 0.0
    error = float((output - expected).abs().max()) if output.numel() else 0.0
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


def check_function(bundle, spec, options, record):
    """Runs every check of one function, filling `record`."""
    import torch
    device = torch.device("cuda", options.device)
    program = reference.Program.from_json(spec.reference)
    program.check_signature(spec.inputs, spec.outputs)
    record["bound"] = bound = bound_for(program)
    record["chip"] = bundle.chip(options.device)
    function = bundle(spec.name)
    case = f"{record['bundle']}/{spec.name}"
    seed = options.seed + zlib.crc32(case.encode())
    inputs = make_inputs(spec, seed, options.scale, device)
    checks = record["checks"]

    outputs = function(*inputs, out=empty_outputs(spec, device, math.nan))
    outputs = [outputs] if len(spec.outputs) == 1 else list(outputs)
    torch.cuda.synchronize(device)
    backend = TorchBackend(torch)
    f32 = reference.evaluate(program, inputs, backend, "f32")
    f64 = reference.evaluate(program, inputs, backend, "f64")
    emulated = reference.evaluate(program, inputs, backend, "emulate")
    for index, (out, ref32, ref64, emu) in enumerate(
            zip(outputs, f32, f64, emulated)):
        if not bool(ref64.isfinite().all()):
            raise ValueError(f"output {index}: the float64 reference is not "
                             "finite (inputs scaled too large?)")
        record["outputs"].append({
            "index": index,
            "dtype": spec.outputs[index].dtype,
            "max_rel_err": relative_error(out, ref32),
            "max_rel_err_f64": relative_error(out, ref64),
            "emulated_rel_err_f64": relative_error(emu, ref64),
        })
    record["max_rel_err"] = [o["max_rel_err"] for o in record["outputs"]]
    checks["accuracy"] = all(e <= bound for e in record["max_rel_err"]) or \
        "max_rel_err above the bound"

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
    if options.cli:
        subchecks.append(("cli", lambda: run_cli(
            options.cli, bundle.directory, spec.name, options.device,
            record["chip"])))
    for name, check in subchecks:
        try:
            checks[name] = check()
        except Exception as error:  # noqa: BLE001 - recorded per check
            checks[name] = f"{type(error).__name__}: {error}"
    record["time_ms"] = time_function(function, inputs,
                                      empty_outputs(spec, device, 0.0))


def new_record(bundle_name, function_name, device_name):
    return {"bundle": bundle_name, "function": function_name, "chip": None,
            "device": device_name, "outputs": [], "max_rel_err": [],
            "bound": None, "checks": {}, "time_ms": None, "passed": False,
            "error": None}


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


def runnable_chips(bundle_dir, major):
    """The bundle's chips whose PTX runs on a device of compute capability
    `major`.x, as the runtime decides (chipRunsOn): sm_90a on 9.x only,
    sm_80 on 8.0 and newer. [None] (the runtime's own choice, which then
    reports why nothing runs) when there is none."""
    plan = json.loads((bundle_dir / "plan.json").read_text())
    chips = [chip for chip in sorted(plan.get("ptx", {}))
             if (chip == "sm_90a" and major == 9) or
             (chip == "sm_80" and major >= 8)]
    return chips or [None]


def check_bundle(bundle_dir, options, device_name, major):
    """Records for every function with a reference of one bundle, once per
    chip that runs on the device (on an H100 the sm_80 PTX runs too)."""
    name = bundle_dir.name
    try:
        specs = runtime.read_plan(bundle_dir)
        chips = runnable_chips(bundle_dir, major)
    except Exception as error:  # noqa: BLE001
        record = new_record(name, None, device_name)
        record["error"] = f"{type(error).__name__}: {error}"
        return [record], []
    skipped = [f"{name}/{f}" for f, s in specs.items() if s.reference is None]
    records = []
    for chip in chips:
        bundle, load_error = None, None
        try:
            bundle = runtime.load_bundle(bundle_dir, library=options.library,
                                         device=options.device, chip=chip)
        except Exception as error:  # noqa: BLE001
            load_error = f"{type(error).__name__}: {error}"
        for spec in specs.values():
            if spec.reference is None:
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
                  f"{format_errors(record['max_rel_err'])} (bound "
                  f"{record['bound']}), time "
                  f"{format_milliseconds(record['time_ms'])} ms"
                  + (f"; {record['error']}" if record["error"] else ""),
                  flush=True)
        if bundle is not None:
            bundle.close()
    return records, skipped


def format_errors(errors):
    return ", ".join(f"{e:.2e}" for e in errors) if errors else "-"


def format_milliseconds(time_ms):
    return "-" if time_ms is None else f"{time_ms:.4f}"


def format_check(value):
    return "-" if value is None else ("yes" if value is True else "NO")


def write_markdown(path, records, skipped, device_name):
    lines = [
        "# GPU check",
        "",
        f"Device: {device_name}. Inputs: normal(0, 1) * {INPUT_SCALE}. "
        "Error: max|out - ref| / max|ref| against the float32 reference; "
        "bounds by the least precise dtype of the program: " +
        ", ".join(f"{d} {b:g}" for d, b in BOUNDS.items()) + ".",
        "",
        "| bundle | function | chip | max rel err | bound | deterministic "
        "| graph replay | bad calls | CLI | time (ms) | result |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in records:
        checks = r["checks"]
        lines.append(
            f"| {r['bundle']} | {r['function'] or '-'} | {r['chip'] or '-'} "
            f"| {format_errors(r['max_rel_err'])} | {r['bound'] or '-'} "
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
    if skipped:
        lines += ["", "Functions without a reference (not checked): " +
                  ", ".join(skipped) + "."]
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
    print("GPU check bounds (max rel err vs float32 reference): " +
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
    passed = sum(r["passed"] for r in records)
    failed = len(records) - passed
    if skipped:
        print(f"not checked (no reference): {', '.join(skipped)}")
    print(f"GPU check: {passed} passed, {failed} failed")
    return 1 if failed or not records else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
