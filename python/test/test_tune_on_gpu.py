"""mirage-tune on a GPU: how it draws inputs the program as written can
compute. bench/gpu-check.sh and bench/gpu-pipeline.sh run it; elsewhere it
skips.

The tool is $MIRAGE_TUNE or build-runtime/mirage-tune.
"""

import os
import pathlib
import subprocess

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

ROOT = pathlib.Path(__file__).resolve().parents[2]
TUNE = pathlib.Path(os.environ.get("MIRAGE_TUNE",
                                   ROOT / "build-runtime" / "mirage-tune"))
MEAN = ROOT / "runtime" / "test" / "bundles" / "tuning_mean"
if not TUNE.is_file():
    pytest.skip(f"{TUNE} is not built", allow_module_level=True)


def tune(tmp_path, *options):
    result = subprocess.run(
        [str(TUNE), str(MEAN), "--db", str(tmp_path / "db.json"),
         "--runs", "3", "--warmup", "1", *options],
        capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout + result.stderr


def test_inputs_shrink_until_the_program_as_written_is_finite(tmp_path):
    # f32 inputs of scale 1e39 are infinite; some scale 16^k times smaller
    # gives a finite mean.
    status, output = tune(tmp_path, "--input-scale", "1e39")
    assert status == 0, output
    assert "overflows at input scale 1e+39: inputs drawn at" in output
    assert "winner" in output


def test_a_program_that_overflows_at_every_scale_fails_its_group(tmp_path):
    status, output = tune(tmp_path, "--input-scale", "1e300")
    assert status == 1, output
    assert "gives non-finite outputs even on inputs of scale" in output
    assert not (tmp_path / "db.json").exists()


def test_input_scale_must_be_positive(tmp_path):
    status, output = tune(tmp_path, "--input-scale", "0")
    assert status == 2, output
    assert "--input-scale: expected a positive number" in output


def test_the_runtime_library_tunes_a_bundle(tmp_path):
    # mirage.runtime's Bundle.tune: the same measurement through the C API
    # (mirage_bundle_tune), as superoptimize(tune=True) uses it.
    from mirage import runtime
    bundle = runtime.load_bundle(MEAN)
    try:
        report = bundle.tune(database=tmp_path / "db.json")
    finally:
        bundle.close()
    assert "winner: " in report
    assert "candidate 1" in report
    assert (tmp_path / "db.json").is_file()


def test_the_tuning_c_api_checks_its_arguments():
    import ctypes
    from mirage import runtime
    library = runtime._load_library(runtime.find_library())
    report = ctypes.c_char_p()
    assert library.mirage_bundle_tune(None, None, ctypes.byref(report)) == 1
    assert library.mirage_last_error() == b"mirage_bundle_tune: null argument"
