"""Tests of mirage.runtime that need neither a GPU, torch, nor the library:
argument checking on duck-typed tensors, library lookup."""

import os
import pathlib
import subprocess
import sys

import pytest

from mirage import runtime
from mirage.plan import FunctionSpec, TensorSpec, contiguous_strides

REPO = pathlib.Path(__file__).resolve().parents[2]
BUNDLES = REPO / "runtime" / "test" / "bundles"


class FakeDevice:
    def __init__(self, type, index=None):
        self.type, self.index = type, index

    def __eq__(self, other):
        return (self.type, self.index) == (other.type, other.index)


class FakeTensor:
    """What check_arguments reads of a torch.Tensor."""

    def __init__(self, shape, dtype="torch.float16", strides=None,
                 device=FakeDevice("cuda", 0), pointer=0x10000):
        self.shape = tuple(shape)
        self.dtype = dtype
        self._strides = tuple(strides or contiguous_strides(shape))
        self.device = device
        self._pointer = pointer

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._pointer


def spec():
    """f(x: f16[4, 1, 8], y: f32[8]) -> f16[4, 8]"""
    return FunctionSpec("f", [TensorSpec([4, 1, 8], "f16"),
                              TensorSpec([8], "f32")],
                        [TensorSpec([4, 8], "f16")])


def valid_inputs():
    return [FakeTensor([4, 1, 8]),
            FakeTensor([8], "torch.float32", pointer=0x20000)]


def test_import_needs_no_torch():
    # In a fresh interpreter: other test modules of the session may have
    # imported torch where it is installed.
    code = ("import sys, mirage.runtime, mirage.plan; "
            "sys.exit('torch' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(pathlib.Path(runtime.__file__).resolve().parents[1]),
         os.environ.get("PYTHONPATH", "")]))
    assert subprocess.run([sys.executable, "-c", code], env=env).returncode == 0


def test_accepts_matching_arguments():
    device = runtime.check_arguments(spec(), valid_inputs(),
                                     [FakeTensor([4, 8], pointer=0x30000)])
    assert device == FakeDevice("cuda", 0)
    assert runtime.check_arguments(spec(), valid_inputs()) == device


def test_rejects_wrong_counts():
    with pytest.raises(TypeError, match="f: expected 2 inputs, got 1"):
        runtime.check_arguments(spec(), valid_inputs()[:1])
    with pytest.raises(TypeError, match="f: expected 1 outputs, got 0"):
        runtime.check_arguments(spec(), valid_inputs(), [])


def test_rejects_non_tensors():
    with pytest.raises(TypeError, match="f: input 1: expected a torch.Tensor, "
                                        "got list"):
        runtime.check_arguments(spec(), [valid_inputs()[0], [1.0] * 8])


def test_rejects_wrong_dtype():
    inputs = valid_inputs()
    inputs[1] = FakeTensor([8], "torch.float64")
    with pytest.raises(TypeError, match="f: input 1: expected dtype "
                                        "torch.float32, got torch.float64"):
        runtime.check_arguments(spec(), inputs)


def test_rejects_wrong_shape():
    inputs = valid_inputs()
    inputs[0] = FakeTensor([4, 8, 1])
    with pytest.raises(ValueError, match=r"f: input 0: expected shape "
                                         r"\[4, 1, 8\], got \[4, 8, 1\]"):
        runtime.check_arguments(spec(), inputs)


def test_rejects_non_contiguous_strides():
    with pytest.raises(ValueError, match=r"f: output 0: strides \[1, 4\] "
                                         r"are not the contiguous strides "
                                         r"\[8, 1\]"):
        runtime.check_arguments(spec(), valid_inputs(),
                                [FakeTensor([4, 8], strides=[1, 4])])


def test_ignores_strides_of_unit_dimensions():
    inputs = valid_inputs()
    inputs[0] = FakeTensor([4, 1, 8], strides=[8, 999, 1])
    runtime.check_arguments(spec(), inputs)


def test_rejects_misaligned_pointers():
    inputs = valid_inputs()
    inputs[0] = FakeTensor([4, 1, 8], pointer=0x10002)
    with pytest.raises(ValueError, match="f: input 0: data pointer 0x10002 is "
                                         "not 16-byte aligned"):
        runtime.check_arguments(spec(), inputs)


def test_rejects_cpu_and_mixed_devices():
    inputs = valid_inputs()
    inputs[0] = FakeTensor([4, 1, 8], device=FakeDevice("cpu"))
    with pytest.raises(ValueError, match="f: input 0: on device cpu; bundle "
                                         "functions take CUDA tensors"):
        runtime.check_arguments(spec(), inputs)
    inputs = valid_inputs()
    with pytest.raises(ValueError, match="f: output 0: on cuda:1, but input 0 "
                                         "is on cuda:0"):
        runtime.check_arguments(
            spec(), inputs, [FakeTensor([4, 8], device=FakeDevice("cuda", 1))])


def test_finds_the_library(tmp_path, monkeypatch):
    library = tmp_path / "libmirage_runtime.so"
    library.write_bytes(b"")
    assert runtime.find_library(library) == library
    monkeypatch.setenv(runtime.LIBRARY_ENV, str(library))
    assert runtime.find_library() == library
    monkeypatch.setenv(runtime.LIBRARY_ENV, str(tmp_path / "missing.so"))
    with pytest.raises(FileNotFoundError,
                       match=r"missing\.so \(\$MIRAGE_RUNTIME_LIBRARY\)"):
        runtime.find_library()
    monkeypatch.delenv(runtime.LIBRARY_ENV)
    default = REPO / "build-runtime" / runtime.LIBRARY_NAME
    if not default.exists():
        with pytest.raises(FileNotFoundError, match="the default"):
            runtime.find_library()


def test_load_bundle_reports_a_missing_library(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found at"):
        runtime.load_bundle(BUNDLES / "scale_add",
                            library=tmp_path / "none.so")

