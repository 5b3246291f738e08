"""Medians of CUDA-event timings, shared by the GPU scripts (and the
back-to-back latency of mirage.timing, which the torch backend uses too)."""

from mirage.timing import back_to_back_us

__all__ = ["median_us", "graph_us", "back_to_back_us"]


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
