#!/usr/bin/env python3
"""cuBLAS's GEMV speed for both layouts of the weight, on a GPU.

    python3 bench/sweep/gemv_layouts.py

For each shape (rows of X, k, n), times `X @ W` with W stored (k, n), as
the benchmark programs and the torch backend's frozen weights hold it, and
`F.linear(X, W)` with W stored (n, k), as `nn.Linear` holds it: medians of
CUDA-graph replays of 10 calls (triton.testing.do_bench), and the weight's
bytes over that time (docs/Benchmarks/KernelProfiles.md, "GEMV kernels").
"""
import torch
from torch.nn import functional
from triton.testing import do_bench

SHAPES = [(1, 4096, 6144), (2, 4096, 6144), (8, 4096, 6144),
          (1, 2048, 8192), (1, 8192, 2048), (1, 2048, 16384)]


def graph_us(call):
    """The median µs of one call, replayed 10 at a time from a CUDA graph."""
    call()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(10):
            call()
    return do_bench(graph.replay, warmup=50, rep=300) / 10 * 1000


def main():
    torch.manual_seed(0)
    for rows, k, n in SHAPES:
        x = torch.randn(rows, k, device="cuda", dtype=torch.half)
        w_kn = torch.randn(k, n, device="cuda", dtype=torch.half)
        w_nk = w_kn.t().contiguous()
        megabytes = k * n * 2 / 1e6
        kn = graph_us(lambda: torch.matmul(x, w_kn))
        nk = graph_us(lambda: functional.linear(x, w_nk))
        print(f"rows {rows} k {k} n {n}: X @ W(k, n) {kn:.2f} us "
              f"({megabytes / kn:.2f} TB/s), linear W(n, k) {nk:.2f} us "
              f"({megabytes / nk:.2f} TB/s)")


if __name__ == "__main__":
    main()
