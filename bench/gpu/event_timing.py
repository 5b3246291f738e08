"""Medians of CUDA-event timings, shared by the GPU scripts."""


def median_us(fn, repeat=200, warmup=10):
    """Median wall time of `fn` on the GPU in microseconds: each call timed
    by a pair of CUDA events after `warmup` untimed calls (the middle of
    `repeat` sorted times, the upper one for an even count)."""
    import torch
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    times.sort()
    return times[len(times) // 2]
