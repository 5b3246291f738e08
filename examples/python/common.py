"""What the Python examples share: command-line options, and the check and
timing of a Mirage kernel against PyTorch on a GPU."""

import argparse
import sys


def options(description):
    """--time-limit (of the search) and --compile-only (superoptimize and
    stop: no GPU needed)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--compile-only", action="store_true")
    return parser.parse_args()


def gpu_or_stop(kernels, args):
    """Prints where the kernels are; returns torch when a GPU is there to
    run them, else stops (compile-only, or no CUDA device)."""
    for name, kernel in kernels.items():
        print(f"{name}: {kernel.directory}")
        print("  " + kernel.remarks.splitlines()[0].split("remark: ")[-1])
    if args.compile_only:
        sys.exit(0)
    try:
        import torch
    except ImportError:
        sys.exit("torch is not installed: the kernels were compiled, not run")
    if not torch.cuda.is_available():
        sys.exit("no CUDA device: the kernels were compiled, not run")
    return torch


def check_and_time(torch, name, mirage_fn, torch_fn, bound=2e-2):
    """Checks mirage_fn() against torch_fn() (relative to the largest
    expected magnitude), then times both as CUDA graphs of 10 calls; prints
    both and exits non-zero on a mismatch."""
    expected = torch_fn().float()
    actual = mirage_fn().float()
    error = ((actual - expected).abs().max() /
             expected.abs().max().clamp_min(1e-6)).item()
    print(f"{name}: max relative error {error:.2e} (bound {bound:.0e})")

    def timed(fn):
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            for _ in range(3):
                fn()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=stream):
                for _ in range(10):
                    fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(20):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            graph.replay()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 100.0)  # µs per call
        return sorted(times)[len(times) // 2]

    mirage_us, torch_us = timed(mirage_fn), timed(torch_fn)
    print(f"{name}: Mirage {mirage_us:.1f} µs, PyTorch {torch_us:.1f} µs "
          f"({torch_us / mirage_us:.2f}x)")
    if not error <= bound:
        sys.exit(f"{name}: the result differs from PyTorch's")
