"""torch.compile(backend="mirage") on whole models, on a GPU
(docs/TorchCompile.md).

    python3 bench/gpu/torch_compile.py --models layer,llama --batches 1,8 \\
        --out results.json

Models, f16, random weights (nothing is downloaded):
- `layer`: a Llama-style decoder layer written in plain PyTorch (RMSNorm,
  q/k/v/o projections, rotary embedding, grouped-query attention over a KV
  cache through SDPA, gated MLP), one new token per sequence;
- `llama`: Hugging Face's LlamaForCausalLM from a small random config (4
  layers of the sizes above), one token per sequence (its logits);
- `outside`: a block with an op outside Mirage's set (cumsum) between two
  linears: it must compile and run.

For each model and batch size, in one process: the outputs of
`torch.compile(backend="mirage", mode="reduce-overhead")` and of
`torch.compile(mode="max-autotune")` against eager, then the time of each
call for eager, Inductor in mode="reduce-overhead", max-autotune and
Mirage (in the backend's own CUDA graph, and as `mirage_trees` in
Inductor's CUDA graph trees), two ways: the latency of back-to-back calls
(CUDA events over many calls, after warm-up; at decode sizes mostly the
CPU's work per call) and the GPU time of one call (queued behind a spin
kernel); and what the backend kept.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time
import traceback
import warnings

import torch
from torch import nn

from event_timing import back_to_back_us

import mirage.torch
import mirage.torch.ops
from mirage.torch import config

HIDDEN, HEADS, KV_HEADS, INNER = 2048, 32, 8, 8192
HEAD = HIDDEN // HEADS
#: Decoder layers of the `llama` model.
LAYERS = 4


class RMSNorm(nn.Module):
    def __init__(self, size, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size) + 0.1 * torch.randn(size))
        self.eps = eps

    def forward(self, hidden):
        dtype = hidden.dtype
        hidden = hidden.to(torch.float32)
        variance = hidden.pow(2).mean(-1, keepdim=True)
        hidden = hidden * torch.rsqrt(variance + self.eps)
        return self.weight * hidden.to(dtype)


def rotate(x, cos, sin):
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated * sin


def repeat_heads(x):
    """Each of the KV heads of x repeated for its group of query heads (as
    Hugging Face's repeat_kv)."""
    batch, length = x.shape[0], x.shape[2]
    return x[:, :, None].expand(batch, KV_HEADS, HEADS // KV_HEADS, length,
                                HEAD).reshape(batch, HEADS, length, HEAD)


class DecoderLayer(nn.Module):
    """One decode step of a Llama-style layer over a KV cache."""

    def __init__(self):
        super().__init__()
        self.attention_norm = RMSNorm(HIDDEN)
        self.q = nn.Linear(HIDDEN, HEADS * HEAD, bias=False)
        self.k = nn.Linear(HIDDEN, KV_HEADS * HEAD, bias=False)
        self.v = nn.Linear(HIDDEN, KV_HEADS * HEAD, bias=False)
        self.o = nn.Linear(HEADS * HEAD, HIDDEN, bias=False)
        self.mlp_norm = RMSNorm(HIDDEN)
        self.gate = nn.Linear(HIDDEN, INNER, bias=False)
        self.up = nn.Linear(HIDDEN, INNER, bias=False)
        self.down = nn.Linear(INNER, HIDDEN, bias=False)

    def forward(self, x, k_cache, v_cache, cos, sin):
        batch = x.shape[0]
        h = self.attention_norm(x)
        q = self.q(h).view(batch, 1, HEADS, HEAD).transpose(1, 2)
        k = self.k(h).view(batch, 1, KV_HEADS, HEAD).transpose(1, 2)
        v = self.v(h).view(batch, 1, KV_HEADS, HEAD).transpose(1, 2)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        keys = torch.cat((k_cache, k), dim=2)
        values = torch.cat((v_cache, v), dim=2)
        keys, values = repeat_heads(keys), repeat_heads(values)
        attended = nn.functional.scaled_dot_product_attention(q, keys, values)
        x = x + self.o(attended.transpose(1, 2).reshape(batch, 1, HIDDEN))
        h = self.mlp_norm(x)
        return x + self.down(nn.functional.silu(self.gate(h)) * self.up(h))


class Outside(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.second = nn.Linear(HIDDEN, HIDDEN, bias=False)

    def forward(self, x):
        return self.second(torch.cumsum(self.first(x), dim=-1) * 1e-2)


def layer_case(batch, context=1023):
    """The layer at one new token over `context` cached ones: SDPA attends
    over 1024 keys (a key count Mirage's tilings divide; over 1025 the
    search finds no kernel that helps, docs/TorchCompile.md)."""
    model = DecoderLayer()
    caches = [torch.randn(batch, KV_HEADS, context, HEAD) for _ in range(2)]
    angles = torch.rand(1, 1, 1, HEAD) * math.pi
    inputs = [torch.randn(batch, 1, HIDDEN)] + caches + [angles.cos(),
                                                         angles.sin()]
    return model, inputs


def llama_case(batch):
    from transformers import LlamaConfig, LlamaForCausalLM
    settings = LlamaConfig(hidden_size=HIDDEN, intermediate_size=INNER,
                           num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                           num_key_value_heads=KV_HEADS, vocab_size=32000,
                           max_position_embeddings=2048, use_cache=False)
    model = LlamaForCausalLM(settings)

    class Logits(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, ids):
            return self.model(input_ids=ids, use_cache=False).logits

    return Logits(), [torch.randint(0, 32000, (batch, 1))]


def outside_case(batch):
    return Outside(), [torch.randn(batch, 1, HIDDEN)]


CASES = {"layer": layer_case, "llama": llama_case, "outside": outside_case}
#: How each variant is compiled.
VARIANTS = {"mirage": dict(backend="mirage", mode="reduce-overhead"),
            # The same, in Inductor's CUDA graph trees instead of the
            # backend's own CUDA graph (config.own_cuda_graphs).
            "mirage_trees": dict(backend="mirage", mode="reduce-overhead"),
            "max_autotune": dict(mode="max-autotune"),
            "reduce_overhead": dict(mode="reduce-overhead")}


def on_gpu(model, inputs):
    model = model.to("cuda", torch.float16).eval()
    inputs = [x.to("cuda", torch.float16) if x.is_floating_point() else
              x.to("cuda") for x in inputs]
    return model, inputs


def microseconds(function, inputs, calls=200):
    return back_to_back_us(lambda: function(*inputs), calls=calls)


PROFILE = False
#: A directory for each variant's Chrome trace (--trace), or None.
TRACES = None


def gpu_microseconds(function, inputs, trials=20):
    """The GPU time of one call: the call is queued behind a spin kernel
    long enough to cover its launch overhead, so that events around it time
    its kernels back to back."""
    best = math.inf
    for _ in range(trials):
        torch.cuda._sleep(2_000_000)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        function(*inputs)
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) * 1000)
    return best


def profile(label, function, inputs, calls=20, trace=None):
    """Prints the CUDA kernels of `calls` calls, most time first, then
    the CPU's work, most time first; writes the Chrome trace to `trace`
    when given (where the GPU waits for the CPU, and for what)."""
    from torch.profiler import ProfilerActivity
    with torch.profiler.profile(activities=[ProfilerActivity.CPU,
                                            ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            function(*inputs)
        torch.cuda.synchronize()
    print(f"== {label}: {calls} calls", flush=True)
    print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=25,
                                    max_name_column_width=70), flush=True)
    print(prof.key_averages().table(sort_by="self_cpu_time_total",
                                    row_limit=25,
                                    max_name_column_width=70), flush=True)
    if trace:
        prof.export_chrome_trace(trace)


def error(got, expected):
    got, expected = got.float(), expected.float()
    return (got - expected).abs().max().item() / max(
        expected.abs().max().item(), 1e-6)


def run_case(name, batch, variants=("mirage", "max_autotune",
                                     "reduce_overhead")):
    torch.manual_seed(0)
    model, inputs = on_gpu(*CASES[name](batch))
    row = {"model": name, "batch": batch}
    with torch.no_grad():
        expected = model(*inputs)
        row["eager_us"] = microseconds(model, inputs)
        row["eager_gpu_us"] = gpu_microseconds(model, inputs)
        for variant in variants:
            options = VARIANTS[variant]
            # Each variant is compiled and timed before the next one, whose
            # reset discards its compiled code.
            torch._dynamo.reset()
            config.own_cuda_graphs = variant != "mirage_trees"
            before = len(mirage.torch.reports())
            graphs_before = len(mirage.torch.cuda_graphs())
            function = torch.compile(model, dynamic=False, **options)
            start = time.time()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                got = function(*inputs)
                got = function(*inputs)
            row[f"{variant}_compile_s"] = round(time.time() - start, 1)
            row[f"{variant}_error"] = error(got, expected)
            if variant == "mirage":
                from torch._dynamo.utils import counters
                row["inductor_counters"] = {
                    k: dict(v) for k, v in counters.items()
                    if k in ("inductor", "graph_break")}
                row["subgraphs"] = mirage.torch.reports()[before:]
            if variant.startswith("mirage"):
                row[f"{variant}_cuda_graphs"] = \
                    mirage.torch.cuda_graphs()[graphs_before:]
                row["warnings"] = [str(w.message) for w in caught
                                   if "mirage" in str(w.message)]
            row[f"{variant}_us"] = microseconds(function, inputs)
            row[f"{variant}_gpu_us"] = gpu_microseconds(function, inputs)
            if variant == "mirage":
                row["weight_restacks"] = sum(
                    s.restacks for s in mirage.torch.ops.registered().values())
            if PROFILE:
                profile(f"{name} batch {batch}, {variant}", function,
                        inputs, trace=TRACES and
                        f"{TRACES}/{name}-b{batch}-{variant}.json")
    add_speedups(row)
    return row


def add_speedups(row):
    """Mirage's speed-ups over max-autotune (in its own CUDA graph, and in
    Inductor's trees), for the variants `row` has."""
    for variant, prefix in (("mirage", ""), ("mirage_trees", "trees_")):
        if "max_autotune_us" in row and f"{variant}_us" in row:
            row[f"{prefix}speedup_vs_max_autotune"] = \
                row["max_autotune_us"] / row[f"{variant}_us"]
            row[f"{prefix}gpu_speedup_vs_max_autotune"] = \
                row["max_autotune_gpu_us"] / row[f"{variant}_gpu_us"]


def child(case, variants):
    """Runs one case in this process and prints its row."""
    name, batch = case.split(":")
    try:
        row = run_case(name, int(batch), variants)
    except Exception as failure:  # noqa: BLE001 - recorded
        # The innermost frames say where (Dynamo wraps a backend's error).
        frames = traceback.format_exception(failure)[-12:]
        row = {"model": name, "batch": int(batch),
               "failed": f"{type(failure).__name__}: {failure}",
               "traceback": "".join(frames)}
    print("ROW " + json.dumps(row), flush=True)


def case_command(args, case):
    """The command that runs `case` (MODEL:BATCH) in a process of its own
    with the options of `args` (main's)."""
    return [sys.executable, __file__, "--case", case, "--variants",
            args.variants, "--time-limit", str(args.time_limit)] + (
                ["--profile"] if args.profile else []) + (
                ["--trace", args.trace] if args.trace else [])


def parse_arguments(argv=None):
    """main's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="layer,llama,outside")
    parser.add_argument("--batches", default="1,8")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--time-limit", type=float, default=30)
    parser.add_argument("--out", default="torch-compile.json")
    parser.add_argument("--profile", action="store_true",
                        help="print the kernels of each variant's calls")
    parser.add_argument("--trace", metavar="DIR",
                        help="profile, and write each variant's Chrome "
                        "trace to DIR")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main():
    args = parse_arguments()
    global PROFILE, TRACES
    PROFILE = args.profile or bool(args.trace)
    TRACES = args.trace
    if TRACES:
        os.makedirs(TRACES, exist_ok=True)
    config.time_limit = args.time_limit
    if args.case:
        name = args.case.split(":")[0]
        child(args.case, ["mirage"] if name == "outside" else
              args.variants.split(","))
        return 0
    # Each case in a process of its own: Dynamo's and the CUDA graph trees'
    # state from one model does not reach the next.
    rows = []
    for name in args.models.split(","):
        batches = [1] if name == "outside" else \
            [int(b) for b in args.batches.split(",")]
        for batch in batches:
            run = subprocess.run(case_command(args, f"{name}:{batch}"),
                                 stdout=subprocess.PIPE, text=True)
            sys.stdout.write(run.stdout)
            found = [line[4:] for line in run.stdout.splitlines()
                     if line.startswith("ROW ")]
            rows.append(json.loads(found[-1]) if found else {
                "model": name, "batch": batch,
                "failed": f"exit status {run.returncode}"})
            with open(args.out, "w") as handle:
                json.dump({"device": torch.cuda.get_device_name(),
                           "torch": torch.__version__, "rows": rows},
                          handle, indent=1)
    return 1 if any("failed" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
