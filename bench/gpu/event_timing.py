"""Medians of CUDA-event timings, shared by the GPU scripts."""


def median_us(fn, repeat=200, warmup=10, before=None):
    """Median wall time of `fn` on the GPU in microseconds: each call timed
    by a pair of CUDA events after `warmup` untimed calls (the middle of
    `repeat` sorted times, the upper one for an even count). `before()`,
    when given, runs ahead of each timed call, untimed (an L2 flush)."""
    import torch
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    times.sort()
    return times[len(times) // 2]


def graph_us(fn, calls=10, replays=50):
    """Median GPU time of one call of `fn` in microseconds, replayed from a
    CUDA graph of `calls` calls (divided by `calls`): the GPU's time without
    the launches' CPU cost, nor the graph replay's own (which a graph of a
    single call would mostly measure for kernels of a few microseconds)."""
    import torch
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn()
    return median_us(graph.replay, repeat=replays, warmup=3) / calls


def back_to_back_us(fn, calls=200, repeats=5, warmup=10):
    """The least time per call, in microseconds, of `calls` calls of `fn`
    in a row between two CUDA events, over `repeats` tries after `warmup`
    calls: a call's latency when calls follow each other (at small sizes
    mostly the CPU's work per call)."""
    import math

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
