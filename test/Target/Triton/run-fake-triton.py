"""Runs the host functions of a generated Triton module on the numpy fake
(fake_triton.py) and compares each with the program of the same name in a
bundle's plan.json, evaluated by mirage.interpreter in float64.

    run-fake-triton.py MODULE.py BUNDLE_DIR [--real]

With --real, the module runs on the real torch and Triton, on the GPU.
Prints `NAME: ok` or `NAME: FAIL ...` per function and exits 1 if any
failed. Inputs are seeded normal(0, 1) * 0.1, rounded to their dtypes.
"""

import importlib.util
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fake_triton  # noqa: E402

from mirage import interpreter  # noqa: E402
from mirage.backends import NumpyBackend  # noqa: E402
from mirage.plan import read_plan  # noqa: E402

#: Bound on max|out - expected| / max|expected|: the kernels compute in
#: float32 and round only their stored outputs.
BOUND = 1e-2


def array_library(real):
    """(make, read): a tensor of a dtype from a numpy array, and the numpy
    array of a tensor, on the real torch or the fake."""
    if not real:
        fake_triton.install()
        return fake_triton.Tensor, lambda tensor: tensor.data
    import torch
    return (lambda array, dtype: torch.tensor(array, dtype=torch.float32)
            .to(dtype).cuda(),
            lambda tensor: tensor.float().cpu().numpy())


def main(module_path, bundle, *flags):
    make, read = array_library("--real" in flags)
    spec = importlib.util.spec_from_file_location("generated", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    plan = read_plan(bundle)
    backend = NumpyBackend()
    rng = np.random.default_rng(0)
    failed = False
    for name, (function, inputs, _) in module.FUNCTIONS.items():
        program = interpreter.Program.from_json(
            plan.functions[name].program, name, block_graphs=True)
        tensors = [make(rng.standard_normal(shape) * 0.1, dtype)
                   for shape, dtype in inputs]
        outputs = function(*tensors)
        expected = interpreter.evaluate(
            program, [read(t).astype(np.float64) for t in tensors], backend,
            "f64")
        errors = []
        for out, want in zip(outputs, expected):
            got = read(out).astype(np.float64)
            scale = max(np.abs(want).max(), 1e-30)
            errors.append(float(np.abs(got - want).max() / scale)
                          if np.isfinite(got).all() else float("inf"))
        worst = max(errors)
        if worst <= BOUND:
            print(f"{name}: ok")
        else:
            failed = True
            print(f"{name}: FAIL (relative error {worst:.3g})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
