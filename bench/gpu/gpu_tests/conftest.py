"""Makes the in-tree `mirage` package importable for the GPU tests."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "python"))
