"""Python side of Mirage-MLIR.

`mirage.runtime` runs compiled bundles from PyTorch (docs/Runtime.md);
`mirage.plan` reads their plan.json; `mirage.interpreter` evaluates the
programs a plan records, on the array libraries of `mirage.backends`;
`mirage.mugraphs` says which benchmark program each saved µGraph
implements. Nothing here imports torch at import time.
"""

import pathlib

#: The checkout this package is imported from (it lives in python/mirage/
#: there): where the runtime library is built by default and where
#: mirage.mugraphs finds examples/. Meaningful when the package is used in
#: place (PYTHONPATH=python, or an editable install).
CHECKOUT = pathlib.Path(__file__).resolve().parents[2]
