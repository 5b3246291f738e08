"""Tests of mirage.runtime that need neither a GPU, torch, nor the library:
plan reading, argument checking on duck-typed tensors, library lookup."""

import json
import pathlib
import sys

import pytest

from mirage import runtime

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
        self._strides = tuple(strides or runtime.contiguous_strides(shape))
        self.device = device
        self._pointer = pointer

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._pointer


def spec():
    """f(x: f16[4, 1, 8], y: f32[8]) -> f16[4, 8]"""
    return runtime.FunctionSpec(
        "f", [runtime.TensorSpec([4, 1, 8], "f16"),
              runtime.TensorSpec([8], "f32")],
        [runtime.TensorSpec([4, 8], "f16")])


def valid_inputs():
    return [FakeTensor([4, 1, 8]),
            FakeTensor([8], "torch.float32", pointer=0x20000)]


def test_import_needs_no_torch():
    assert "torch" not in sys.modules


def test_reads_the_test_bundles():
    specs = runtime.read_plan(BUNDLES / "scale_add")
    assert list(specs) == ["scale_add", "mean_bf16"]
    scale_add = specs["scale_add"]
    assert [t.shape for t in scale_add.inputs] == [(8, 300), (8, 300)]
    assert scale_add.outputs[0].dtype == "f32"
    assert scale_add.outputs[0].strides == (300, 1)
    assert scale_add.reference["ops"][1]["op"] == "mul_scalar"
    assert scale_add.program is None
    assert specs["mean_bf16"].inputs[0].strides == (35, 7, 1)
    cluster = runtime.read_plan(BUNDLES / "cluster_exp")["cluster_exp"]
    assert cluster.inputs[0].dtype == "f16"


def write_plan(tmp_path, plan):
    (tmp_path / "plan.json").write_text(
        plan if isinstance(plan, str) else json.dumps(plan))
    return tmp_path


def test_plan_errors_name_the_field(tmp_path):
    good = json.loads((BUNDLES / "cluster_exp" / "plan.json").read_text())
    with pytest.raises(ValueError, match="cannot read"):
        runtime.read_plan(tmp_path)
    with pytest.raises(ValueError, match="invalid JSON"):
        runtime.read_plan(write_plan(tmp_path, "{"))
    with pytest.raises(ValueError, match='format: expected "mirage-bundle"'):
        runtime.read_plan(write_plan(tmp_path, dict(good, format="x")))
    with pytest.raises(ValueError, match="version: unsupported version 2"):
        runtime.read_plan(write_plan(tmp_path, dict(good, version=2)))
    with pytest.raises(ValueError, match="functions: expected a non-empty"):
        runtime.read_plan(write_plan(tmp_path, dict(good, functions=[])))
    bad = json.loads(json.dumps(good))
    bad["functions"][0]["inputs"][0]["dtype"] = "f64"
    with pytest.raises(ValueError,
                       match=r"functions\[0\]\.inputs\[0\]\.dtype: unknown "
                             "dtype 'f64'"):
        runtime.read_plan(write_plan(tmp_path, bad))
    bad = json.loads(json.dumps(good))
    bad["functions"][0]["outputs"][0]["shape"] = [2, 0]
    with pytest.raises(ValueError,
                       match=r"functions\[0\]\.outputs\[0\]\.shape: expected "
                             "an array of positive integers"):
        runtime.read_plan(write_plan(tmp_path, bad))
    bad = json.loads(json.dumps(good))
    bad["functions"].append(bad["functions"][0])
    with pytest.raises(ValueError, match="duplicate function name"):
        runtime.read_plan(write_plan(tmp_path, bad))


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
