"""Python side of Mirage-MLIR.

    import mirage as mi
    graph = mi.new_kernel_graph()
    X = graph.new_input(dims=(8, 4096), dtype=mi.float16)
    ...
    kernel = graph.superoptimize()

`mirage.graph` builds kernel graphs, `mirage.kernel` superoptimizes them into
callable kernels, and `mirage.compiler` is the compiler in-process
(docs/Python.md). `mirage.runtime` runs compiled bundles from PyTorch
(docs/Runtime.md); `mirage.plan` reads their plan.json; `mirage.interpreter`
evaluates the programs a plan records, on the array libraries of
`mirage.backends`; `mirage.mugraphs` says which benchmark program each saved
µGraph implements. Nothing here imports torch at import time.
"""

import pathlib

#: The checkout this package is imported from (it lives in python/mirage/
#: there): where the runtime library is built by default and where
#: mirage.mugraphs finds examples/. Meaningful when the package is used in
#: place (PYTHONPATH=python, or an editable install).
CHECKOUT = pathlib.Path(__file__).resolve().parents[2]

# These need CHECKOUT defined first.
from mirage.blockgraph import new_threadblock_graph  # noqa: E402
from mirage.equivalence import Equivalence, check_equivalence  # noqa: E402
from mirage.graph import (  # noqa: E402
    KernelGraph, Tensor, bfloat16, float16, float32, from_mlir, load,
    new_graph, new_kernel_graph)

__all__ = ["CHECKOUT", "Equivalence", "KernelGraph", "Tensor", "bfloat16",
           "check_equivalence", "float16", "float32", "from_mlir", "load",
           "new_graph", "new_kernel_graph", "new_threadblock_graph"]
