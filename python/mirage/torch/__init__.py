"""Mirage inside whole PyTorch models: `torch.compile(model,
backend="mirage")` (docs/TorchCompile.md).

Importing this package registers the backend with Dynamo under the name
"mirage" (an installed package also names it as a `torch_dynamo_backends`
entry point, so that the name works without the import). `config` holds
the backend's settings; `reports()` says what each
compile kept, `cuda_graphs()` how each graph runs in CUDA graphs.
"""

from mirage.torch.dynamo import (Config, backend, clear_reports, config,
                                  cuda_graphs, reports)

__all__ = ["Config", "backend", "clear_reports", "config", "cuda_graphs",
           "reports"]


def _register():
    try:
        from torch._dynamo import list_backends, register_backend
    except ImportError:  # torch before 2.0: torch.fx only, no Dynamo
        return
    if "mirage" not in list_backends(exclude_tags=()):
        register_backend(backend, name="mirage")


_register()
