"""The results of the kernel benchmark (bench.py): one record per case, its
summary (Mirage's kernel, the best baseline, the speed-up, the memory
floor, and for the bandwidth suite the fraction of a copy's bandwidth), the
JSON file, the Markdown report and the plot. Needs neither torch nor a GPU;
the plot needs matplotlib.

A record, one JSON object per case, holds:

  case, suite, dtype, device, date, commit, torch, triton
                  what ran, where and when
  status          "ok" (a correct Mirage kernel was timed) or "failed"
  error           why it failed, else None
  bytes           unique bytes: the inputs read once, the output written once
  copy_bandwidth_gb_s   the device's copy bandwidth in this run (bytes read
                  and written per second)
  floor_us        bytes / copy bandwidth
  bound           the bound on max_rel_err
  candidates      every Mirage kernel tried, in order of preference: bundle,
                  function, source ("pipeline", "cost_model" or
                  "comparison"), chip, max_rel_err, correct, times, error
  baselines       name -> max_rel_err, correct, times, error (and
                  compile_s for torch.compile): "eager", "torch.compile"
                  (default mode), "torch.compile <mode>", and for
                  attention "SDPA <backend> g=<query heads per KV head>"
  bundle, function, chip, mirage_us, mirage_mode, mirage_times, max_rel_err
                  the headline kernel: its figure and error. With a
                  candidate of source "pipeline" (the main job's result:
                  reference -> mirage-superoptimize -> mirage-tune's winner)
                  it is that one alone; else the fastest correct candidate
  mirage_source   "pipeline" or "best-of-bundles" (how the headline was had)
  reference_mugraph_us   the fastest correct hand-written, saved or
                  searched µGraph of the other bundles (a comparison), or None
  cost_model_us   the pipeline bundle's function as the cost model chose
                  it, without measured selection (a comparison), or None
  face_off        the variants timed again in turns at the end of the case
                  (bench.face_off): the headline, the copy of the bandwidth
                  suite and the baselines nearest the best; [] if none
  best_baseline, best_baseline_us   the fastest figure of a correct baseline
  speedup         best_baseline_us / mirage_us
  floor_fraction  floor_us / mirage_us

The records of the bandwidth suite (bandwidth.py) also hold:

  copy_times      the times of a device copy moving `bytes` (half read, half
                  written), measured in the same run the same way
  copy_us         the copy's time in mirage_mode, or None
  copy_fraction   copy_us / mirage_us: the fraction of the copy's bandwidth
                  Mirage's kernel reaches, or None

`times` maps a timing mode to its median in µs: "do_bench"
(triton.testing.do_bench: L2 flushed between calls, launches included) and
"cudagraph" (do_bench_cudagraph: calls replayed from a CUDA graph). The
figure of a kernel or baseline is the lower of its two times.
"""

import json
import math
import pathlib

import check
from bandwidth import BANDWIDTH
from cases import CASES
from generality import GENERALITY

#: Timing modes and how a baseline's name shows them.
MODES = {"do_bench": "", "cudagraph": " (CUDA graph)"}
#: The baselines' families, a column each: a family's cell is the best of
#: its baselines (e.g. every backend of SDPA).
BASELINES = ("eager", "torch.compile", "SDPA")
#: What every record of bench/results/latest.json has.
REQUIRED_FIELDS = ("case", "mirage_us", "best_baseline", "best_baseline_us",
                   "floor_us", "max_rel_err", "device", "date", "commit")
#: The targets (docs/Benchmarks/Method.md): these cases within FLOOR_TARGET
#: times the memory floor, and a geometric-mean speed-up of at least GEOMEAN_TARGET.
FLOOR_CASES = ("rmsnorm_linear_bs1", "rmsnorm_linear_bs8", "gated_mlp")
FLOOR_TARGET = 1.3
GEOMEAN_TARGET = 1.5
#: The generality suite's targets (docs/Benchmarks/Generality.md): every
#: program at least GENERALITY_MIN_SPEEDUP, a geometric mean of at least
#: GENERALITY_GEOMEAN.
GENERALITY_MIN_SPEEDUP = 0.95
GENERALITY_GEOMEAN = 1.1
#: The bandwidth suite's target (docs/Benchmarks/Method.md): every program
#: at least this fraction of the bandwidth of a copy of its bytes.
BANDWIDTH_TARGET = 0.80
SUITES = {"benchmarks": CASES, "generality": GENERALITY,
          "bandwidth": BANDWIDTH}
JSON_NAME, MARKDOWN_NAME, PLOT_NAME = "bench.json", "bench.md", "bench.png"

METHOD = """\
One process (`bench/gpu/bench.py`) runs every variant of a case on the same
inputs: normal(0, 1) × 0.1 in the program's dtype, seeded per case.
Correctness comes first: each kernel runs into outputs filled with NaN and is
compared with a float32 evaluation of the program
(`python/mirage/interpreter.py`) by ‖out − ref‖ / ‖ref‖ ("rel. error"),
which must be within the bound (2e-2 for f16 and bf16 programs); the
baselines are checked the same way, and a wrong kernel is not timed. Each
time cell is `do_bench / CUDA graph`: medians in µs of
`triton.testing.do_bench` (L2 flushed between calls, launch overhead
included) and of `do_bench_cudagraph` (calls replayed from a CUDA graph),
each the lower of two medians taken in a row; a variant's figure is the
lower of the two modes. Mirage: the headline is the main
job's result alone — the reference program through `mirage-superoptimize`,
the bundle and `mirage-tune`'s measured winner (`pipeline_*`); the bundles
of hand-written and saved µGraphs are a comparison column
(`reference_mugraph_us` in the JSON), on the device's own PTX (sm_90a on an
H100 or H200). Baselines, each in its strongest configuration: the
program's formula in PyTorch ops run eagerly (*eager*; its CUDA-graph time
is eager under CUDA graphs); `torch.compile` in its default mode and in
`max-autotune-no-cudagraphs`, each also replayed from a CUDA graph (the
column shows the faster mode); and for attention
`scaled_dot_product_attention(..., scale=1.0)` in its native layout (batch,
heads, length, dim) with `enable_gqa=True` where query heads share a KV head,
under each backend (flash, cuDNN, efficient) and each way of splitting a KV
head's rows into query heads × tokens (1 is the folded form), K transposed
into SDPA's layout once, outside the timed calls (the column shows the best;
the JSON has every variant). Speed-up: best baseline / Mirage. Floor:
unique bytes (inputs read once, output written once) / the copy bandwidth
measured in the same run (bytes read and written); "of floor" is floor /
Mirage."""

RUNNING = """\
Make the bundles here, run the main job's benchmark on the GPU machine
(`bench/gpu-pipeline.sh` builds `runtime/` with CMake, runs `mirage-tune` on
every pipeline bundle into a fresh tuning database, then `bench.py`; results
go to `$OUT`), then record the results here:

```sh
export PYTHONPATH=$PWD/python  # here: the scripts import the mirage package
/usr/bin/python3 bench/make-pipeline-bundles.py gpu-run/pipeline --time-limit 120  # here
/usr/bin/python3 bench/make-gpu-bundles.py gpu-run/comparisons --per-file 40 --no-search  # here
MIRAGE_COMMIT=<commit> bash bench/gpu-pipeline.sh gpu-run/pipeline gpu-run/comparisons --time-budget 330  # on the GPU
/usr/bin/python3 bench/gpu/update-kernel-results.py $OUT  # here
```

For the generality suite, the bundles come from its programs and the
benchmark takes `--suite generality` (no comparison bundles):

```sh
/usr/bin/python3 bench/make-pipeline-bundles.py gpu-run/generality --programs bench/generality --time-limit 120
MIRAGE_COMMIT=<commit> bash bench/gpu-pipeline.sh gpu-run/generality --suite generality --time-budget 380
```

A suite longer than one call on one GPU (the generality suite's 26
programs take about 32 s each) runs as one run over the GPUs of one machine:
`bench/gpu-pipeline-gpus.sh N PIPELINE [COMPARISONS] --cases A,B,...`
deals the cases in turn to N GPUs, each tunes and measures its cases with
all their baselines at the same time as the others, and
`bench/gpu/merge_results.py` joins the parts into `$OUT` (refusing parts of
different runs or a case measured twice):

```sh
MIRAGE_COMMIT=<commit> bash bench/gpu-pipeline-gpus.sh 2 gpu-run/generality --cases <all 26> --suite generality --time-budget 380
```

With Triton forms (`make-pipeline-bundles.py --triton`) the generality
suite's tuning and measurement do not fit one 10-minute call on two GPUs:
tune in one call, whose `$OUT/tuning.json` joins the GPUs' databases
(`merge_results.py --tuning-only`), and measure in the next:

```sh
MIRAGE_TUNE_ONLY=1 bash bench/gpu-pipeline-gpus.sh 2 gpu-run/generality --cases <all 26> --suite generality
MIRAGE_TUNED_DB=<that tuning.json> MIRAGE_COMMIT=<commit> bash bench/gpu-pipeline-gpus.sh 2 gpu-run/generality --cases <all 26> --suite generality --time-budget 330
```

On the two-GPU H200 machine (2026-11-30, e3f51ac) the first took 532 s
with the runtime already built, the second 274 s. The 26 bundles are about
100 MB; carry them as one `tar.xz` (3.3 MB).

The last step writes `bench/results/latest.json` (or `generality.json`),
this page and its plot; keep the tuning database as
`bench/results/<commit>-tuning.json`. Give the commit measured: the GPU
machine's copy of the tree may have no `.git`. With the device tool of these
sessions, carry `gpu-run/...` and tar `$OUT` into one file; each suite's run
took 4 to 8 minutes on an H200.

A cold GPU machine first builds `runtime/` and compiles the bundles' Triton
modules, so the tuning and the benchmark are best run as two calls:
`MIRAGE_TUNE_ONLY=1` writes `tuning.json`, and a second call with
`MIRAGE_TUNED_DB=<that file>` benchmarks. On an H200 (2026-11-29, ff9d6e3's
14 pipeline bundles, `MIRAGE_TRITON_COMPILE_LIMIT=20`) the first call took
258 s: 10 s of build, 74 s of Triton compiles in parallel parts (none given
up), 176 s of tuning; the second took 179 s. The tuning may also be split
over calls, a subset of the bundles each (a folder of links to them), each
call starting from the database of the one before
(`MIRAGE_TUNING_DB_START`). The device tool of these sessions returns at
most 8 files: keep the run's folder outside `$OUT` and copy only
`tuning.json` and one tar of the folder into it.

`bench/gpu-pipeline.sh` passes its further arguments to `bench.py`:
`--cases a,b` runs only those cases, `--no-compile` skips torch.compile,
`--compile-modes M,N` sets its modes (default `default` and
`max-autotune-no-cudagraphs`), and `--time-budget S` (default 360) starts no
compilation after S seconds (the rest are reported as skipped). The results
are written after every case, so an interrupted run leaves the cases done."""

BANDWIDTH_METHOD = f"""\
The bandwidth suite holds each program against a copy: a device copy
(`copy_` of one uint8 tensor into another) that moves the program's unique
bytes, half read and half written, timed in the same run just before the
program's kernels by both methods. *Copy µs* is the copy's time in the mode
of Mirage's figure (the lower of its two times; "(CUDA graph)" marks that
mode), *of copy* is copy µs / Mirage µs: the fraction of the copy's
bandwidth the kernel reaches. The target (issue 26): at least
{BANDWIDTH_TARGET:.2f} for every program at every size, 1 MB per input and
more."""

BANDWIDTH_RUNNING = """\
For the bandwidth suite, the bundles come from its programs and the
benchmark takes `--suite bandwidth`:

```sh
/usr/bin/python3 bench/make-pipeline-bundles.py gpu-run/bandwidth --programs bench/bandwidth --time-limit 60
MIRAGE_COMMIT=<commit> bash bench/gpu-pipeline.sh gpu-run/bandwidth --suite bandwidth --compile-modes default
```

`update-kernel-results.py` then writes `bench/results/bandwidth.json`,
this page (`docs/Benchmarks/Bandwidth.md`) and its plot."""


def floor_us(nbytes, bandwidth):
    """The memory floor in µs of moving `nbytes` at `bandwidth` bytes/s."""
    return nbytes / bandwidth * 1e6


def new_record(case, meta, bandwidth):
    """The record of cases.Case `case` before anything ran; `meta` holds
    device, date, commit, torch and triton, `bandwidth` the copy bandwidth
    in bytes/s."""
    return {"case": case.name, "suite": case.suite, "dtype": case.dtype,
            **meta, "status": "failed", "error": None,
            "bytes": case.bytes, "copy_bandwidth_gb_s": bandwidth / 1e9,
            "floor_us": floor_us(case.bytes, bandwidth), "bound": None,
            "candidates": [], "baselines": {}, "bundle": None,
            "function": None, "chip": None, "mirage_us": None,
            "mirage_mode": None, "mirage_times": {}, "max_rel_err": None,
            "best_baseline": None, "best_baseline_us": None, "speedup": None,
            "floor_fraction": None, "face_off": [],
            **({"copy_times": {}, "copy_us": None, "copy_fraction": None}
               if case.suite == "bandwidth" else {})}


def figure(entry):
    """(mode, µs) of the lower time of a candidate or baseline, or None."""
    times = entry.get("times") or {}
    if not times:
        return None
    mode = min(times, key=times.get)
    return mode, times[mode]


def candidate_name(candidate):
    """bundle/function, or the bundle alone when it could not be read."""
    if candidate["function"] is None:
        return candidate["bundle"]
    return f"{candidate['bundle']}/{candidate['function']}"


def _why(entry):
    """Why a candidate or baseline does not count."""
    return entry["error"] or \
        f"max_rel_err {format_error(entry['max_rel_err'])}"


def summarise(record):
    """Fills in the fastest correct Mirage kernel (ties go to the preferred
    one), the best correct baseline, the speed-up and the fraction of the
    floor; without a correct Mirage kernel the case failed."""
    candidates = record["candidates"]
    correct = [c for c in candidates if c["correct"] and figure(c)]
    # With the main job's result among them, it alone is the headline; the
    # hand-written and saved µGraphs are a comparison.
    pipeline = [c for c in candidates if c.get("source") == "pipeline"]
    comparisons = [figure(c)[1] for c in correct
                   if c.get("source", "comparison") == "comparison"
                   and not c["bundle"].startswith("bench_")]
    cost_model = [figure(c)[1] for c in correct
                  if c.get("source") == "cost_model"]
    record.update(
        mirage_source="pipeline" if pipeline else "best-of-bundles",
        reference_mugraph_us=min(comparisons) if comparisons else None,
        cost_model_us=min(cost_model) if cost_model else None)
    if pipeline:
        candidates = pipeline
        correct = [c for c in pipeline if c["correct"] and figure(c)]
    if correct:
        best = min(correct, key=lambda c: figure(c)[1])
        mode, us = figure(best)
        record.update(status="ok", error=None, bundle=best["bundle"],
                      function=best["function"], chip=best.get("chip"),
                      mirage_us=us, mirage_mode=mode,
                      mirage_times=best["times"],
                      max_rel_err=best["max_rel_err"])
    else:
        errors = [c["max_rel_err"] for c in candidates
                  if c["max_rel_err"] is not None]
        error = record["error"] or "no Mirage kernel"
        if candidates:
            error = "no correct Mirage kernel: " + "; ".join(
                f"{candidate_name(c)}: {_why(c)}" for c in candidates)
        record.update(status="failed", error=error, bundle=None,
                      function=None, chip=None, mirage_us=None,
                      mirage_mode=None, mirage_times={},
                      max_rel_err=min(errors) if errors else None)
    options = [(us, name + MODES[mode])
               for name, entry in record["baselines"].items()
               if entry["correct"] for mode, us in entry["times"].items()]
    best_us, best_name = min(options) if options else (None, None)
    mirage_us = record["mirage_us"]
    record.update(
        best_baseline=best_name, best_baseline_us=best_us,
        speedup=best_us / mirage_us if best_us and mirage_us else None,
        floor_fraction=record["floor_us"] / mirage_us if mirage_us else None)
    if "copy_times" in record:  # the bandwidth suite: the copy, same mode
        mode = record["mirage_mode"]
        copy_us = record["copy_times"].get(mode) if mode else None
        record.update(copy_us=copy_us,
                      copy_fraction=copy_us / mirage_us
                      if copy_us and mirage_us else None)
    return record


def geomean_speedup(records):
    """The geometric mean of the speed-ups measured, or None."""
    speedups = [r["speedup"] for r in records if r["speedup"]]
    if not speedups:
        return None
    return math.exp(sum(math.log(s) for s in speedups) / len(speedups))


def _names(cases):
    return ", ".join(cases) if cases else "none"


def suite_of(records):
    """The suite the records measured ("benchmarks" when they say none)."""
    return records[0].get("suite", "benchmarks") if records else "benchmarks"


def targets(records):
    """The targets of the records' suite, each {"target", "met", "detail"};
    none is met while a case of the suite was not measured."""
    if suite_of(records) == "generality":
        missing = _missing(records, GENERALITY)
        return [_every_case(records, GENERALITY, GENERALITY_MIN_SPEEDUP,
                            missing),
                _geomean(records, GENERALITY_GEOMEAN, missing)]
    if suite_of(records) == "bandwidth":
        missing = _missing(records, BANDWIDTH)
        below = _below_copy(records)
        return [{"target": "every program correct and at least "
                           f"{BANDWIDTH_TARGET:.2f} of the copy bandwidth at "
                           "every size",
                 "met": not missing and not below,
                 "detail": "; ".join([f"{len(records) - len(below)} of "
                                      f"{len(BANDWIDTH)} programs; below or "
                                      f"failed: {_names(below)}"] +
                                     _not_measured(missing))}]
    missing = _missing(records, CASES)
    by_case = {r["case"]: r for r in records}
    far = [c for c in FLOOR_CASES if c in by_case and not (
        (by_case[c]["floor_fraction"] or 0) * FLOOR_TARGET >= 1)]
    return [
        _every_case(records, CASES, 1.0, missing),
        {"target": f"RMSNorm + Linear and gated MLP within {FLOOR_TARGET}x "
                   "of the memory floor",
         "met": not far and all(c in by_case for c in FLOOR_CASES),
         "detail": "; ".join([f"{c} {_ratio(by_case[c])}"
                              for c in FLOOR_CASES if c in by_case] +
                             _not_measured(missing))},
        _geomean(records, GEOMEAN_TARGET, missing),
    ]


def _missing(records, cases):
    """The cases of `cases` the records lack."""
    measured = {r["case"] for r in records}
    return [c for c in cases if c not in measured]


def _not_measured(missing):
    return [f"not measured: {_names(missing)}"] if missing else []


def _every_case(records, cases, minimum, missing):
    """Every case correct and at least `minimum` times the best baseline."""
    below = [r["case"] for r in records
             if not (r["speedup"] and r["speedup"] >= minimum)]
    goal = ("at least as fast as the best baseline" if minimum == 1.0
            else f"at least {minimum}x the best baseline")
    return {"target": f"every case correct and {goal}",
            "met": not missing and not below,
            "detail": "; ".join([f"{len(records) - len(below)} of "
                                 f"{len(cases)} cases; below or failed: "
                                 f"{_names(below)}"] +
                                _not_measured(missing))}


def _geomean(records, goal, missing):
    """A geometric-mean speed-up over the best baseline of at least `goal`."""
    geomean = geomean_speedup(records)
    return {"target": "geometric-mean speed-up over the best baseline at "
                      f"least {goal}x",
            "met": not missing and geomean is not None and geomean >= goal,
            "detail": "; ".join(["none measured" if geomean is None
                                 else f"{geomean:.2f}x"] +
                                _not_measured(missing))}


def _below_copy(records):
    """The cases of the records below BANDWIDTH_TARGET of the copy's
    bandwidth, or failed."""
    return [r["case"] for r in records
            if not (r.get("copy_fraction") or 0) >= BANDWIDTH_TARGET]


def copy_line(records):
    """How many of the records reach BANDWIDTH_TARGET of the copy's
    bandwidth, and the lowest fraction."""
    below = _below_copy(records)
    measured = [r for r in records if r.get("copy_fraction")]
    text = (f"{len(records) - len(below)} of {len(records)} programs reach "
            f"{BANDWIDTH_TARGET:.2f} of the copy bandwidth; ")
    if measured:
        lowest = min(measured, key=lambda r: r["copy_fraction"])
        text += (f"the lowest fraction is {lowest['copy_fraction']:.2f} "
                 f"({lowest['case']})")
    else:
        text += "no fraction measured"
    return text + (f"; below or failed: {_names(below)}." if below else ".")


def _ratio(record):
    """Mirage's time as a multiple of the floor."""
    fraction = record["floor_fraction"]
    return f"{1 / fraction:.2f}x the floor" if fraction else "failed"


def format_us(us):
    if us is None:
        return "–"
    return f"{us:.3g}" if us < 1000 else f"{us:.0f}"


def format_error(error):
    if error is None:
        return "–"
    return error if isinstance(error, str) else f"{error:.1e}"


def times_cell(times):
    """`do_bench / CUDA graph` medians in µs."""
    return " / ".join(format_us(times.get(mode)) for mode in MODES)


def family(name):
    """The column (BASELINES) of the baseline `name`."""
    return next(f for f in BASELINES if name == f or name.startswith(f + " "))


def best_of_family(baselines, name):
    """The entry of the fastest correct baseline of family `name`, else the
    first of the family, else None."""
    entries = [e for n, e in baselines.items() if family(n) == name]
    timed = [e for e in entries if e["correct"] and figure(e)]
    if timed:
        return min(timed, key=lambda e: figure(e)[1])
    return entries[0] if entries else None


def baseline_cell(entry):
    if entry is None:
        return "–"
    if entry["times"]:
        return times_cell(entry["times"])
    if (entry["error"] or "").startswith("skipped"):
        return "skipped"
    return "wrong" if entry["max_rel_err"] is not None else "FAILED"


def table(records):
    """The Markdown table of the records (bandwidth_table for the bandwidth
    suite)."""
    if suite_of(records) == "bandwidth":
        return bandwidth_table(records)
    lines = ["| case | Mirage kernel | Mirage | eager | torch.compile | SDPA "
             "| best baseline | speed-up | floor | of floor | rel. error |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
             "| --- |"]
    for r in records:
        ok = r["status"] == "ok"
        cells = [r["case"], candidate_name(r) if ok else "FAILED",
                 times_cell(r["mirage_times"]) if ok else "–"]
        cells += [baseline_cell(best_of_family(r["baselines"], name))
                  for name in BASELINES]
        cells += [r["best_baseline"] or "–",
                  f"{r['speedup']:.2f}x" if r["speedup"] else "–",
                  format_us(r["floor_us"]),
                  f"{r['floor_fraction']:.2g}" if r["floor_fraction"]
                  else "–", format_error(r["max_rel_err"])]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def bandwidth_table(records):
    """The Markdown table of the bandwidth suite's records: each program's
    bytes, Mirage's figure against the copy's, the fraction of the copy's
    bandwidth and the best baseline."""
    lines = ["| case | MB moved | Mirage µs | copy µs | of copy | best "
             "baseline | best baseline µs | speed-up |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in records:
        mirage = "FAILED"
        if r["status"] == "ok":
            mirage = format_us(r["mirage_us"]) + MODES[r["mirage_mode"]]
        cells = [r["case"], f"{r['bytes'] / 1e6:.3g}", mirage,
                 format_us(r.get("copy_us")),
                 f"{r['copy_fraction']:.2f}" if r.get("copy_fraction")
                 else "–", r["best_baseline"] or "–",
                 format_us(r["best_baseline_us"]),
                 f"{r['speedup']:.2f}x" if r["speedup"] else "–"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def report(records, image=None):
    """The Markdown page of a run: what ran where, the table, `image` (the
    plot's path relative to the page) if given, the targets, the failures,
    notes, the method and how to run it."""
    first = records[0] if records else {}
    title, what = {
        "benchmarks": ("Kernel benchmarks", "the cases and method of "
                       "[Method.md](Method.md)"),
        "generality": ("Generality suite", "the programs of "
                       "`bench/gpu/generality.py` (one per file in "
                       "`bench/generality/`), the method of "
                       "[Method.md](Method.md)"),
        "bandwidth": ("Bandwidth suite", "the programs of "
                      "`bench/gpu/bandwidth.py` (one per file in "
                      "`bench/bandwidth/`), each against a copy of its "
                      "bytes, the method of [Method.md](Method.md)")
    }[suite_of(records)]
    bandwidth = suite_of(records) == "bandwidth"
    lines = [f"# {title}", "",
             "Mirage's kernels against PyTorch on one GPU, every case "
             f"measured side by side in one run ({what}).", "",
             f"- **Date:** {first.get('date', '–')}",
             f"- **Device:** {first.get('device', '–')}",
             f"- **Commit:** {first.get('commit', '–')}",
             f"- **Software:** PyTorch {first.get('torch', '–')}, Triton "
             f"{first.get('triton', '–')}"]
    if first:
        lines.append(f"- **Copy bandwidth:** "
                     f"{first['copy_bandwidth_gb_s'] / 1000:.2f} TB/s "
                     "(bytes read and written)")
    geomean = geomean_speedup(records)
    count = sum(1 for r in records if r["speedup"])
    lines += ["", "Geometric-mean speed-up over the best baseline: " +
              (f"**{geomean:.2f}x** ({count} case{'s' * (count != 1)})."
               if geomean else "none measured."), ""]
    lines += table(records)
    if bandwidth:
        lines += ["", "Times in µs, median, in the mode of Mirage's figure "
                  "(the lower of `do_bench` and CUDA graph). MB moved: "
                  "unique bytes (inputs read once, the output written "
                  "once), which the copy moves too; of copy: copy / "
                  "Mirage; speed-up: best baseline / Mirage.", "",
                  copy_line(records)]
        if image:
            lines += ["", f"![Fractions of the copy bandwidth]({image})"]
    else:
        lines += ["", "Times in µs, median: `do_bench / CUDA graph`. "
                  "Speed-up: best baseline / Mirage; of floor: floor / "
                  "Mirage."]
        if image:
            lines += ["", f"![Speed-ups over the best baseline]({image})"]
    lines += ["", "## Targets", ""]
    lines += [f"- {'met' if t['met'] else 'not met'}: {t['target']} "
              f"({t['detail']})" for t in targets(records)]
    failed = [r for r in records if r["status"] != "ok"]
    if failed:
        lines += ["", "## Failures", ""]
        lines += [f"- {r['case']}: {r['error']}" for r in failed]
    notes = [f"- {r['case']}: {candidate_name(c)}: {_why(c)}"
             for r in records if r["status"] == "ok"
             for c in r["candidates"] if not c["correct"]]
    notes += [f"- {r['case']}: {name}: {_why(entry)}"
              for r in records for name, entry in r["baselines"].items()
              if not entry["correct"]]
    if notes:
        lines += ["", "## Notes", "",
                  "Other kernels and baselines that were wrong, failed or "
                  "were skipped:", ""] + notes
    lines += ["", "## Method", "", METHOD]
    if bandwidth:
        lines += ["", BANDWIDTH_METHOD]
    lines += ["", "## Running it", "", RUNNING]
    if bandwidth:
        lines += ["", BANDWIDTH_RUNNING]
    return "\n".join(lines) + "\n"


def plot_data(records):
    """(case, speed-up or None when it failed) in record order; for the
    bandwidth suite, (case, fraction of the copy bandwidth or None)."""
    if suite_of(records) == "bandwidth":
        return [(r["case"], r.get("copy_fraction")) for r in records]
    return [(r["case"], r["speedup"]) for r in records]


def plot_speedups(records, path):
    """Writes a bar chart of the speed-ups (for the bandwidth suite, of the
    fractions of the copy bandwidth) to `path` (PNG); False when matplotlib
    is missing."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    bandwidth = suite_of(records) == "bandwidth"
    good, unit = (BANDWIDTH_TARGET, "") if bandwidth else (1, "x")
    data = plot_data(records)
    names = [name for name, _ in data]
    values = [speedup or 0 for _, speedup in data]
    figure_, axes = plt.subplots(figsize=(max(6, 0.7 * len(data) + 2), 4.5))
    bars = axes.bar(names, values, color=["tab:green" if v >= good
                                          else "tab:red" for v in values])
    for bar, (_, speedup) in zip(bars, data):
        axes.annotate("failed" if speedup is None else f"{speedup:.2f}{unit}",
                      (bar.get_x() + bar.get_width() / 2,
                       max(bar.get_height(), 1e-3)),
                      ha="center", va="bottom", fontsize=8)
    axes.axhline(1.0, color="black", linewidth=0.8)
    if bandwidth:
        axes.axhline(BANDWIDTH_TARGET, color="gray", linestyle="--",
                     linewidth=0.8, label=f"target {BANDWIDTH_TARGET:.2f}")
        axes.set_ylabel("fraction of the copy bandwidth")
    else:
        axes.axhline(GEOMEAN_TARGET, color="gray", linestyle="--",
                     linewidth=0.8,
                     label=f"geometric-mean target {GEOMEAN_TARGET}x")
        if any(values):
            axes.set_yscale("log")
        axes.set_ylabel("speed-up over the best baseline")
    first = records[0] if records else {}
    what = ("Mirage vs. a copy of the same bytes" if bandwidth
            else "Mirage vs. best PyTorch baseline")
    axes.set_title(f"{what} — "
                   f"{first.get('device', '')}, {first.get('date', '')}, "
                   f"{first.get('commit', '')}", fontsize=9)
    axes.legend(fontsize=8)
    plt.setp(axes.get_xticklabels(), rotation=30, ha="right")
    figure_.tight_layout()
    figure_.savefig(path, dpi=120)
    plt.close(figure_)
    return True


def save(out, records, plot=True):
    """Writes bench.json, bench.md and (with `plot`, if matplotlib is
    there) bench.png to directory `out`."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / JSON_NAME).write_text(
        json.dumps(check.json_safe(records), indent=2) + "\n")
    image = PLOT_NAME if plot and plot_speedups(records,
                                                out / PLOT_NAME) else None
    (out / MARKDOWN_NAME).write_text(report(records, image))


def load(path):
    """The records of a bench.json; ValueError saying what is wrong."""
    path = pathlib.Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise ValueError(f"{path}: cannot read: {error.strerror}") from None
    try:
        records = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: invalid JSON: {error}") from None
    if not isinstance(records, list) or not all(
            isinstance(r, dict) for r in records):
        raise ValueError(f"{path}: expected a list of objects")
    for i, r in enumerate(records):
        missing = [f for f in REQUIRED_FIELDS if f not in r]
        if missing:
            raise ValueError(f"{path}: record {i} ({r.get('case', '?')}): "
                             f"missing fields {', '.join(missing)}")
    return records
