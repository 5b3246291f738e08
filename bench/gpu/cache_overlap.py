"""Times every function of every entry of a kernel cache with and without
programmatic dependent launch, on a GPU (docs/TorchCompile.md, "What
happens at compile time"): the torch backend's pieces as they run in a
model, one call in a CUDA graph.

    python3 bench/gpu/cache_overlap.py $MIRAGE_CACHE_DIR

Prints one line per function: the entry, the function, its input shapes,
then with the overlap and without it, the microseconds of one call three
ways: launched from Python back to back (mostly the CPU's work), a CUDA
graph of one call replayed back to back, and that graph after an L2 flush.
Inputs are random, scaled so that nothing overflows.
"""

import argparse
import pathlib

import torch

from event_timing import back_to_back_us, median_us
from mirage import runtime


def after_flush_us(function, flush):
    """The median time of `function` after an L2 flush (writing `flush`,
    a byte tensor), the flush untimed: a spin kernel covers the launch."""
    def flush_l2():
        flush.add_(1)
        torch.cuda._sleep(1_000_000)
    return median_us(function, repeat=20, warmup=0, before=flush_l2)


def times(function, inputs, outputs, flush):
    """The three times of `function` with the overlap, then without."""
    row = []
    for overlap in (True, False):
        def call():
            function(*inputs, out=outputs, overlap=overlap)
        row.append(back_to_back_us(call, calls=50, warmup=5))
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            call()
        row.append(back_to_back_us(graph.replay, calls=50, warmup=5))
        row.append(after_flush_us(graph.replay, flush))
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache", type=pathlib.Path,
                        help="the kernel cache ($MIRAGE_CACHE_DIR)")
    args = parser.parse_args()
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    generator = torch.Generator(device="cuda").manual_seed(0)
    for entry in sorted((args.cache / "kernels").iterdir()):
        if not (entry / "plan.json").is_file():
            continue
        bundle = runtime.load_bundle(entry)
        for name in bundle.functions:
            function = bundle(name)
            inputs = [(torch.randn(s.shape, device="cuda",
                                   generator=generator) * 0.05).to(
                                       runtime.torch_dtype(s.dtype))
                      for s in function.spec.inputs]
            outputs = [torch.empty(s.shape, device="cuda",
                                   dtype=runtime.torch_dtype(s.dtype))
                       for s in function.spec.outputs]
            shapes = [list(s.shape) for s in function.spec.inputs]
            row = times(function, inputs, outputs, flush)
            print(entry.name[:8], name, shapes,
                  " ".join(f"{t:.2f}" for t in row), flush=True)


if __name__ == "__main__":
    main()
