"""LoRA: X W + (X A) B in one graph, superoptimized, checked against PyTorch
and timed.

    PYTHONPATH=python python3 examples/python/lora.py [--time-limit S]
"""

import mirage as mi
from common import check_and_time, gpu_or_stop, options

args = options(__doc__)
graph = mi.new_kernel_graph("lora")
X = graph.new_input(dims=(16, 4096), dtype=mi.float16)
W = graph.new_input(dims=(4096, 4096), dtype=mi.float16)
A = graph.new_input(dims=(4096, 16), dtype=mi.float16)
B = graph.new_input(dims=(16, 4096), dtype=mi.float16)
graph.mark_output(graph.add(graph.matmul(X, W),
                            graph.matmul(graph.matmul(X, A), B)))
kernel = graph.superoptimize(time_limit=args.time_limit)

torch = gpu_or_stop({"lora": kernel}, args)
x = torch.randn(16, 4096, device="cuda", dtype=torch.float16)
w = torch.randn(4096, 4096, device="cuda", dtype=torch.float16) * 0.02
a = torch.randn(4096, 16, device="cuda", dtype=torch.float16) * 0.02
b = torch.randn(16, 4096, device="cuda", dtype=torch.float16) * 0.02
out = torch.empty(16, 4096, device="cuda", dtype=torch.float16)
check_and_time(torch, "lora", lambda: kernel(x, w, a, b, out=out),
               lambda: x @ w + (x @ a) @ b)
