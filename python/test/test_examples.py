"""examples/python/: each example builds its graphs and superoptimizes them
(--compile-only: no GPU needed); on a GPU they also check and time."""

import os
import subprocess
import sys

import pytest

from mirage import CHECKOUT

EXAMPLES = CHECKOUT / "examples" / "python"


@pytest.mark.parametrize("example", ["gqa", "lora", "llama_layer"])
def test_example_compiles(compiler_library, kernel_cache, example):
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / f"{example}.py"), "--compile-only",
         "--time-limit", "5"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(CHECKOUT / "python")})
    assert run.returncode == 0, run.stderr
    assert "superoptimized:" in run.stdout
    assert str(kernel_cache) in run.stdout
