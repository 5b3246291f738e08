"""CUDA-event timing shared by the torch backend and the GPU scripts."""

import math

__all__ = ["back_to_back_us"]


def back_to_back_us(fn, calls=200, repeats=5, warmup=10):
    """The least time per call, in microseconds, of `calls` calls of `fn`
    in a row between two CUDA events, over `repeats` tries after `warmup`
    calls: a call's latency when calls follow each other (at small sizes
    mostly the CPU's work per call)."""
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    best = math.inf
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) * 1000 / calls)
    return best
