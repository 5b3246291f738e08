"""Measured selection across code generators: the Triton form of each
function of a bundle's tuning groups, measured beside the PTX the runtime's
tuner measures, so that the recorded choice is a function and its backend.

The runtime's tuner (`mirage-tune`, `Bundle.tune`) runs PTX through the CUDA
driver; Triton kernels run only from Python. `measure_triton` checks and
times the Triton module of a bundle's functions (mirage-translate
--mirage-to-triton) by the tuner's rule, and `tune` hands those measurements
to the tuner, which weighs them against its own and records the winner
(docs/Runtime.md, "Triton measurements"):

- inputs normal(0, 1) * 0.1 rounded to each dtype (torch's generator,
  seeded), the same for every function of a group, drawn again 16 times
  smaller (up to 3 times) while the program as written's PTX gives
  non-finite outputs;
- the reference is the program as written's PTX; a Triton form is correct
  when no output is non-finite where the reference is finite and every
  output's maximum relative error max|a - b| / max(max|b|, 1e-6), over the
  positions where both are finite, is at most `rtol`;
- a correct form is timed twice from CUDA graphs, the median of `runs`
  CUDA-event-timed replays after `warmup` untimed ones: cold (one call per
  graph, twice the L2 size overwritten before each replay, outside the
  timed region) and warm (10 calls per graph, the time divided by 10); its
  time is the lower.

    python3 -m mirage.tuning BUNDLE [--triton MODULE.py] [--db PATH]

tunes every group of BUNDLE, with the Triton forms of MODULE.py (by default
BUNDLE/triton.py when present), and prints the groups' tables.
"""

import argparse
import importlib.util
import pathlib
import statistics
import sys

from mirage.plan import read_plan

__all__ = ["measure_triton", "tune", "load_triton_module", "read_skipped",
           "TritonFunction"]

#: Calls per replay of the warm timing's graph (the runtime's warmCalls).
WARM_CALLS = 10
#: How many times the inputs shrink, 16x each, while the program as
#: written overflows (the runtime's maxInputShrinks).
MAX_INPUT_SHRINKS = 3


def load_triton_module(path):
    """The Triton module at `path` (mirage-translate --mirage-to-triton), as
    a Python module under a name of its own."""
    path = pathlib.Path(path)
    name = f"mirage_triton_{abs(hash(str(path.resolve()))):x}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not isinstance(getattr(module, "FUNCTIONS", None), dict):
        raise ValueError(f"{path}: not a Triton module of mirage-translate "
                         f"(no FUNCTIONS table)")
    return module


def _groups(plan):
    """{key: [FunctionSpec, ...]}, the program as written first, then the
    candidates by number."""
    groups = {}
    for spec in plan.functions.values():
        if spec.tuning is not None:
            groups.setdefault(spec.tuning["key"], []).append(spec)
    for members in groups.values():
        members.sort(key=lambda spec: spec.tuning["candidate"])
    return groups


def _draw_inputs(spec, scale, generator, device):
    import torch
    from mirage.runtime import torch_dtype
    return [(torch.randn(tuple(t.shape), generator=generator, device=device,
                         dtype=torch.float32) * scale).to(torch_dtype(t.dtype))
            for t in spec.inputs]


def judge(outputs, references, rtol):
    """(status, max_rel_err or None, message) of `outputs` against the
    program as written's `references`, by the tuner's rule."""
    import torch
    worst = 0.0
    for index, (output, reference) in enumerate(zip(outputs, references)):
        a, b = output.float(), reference.float()
        if tuple(a.shape) != tuple(b.shape):
            return ("wrong", None, f"output {index}: shape {tuple(a.shape)} "
                    f"differs from {tuple(b.shape)}")
        finite_a, finite_b = torch.isfinite(a), torch.isfinite(b)
        lost = int((finite_b & ~finite_a).sum())
        if lost:
            return ("wrong", None, f"output {index}: {lost} values are not "
                    f"finite where the program as written computes finite "
                    f"ones")
        both = finite_a & finite_b
        if not bool(both.any()):
            continue
        scale = max(float(b[both].abs().max()), 1e-6)
        error = float((a[both] - b[both]).abs().max()) / scale
        if error > rtol:
            return ("wrong", error, f"output {index}: max relative error "
                    f"{error:.3g} exceeds the tolerance {rtol:g}")
        worst = max(worst, error)
    return ("ok", worst, "")


class _Timer:
    """CUDA-graph timing by the tuner's rule, on a side stream."""

    def __init__(self, device, runs, warmup):
        import torch
        self.torch = torch
        self.runs, self.warmup = runs, warmup
        properties = torch.cuda.get_device_properties(device)
        flush_bytes = max(2 * getattr(properties, "L2_cache_size", 0), 1 << 20)
        self.flush = torch.empty(flush_bytes, dtype=torch.uint8, device=device)
        self.stream = torch.cuda.Stream(device)

    def _median(self, call, calls, flush):
        torch = self.torch
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.stream(self.stream):
            with torch.cuda.graph(graph, stream=self.stream):
                for _ in range(calls):
                    call()
            times = []
            for run in range(self.warmup + self.runs):
                if flush:
                    self.flush.zero_()
                start = torch.cuda.Event(enable_timing=True)
                stop = torch.cuda.Event(enable_timing=True)
                start.record(self.stream)
                graph.replay()
                stop.record(self.stream)
                stop.synchronize()
                if run >= self.warmup:
                    times.append(start.elapsed_time(stop) * 1000.0 / calls)
        del graph
        return statistics.median(times)

    def time(self, call):
        """(cold_us, warm_us) of `call`."""
        return (self._median(call, 1, True),
                self._median(call, WARM_CALLS, False))


def measure_triton(bundle, module, device_index=0, runs=50, warmup=5,
                   rtol=2e-2, input_scale=0.1, seed=1, skip=()):
    """Measurements of the Triton forms of the tuning groups of `bundle` (a
    loaded mirage.runtime.Bundle), from `module` (load_triton_module), in
    the tuning database's form with "backend": "triton": one per function
    of a group that the module has (a function the translation left out is
    not measured). A form that raises is "failed" with the error; one whose
    outputs differ is "wrong". Groups whose program as written overflows
    even on shrunk inputs are skipped (the tuner fails them). The functions
    named in `skip`, and those of their Triton form, are not run: each is
    "failed", its compile given up (bench/gpu/triton_precompile.py). A form
    listed under several names is measured once."""
    import torch
    device = torch.device("cuda", device_index)
    plan = read_plan(bundle.directory)
    functions = module.FUNCTIONS
    timer = _Timer(device, runs, warmup)
    measurements = []
    with torch.cuda.device(device):
        for members in _groups(plan).values():
            present = [spec for spec in members if spec.name in functions]
            if not present:
                continue
            as_written = members[0]
            generator = torch.Generator(device=device).manual_seed(seed)
            scale, references = input_scale, None
            for _ in range(MAX_INPUT_SHRINKS + 1):
                inputs = _draw_inputs(as_written, scale, generator, device)
                result = bundle(as_written.name)(*inputs)
                result = result if isinstance(result, tuple) else (result,)
                if all(bool(torch.isfinite(r).all()) for r in result):
                    references = result
                    break
                scale /= 16
            if references is None:
                continue
            measurements += _measure_forms(
                present, functions, skip,
                lambda function, spec: _measure(function, spec, inputs,
                                                references, rtol, timer))
    return measurements


def _measure_forms(present, functions, skip, measure):
    """The measurements of the Triton forms of the functions `present` (plan
    specs of one tuning group) from the module's `functions` table:
    `measure(function, spec)` once per callable, as functions of one Triton
    form (a candidate's tuning variants: the copy mode is a PTX decision)
    share it, each measurement recorded under every name; a form whose
    compile was given up (a name in `skip`) is "failed" under every name."""
    given_up = {functions[name][0] for name in skip if name in functions}
    measured, measurements = {}, []
    for spec in present:
        function = functions[spec.name][0]
        if function in given_up:
            measurements.append({
                "function": spec.name, "candidate": spec.tuning["candidate"],
                "backend": "triton", "status": "failed",
                "message": "Triton's compile was given up"})
            continue
        if function not in measured:
            measured[function] = measure(function, spec)
        measurements.append(dict(measured[function], function=spec.name,
                                 candidate=spec.tuning["candidate"]))
    return measurements


def _measure(function, spec, inputs, references, rtol, timer):
    """One Triton form's measurement (see measure_triton)."""
    import torch
    record = {"function": spec.name, "candidate": spec.tuning["candidate"],
              "backend": "triton"}
    try:
        outputs = function(*inputs)
        torch.cuda.synchronize()
        status, error, message = judge(outputs, references, rtol)
        if status == "ok":
            cold, warm = timer.time(lambda: function(*inputs))
            record.update(status="ok", median_us=min(cold, warm),
                          cold_us=cold, warm_us=warm)
        else:
            record["status"] = status
    except Exception as failure:  # a compile or launch error of Triton's
        # Triton's compile errors give the place first, the cause last.
        lines = [line.strip() for line in str(failure).splitlines()
                 if line.strip()] or [""]
        status, error = "failed", None
        message = f"{type(failure).__name__}: {lines[0]}" + (
            f" ... {lines[-1]}" if len(lines) > 1 else "")
        record["status"] = status
    if error is not None:
        record["max_rel_err"] = error
    if message:
        record["message"] = message
    return record

class TritonFunction:
    """Function `name` of the Triton module `directory`/triton.py of a
    bundle (or a superoptimize cache entry), called as a runtime
    BundleFunction is: the tensors checked against the bundle's plan, the
    kernels launched on the inputs' device and current stream, `out=`
    filled."""

    def __init__(self, directory, name):
        self.spec = read_plan(directory).functions[name]
        self.function = load_triton_module(
            pathlib.Path(directory) / "triton.py").FUNCTIONS[name][0]

    def __call__(self, *inputs, out=None):
        import torch
        from mirage import runtime
        outputs = None
        if out is not None:
            outputs = [out] if hasattr(out, "data_ptr") else list(out)
        device = runtime.check_arguments(self.spec, inputs, outputs)
        # The module's kernels write the outputs in place (docs/Triton.md,
        # "The module").
        with torch.cuda.device(device or torch.cuda.current_device()):
            results = self.function(
                *inputs, out=None if outputs is None else tuple(outputs))
        return results[0] if len(results) == 1 else tuple(results)


def tune(bundle, triton_module=None, database=None, device_index=0,
         skip=()):
    """Tunes every group of `bundle` (a loaded mirage.runtime.Bundle) on
    CUDA device `device_index`, with the Triton forms of `triton_module`
    (a path or a loaded module; None: PTX only) but those named in `skip`
    measured beside the PTX, and records each group's winner, function and
    backend, in the tuning database. Returns the groups' tables as text."""
    measured = None
    if triton_module is not None:
        module = (load_triton_module(triton_module)
                  if isinstance(triton_module, (str, pathlib.Path))
                  else triton_module)
        measured = measure_triton(bundle, module, device_index, skip=skip)
    return bundle.tune(database=database, device_index=device_index,
                       measurements=measured)


def read_skipped(path, bundle):
    """The functions of `bundle` (a directory) that the file at `path`
    lists, one `BUNDLE-NAME FUNCTION` line each, as
    bench/gpu/triton_precompile.py writes those whose Triton compile it
    gave up; none when there is no such file."""
    path, name = pathlib.Path(path), pathlib.Path(bundle).resolve().name
    if not path.is_file():
        return set()
    return {words[1] for words in map(str.split,
                                      path.read_text().splitlines())
            if len(words) == 2 and words[0] == name}


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m mirage.tuning",
        description="Tunes a bundle's groups, Triton forms included.")
    parser.add_argument("bundle", type=pathlib.Path)
    parser.add_argument("--triton", type=pathlib.Path,
                        help="the Triton module of the bundle's functions "
                        "(default: BUNDLE/triton.py when present)")
    parser.add_argument("--db", help="the tuning database")
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--skip-triton", type=pathlib.Path,
                        help="a file of `BUNDLE-NAME FUNCTION` lines: Triton "
                        "forms not to run (their compile was given up)")
    args = parser.parse_args(argv)
    skip = (set() if args.skip_triton is None
            else read_skipped(args.skip_triton, args.bundle))
    from mirage import runtime
    try:
        import torch
        torch.cuda.init()
    except Exception as error:  # no torch, no CUDA build, no device
        print(f"mirage.tuning: error: no CUDA through torch: {error}",
              file=sys.stderr)
        return 1
    module = args.triton
    if module is None and (args.bundle / "triton.py").is_file():
        module = args.bundle / "triton.py"
    try:
        bundle = runtime.load_bundle(args.bundle, device=args.device)
        try:
            print(tune(bundle, module, args.db, args.device, skip),
                  end="")
        finally:
            bundle.close()
    except (runtime.MirageError, ValueError, OSError) as error:
        print(f"mirage.tuning: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
