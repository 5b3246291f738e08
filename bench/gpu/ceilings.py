#!/usr/bin/env python3
"""The least time each program of a benchmark record can take on this GPU,
measured, and the speed-up over its best baseline that this leaves.

    ceilings.py RECORD.json [RECORD.json ...] [--out OUT.json]
                [--compute-bound A,B,...] [--device N]

The memory floor (kernel_results.floor_us: the program's bytes over the copy
bandwidth of a 1 GiB copy) leaves out what moving few bytes costs: a kernel
that only moves a program's 4 to 60 MB, replayed from a CUDA graph, takes
well over its share of the large copy's time. So for every case of the
records this script times, in the same two modes as bench.py (time_modes:
do_bench and do_bench_cudagraph, the lower counts), two kernels that move
the case's bytes and nothing else:

  copy   a device copy of half the bytes (read and written, as the floor
         counts them; bench.py's copy_call);
  read   torch.sum over all the bytes as f16 (every byte read once, one
         value written).

The lower of the two is the case's ceiling time: no kernel reading the
program's inputs runs faster unless it is a faster reader than PyTorch's
copy and sum kernels (so the bound is an estimate, not a proof). The
case's bound is its best baseline's time over the ceiling time. For a
compute-bound case (--compute-bound, default COMPUTE_BOUND: the prefill
programs, whose baselines run cuBLAS or cuDNN at the tensor cores' rate)
the bound is 1.0x, or the measured speed-up where that is higher.

Later records replace earlier ones' cases, so a whole-suite run followed by
partial runs reads as the suite's latest rows. Writes OUT.json (default
$OUT/ceilings.json, else ./ceilings.json) and prints a Markdown table with
the geometric means of the measured speed-ups and of the bounds.
"""

import argparse
import json
import math
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from bench import copy_call, time_modes  # noqa: E402

#: The generality suite's programs whose best baselines run at the tensor
#: cores' rate (docs/Benchmarks/Generality.md, "What the targets ask").
COMPUTE_BOUND = ("llama3_8b_norm_qkv_t512_f16", "qwen25_7b_norm_qkv_t2048_bf16",
                 "mistral_7b_mlp_t512_f16", "llama32_1b_attn_b1_t512_kv512_f16")


def read_call(nbytes, device):
    """A kernel that reads `nbytes` once: torch.sum over them as f16 (which
    PyTorch sums in f32)."""
    import torch
    source = torch.zeros(max(nbytes // 2, 1), dtype=torch.float16,
                         device=device)
    return lambda: torch.sum(source)


def latest_records(paths):
    """The records of `paths` by case, a later file's case replacing an
    earlier one's; each keeps the file it came from."""
    by_case = {}
    for path in paths:
        for record in json.loads(pathlib.Path(path).read_text()):
            if record.get("status") == "ok":
                by_case[record["case"]] = dict(record, source=str(path))
    return by_case


def bound_of(record, ceiling_us, compute_bound):
    """The case's bound on its speed-up (module docstring)."""
    if record["case"] in compute_bound:
        return max(1.0, record["speedup"])
    return record["best_baseline_us"] / ceiling_us


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def measure(records, device):
    """Each record's row: the copy's and the read's times and the bound."""
    rows = []
    for case, record in records.items():
        times = {name: time_modes(make(record["bytes"], device))
                 for name, make in (("copy", copy_call), ("read", read_call))}
        best = {name: min(modes.values()) for name, modes in times.items()}
        rows.append({"case": case, "bytes": record["bytes"],
                     "copy_times": times["copy"], "read_times": times["read"],
                     "ceiling_us": min(best.values()),
                     "mirage_us": record["mirage_us"],
                     "best_baseline": record["best_baseline"],
                     "best_baseline_us": record["best_baseline_us"],
                     "speedup": record["speedup"],
                     "commit": record.get("commit"), "date": record.get("date"),
                     "source": record["source"]})
        print(f"  {case}: copy {best['copy']:.2f} µs, read "
              f"{best['read']:.2f} µs", flush=True)
    return rows


def summarise(rows, compute_bound):
    for row in rows:
        row["bound"] = bound_of(row, row["ceiling_us"], compute_bound)
        row["compute_bound"] = row["case"] in compute_bound
    return {"speedup_geomean": geomean([r["speedup"] for r in rows]),
            "bound_geomean": geomean([r["bound"] for r in rows]),
            "rows": rows}


def table(summary):
    lines = ["| case | MB | ceiling µs | Mirage µs | best baseline µs | "
             "speed-up | bound | of bound |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in summary["rows"]:
        mark = " (compute-bound)" if r["compute_bound"] else ""
        lines.append(
            f"| {r['case']}{mark} | {r['bytes'] / 1e6:.1f} | "
            f"{r['ceiling_us']:.2f} | {r['mirage_us']:.2f} | "
            f"{r['best_baseline_us']:.2f} | {r['speedup']:.2f}x | "
            f"{r['bound']:.2f}x | {r['speedup'] / r['bound']:.2f} |")
    lines.append(f"\nGeometric means: speed-up {summary['speedup_geomean']:.3f}x,"
                 f" bound {summary['bound_geomean']:.3f}x.")
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("--out")
    parser.add_argument("--compute-bound", default=",".join(COMPUTE_BOUND))
    parser.add_argument("--device", type=int, default=0)
    options = parser.parse_args(argv)
    import torch
    device = torch.device("cuda", options.device)
    compute_bound = set(filter(None, options.compute_bound.split(",")))
    summary = summarise(measure(latest_records(options.records), device),
                        compute_bound)
    summary["device"] = torch.cuda.get_device_name(device)
    out = pathlib.Path(options.out or pathlib.Path(
        os.environ.get("OUT", "."), "ceilings.json"))
    out.write_text(json.dumps(summary, indent=1) + "\n")
    print(table(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
