"""Python side of Mirage-MLIR.

`mirage.runtime` runs compiled bundles from PyTorch (docs/Runtime.md). Nothing
here imports torch at import time.
"""
