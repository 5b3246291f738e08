"""The candidates of a search checkpoint are programs of the one program
form (docs/Runtime.md, "Programs"): the interpreter loads and evaluates them
like a bundle's. The committed checkpoint (checkpoint/) was written by
mirage-opt with SEARCH; a fresh one is written too where mirage-opt is
built."""

import json
import os
import pathlib
import subprocess

import pytest

from mirage import interpreter
from mirage.backends import NumpyBackend
from mirage.interpreter import Program

np = pytest.importorskip("numpy")

REPO = pathlib.Path(__file__).resolve().parents[2]
OPTIMIZER = REPO / "build" / "bin" / "mirage-opt"
DATA = pathlib.Path(__file__).resolve().parent / "checkpoint"
SOURCE = DATA / "rmsnorm_linear.mlir"
COMMITTED = DATA / "rmsnorm_linear.checkpoint.json"
#: The search options of the committed checkpoint: the for-loop over x's
#: columns and w's rows, so the candidates accumulate with `sum` and
#: `rms_last`.
SEARCH = "forloop-ranges=4 fmaps=1,0 max-candidates=2"


def tensor(shape):
    return {"shape": list(shape), "dtype": "f16"}


#: What SOURCE's @rmsnorm_linear computes.
REFERENCE = {
    "values": [tensor([2, 64]), tensor([64, 32]), tensor([2, 64]),
               tensor([2, 32])],
    "inputs": [0, 1],
    "outputs": [3],
    "ops": [
        {"op": "rms_norm", "operands": [0], "results": [2], "size": 64,
         "eps": 0.0},
        {"op": "matmul", "operands": [2, 1], "results": [3]},
    ],
}


@pytest.fixture(params=["committed", "fresh"])
def checkpoint(request, tmp_path):
    if request.param == "committed":
        return COMMITTED
    if not OPTIMIZER.exists():
        pytest.skip(f"{OPTIMIZER} is not built")
    path = tmp_path / "checkpoint.json"
    subprocess.run([OPTIMIZER, SOURCE, "-o", os.devnull,
                    f"--mirage-superoptimize={SEARCH} checkpoint={path}"],
                   check=True, capture_output=True)
    return path


def test_candidates_compute_the_reference(checkpoint):
    data = json.loads(checkpoint.read_text())
    assert data["format"] == "mirage-search-checkpoint"
    candidates = data["searches"]["rmsnorm_linear"]["candidates"]
    assert len(candidates) == 2
    reference = Program.from_json(REFERENCE)
    generator = np.random.default_rng(0)
    inputs = [generator.standard_normal((2, 64)).astype(np.float16),
              (generator.standard_normal((64, 32)) / 8).astype(np.float16)]
    [expected] = interpreter.evaluate(reference, inputs, NumpyBackend(),
                                      "f64")
    for index, candidate in enumerate(candidates):
        program = Program.from_json(candidate, f"candidate {index}",
                                    block_graphs=True)
        program.check_signature(reference.input_types,
                                reference.output_types)
        names = {op.name for graph_def in program.ops
                 for op in graph_def.body.ops}
        assert {"input_loader", "forloop_accum", "output_saver"} <= names
        [result] = interpreter.evaluate(program, inputs, NumpyBackend(),
                                        "f64")
        np.testing.assert_allclose(result, expected, rtol=1e-9, atol=1e-9)
