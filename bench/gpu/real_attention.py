#!/usr/bin/env python3
"""Real (max-subtracted) softmax and attention on the GPU
(docs/Benchmarks/RealAttention.md): runs the bundles of
bench/real-attention/*.mlir (written by mirage-bundle) on inputs whose
attention logits reach +-30, where exp without the maximum overflows f16,
checks them against a float32 PyTorch evaluation, then times them against
PyTorch (SDPA's default backend for attention, torch.softmax for softmax).

    real_attention.py BUNDLES_DIR --out FILE [--kernels]

Needs torch with CUDA and MIRAGE_RUNTIME_LIBRARY (the runtime library);
writes one JSON row per bundle: max |logit|, each function's relative
error and time (a bundle of several functions is a tuning group: its
fastest correct function is the row's Mirage time, the tuner's rule), and
the median times in microseconds, launched one by one from Python ("_us")
and replayed from a CUDA graph of 10 calls ("_graph_us", per call),
against every SDPA backend
(the fastest is the baseline). With --kernels, each row also gives the
mean GPU time of every kernel the fastest function and the baseline launch
per call (CUPTI's records, profile_kernels.py): where their time goes.
"""

import argparse
import json
import math
import pathlib
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from event_timing import graph_us, median_us
from mirage import runtime
from profile_kernels import kernel_times

#: SDPA's backends, each timed (the baseline is the fastest that runs).
SDPA_BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION,
                 "efficient": SDPBackend.EFFICIENT_ATTENTION,
                 "cudnn": SDPBackend.CUDNN_ATTENTION,
                 "math": SDPBackend.MATH}

#: Relative error allowed against the float32 reference (f16 storage).
TOLERANCE = 2e-2


def attention_case(function):
    """Q, K, V of the bundle's shapes whose scaled logits reach about 30."""
    (groups, rows, dim), (_, _, keys), _ = [
        tuple(spec.shape) for spec in function.spec.inputs]
    torch.manual_seed(0)
    q = (torch.randn(groups, rows, dim, device="cuda") * 10).half()
    k = torch.randn(groups, dim, keys, device="cuda").half()
    v = torch.randn(groups, keys, dim, device="cuda").half()
    scale = 1.0 / math.sqrt(dim)
    logits = (q.float() @ k.float()) * scale
    reference = torch.softmax(logits, -1) @ v.float()
    # SDPA's layout: (batch, heads, tokens, dim), query heads grouped.
    sq = q.reshape(1, groups * rows, 1, dim)
    sk = k.transpose(1, 2).contiguous().reshape(1, groups, keys, dim)
    sv = v.reshape(1, groups, keys, dim)

    # K and V repeated per query head, for the backends without enable_gqa.
    ek = sk.repeat_interleave(rows, dim=1)
    ev = sv.repeat_interleave(rows, dim=1)

    def sdpa(backend, gqa):
        def call():
            with sdpa_kernel([backend]):
                if gqa:
                    return F.scaled_dot_product_attention(
                        sq, sk, sv, enable_gqa=True)
                return F.scaled_dot_product_attention(sq, ek, ev)
        return call
    baselines = {f"sdpa_{name}{'' if gqa else '_repeated'}": sdpa(backend, gqa)
                 for name, backend in SDPA_BACKENDS.items()
                 for gqa in (True, False)}
    return (q, k, v), logits, reference, baselines


def softmax_case(function):
    """Scores of the bundle's shape reaching about 30."""
    shape = tuple(function.spec.inputs[0].shape)
    torch.manual_seed(0)
    s = (torch.randn(shape, device="cuda") * 8).half()
    logits = s.float()
    return (s,), logits, torch.softmax(logits, -1), \
        {"torch_softmax": lambda: torch.softmax(s, -1)}


def check(function, inputs, reference):
    """The relative error of `function` against `reference`, and whether it
    is correct (finite, within TOLERANCE)."""
    out = function(*inputs)
    torch.cuda.synchronize()
    error = ((out.float() - reference).norm() / reference.norm()).item()
    finite = bool(torch.isfinite(out).all().item())
    return error, finite and error < TOLERANCE


def run(bundle_dir, kernels=False):
    """One row per bundle. A bundle of several functions is a tuning group
    (the program as written and the search's candidates, bench/
    make-pipeline-bundles.py): each is checked and timed, and the row's
    Mirage time is the fastest correct one's, the tuner's rule; with
    `kernels`, the row gives its kernels' and the baseline's times."""
    bundle = runtime.load_bundle(bundle_dir, device=0)
    names = bundle.functions
    first = bundle(names[0])
    case = attention_case if len(first.spec.inputs) == 3 else softmax_case
    inputs, logits, reference, baselines = case(first)
    plain = torch.exp(logits.half())  # exp without the maximum, in f16
    row = {"case": pathlib.Path(bundle_dir).name,
           "max_abs_logit": logits.abs().max().item(),
           "plain_exp_overflows": bool(torch.isinf(plain).any().item()),
           "functions": {}}
    for name in names:
        function = bundle(name)
        error, correct = check(function, inputs, reference)
        entry = {"rel_error": error, "correct": correct}
        if correct:
            entry["graph_us"] = graph_us(
                lambda f=function: f(*inputs))  # noqa: E731
        row["functions"][name] = entry
    timed = {name: entry for name, entry in row["functions"].items()
             if entry["correct"]}
    row["correct"] = len(timed) == len(names)
    if not timed:
        return row
    best = min(timed, key=lambda name: timed[name]["graph_us"])
    function = bundle(best)
    row["mirage_function"] = best
    row["rel_error"] = timed[best]["rel_error"]
    row["mirage_graph_us"] = timed[best]["graph_us"]
    row["mirage_us"] = median_us(lambda: function(*inputs))
    row["baselines_graph_us"] = {}
    for name, baseline in baselines.items():
        try:
            baseline()
            torch.cuda.synchronize()
            row["baselines_graph_us"][name] = graph_us(baseline)
        except RuntimeError:  # a backend that does not take the shapes
            torch.cuda.synchronize()
    fastest = min(row["baselines_graph_us"],
                  key=row["baselines_graph_us"].get)
    row["baseline"] = fastest
    row["baseline_graph_us"] = row["baselines_graph_us"][fastest]
    row["baseline_us"] = median_us(baselines[fastest])
    row["speedup"] = row["baseline_us"] / row["mirage_us"]
    row["graph_speedup"] = row["baseline_graph_us"] / row["mirage_graph_us"]
    if kernels:
        row["kernels_us"] = {
            "mirage": kernel_times(lambda: function(*inputs), 50),
            "baseline": kernel_times(baselines[fastest], 50)}
    return row


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bundles", type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--kernels", action="store_true",
                        help="also time each kernel of the fastest "
                        "function and of the baseline")
    args = parser.parse_args(argv)
    rows = []
    for bundle_dir in sorted(p for p in args.bundles.iterdir() if p.is_dir()):
        try:
            rows.append(run(bundle_dir, args.kernels))
        except Exception as error:  # a failed case is a row, not a crash
            rows.append({"case": bundle_dir.name, "error": repr(error)})
        print(json.dumps(rows[-1]), flush=True)
    args.out.write_text(json.dumps(
        {"device": torch.cuda.get_device_name(0),
         "torch": torch.__version__, "rows": rows}, indent=1))
    return 0 if all(r.get("correct") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
