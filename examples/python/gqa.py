"""The group-query attention of the public Mirage README: the graph, the
search with its grid hints, the kernel on torch tensors, checked against
PyTorch and timed.

    PYTHONPATH=python python3 examples/python/gqa.py [--time-limit S]
"""

import mirage as mi
from common import check_and_time, gpu_or_stop, options

args = options(__doc__)
graph = mi.new_kernel_graph("gqa")
Q = graph.new_input(dims=(2, 256, 64), dtype=mi.float16)
K = graph.new_input(dims=(2, 64, 4096), dtype=mi.float16)
V = graph.new_input(dims=(2, 4096, 64), dtype=mi.float16)
A = graph.matmul(Q, K)
E = graph.exp(A)
S = graph.reduction(E, 2)
D = graph.div(E, S)
O = graph.matmul(D, V)
graph.mark_output(O)
kernel = graph.superoptimize(time_limit=args.time_limit,
                             griddims=[(2, 16, 1), (2, 16, 4)])

torch = gpu_or_stop({"gqa": kernel}, args)
q = torch.randn(2, 256, 64, device="cuda", dtype=torch.float16) * 0.1
k = torch.randn(2, 64, 4096, device="cuda", dtype=torch.float16) * 0.1
v = torch.randn(2, 4096, 64, device="cuda", dtype=torch.float16)
out = torch.empty(2, 256, 64, device="cuda", dtype=torch.float16)


def reference():
    e = torch.exp(torch.matmul(q, k))
    return torch.matmul(e / e.sum(dim=2, keepdim=True), v)


check_and_time(torch, "gqa", lambda: kernel(inputs=[q, k, v], out=out)[0],
               reference)
