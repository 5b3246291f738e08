"""Tests of mirage.plan: reading the test bundles, and errors that name the
file and the field."""

import json
import pathlib
import re

import pytest

from mirage.kernel import Kernel
from mirage.plan import PlanError, TensorSpec, parse_plan, read_plan

BUNDLES = pathlib.Path(__file__).resolve().parents[2] / "runtime" / "test" / \
    "bundles"


def test_reads_the_test_bundles():
    specs = read_plan(BUNDLES / "scale_add").functions
    assert list(specs) == ["scale_add", "mean_bf16"]
    scale_add = specs["scale_add"]
    assert [t.shape for t in scale_add.inputs] == [(8, 300), (8, 300)]
    assert scale_add.outputs[0].dtype == "f32"
    assert scale_add.outputs[0].strides == (300, 1)
    assert scale_add.reference["ops"][1]["op"] == "mul_scalar"
    assert scale_add.program is None and scale_add.tuning is None
    tuned = read_plan(BUNDLES / "tuning_mean").functions
    assert [f.tuning["candidate"] for f in tuned.values()] == [-1, 0, 1, 2]
    assert specs["mean_bf16"].inputs[0].strides == (35, 7, 1)
    cluster = read_plan(BUNDLES / "cluster_exp")
    assert cluster.functions["cluster_exp"].inputs[0].dtype == "f16"
    assert cluster.ptx == {"sm_90a": "sm_90a.ptx"}


def test_a_function_may_overlap_with_two_kernels_in_a_row(tmp_path):
    specs = read_plan(BUNDLES / "scale_add").functions
    assert [f.may_overlap for f in specs.values()] == [True, False]
    # A Kernel of the PTX backend says so too.
    assert Kernel(BUNDLES / "scale_add", "scale_add", 2).may_overlap
    assert not Kernel(BUNDLES / "scale_add", "mean_bf16", 1).may_overlap
    # Library calls never overlap.
    library = read_plan(BUNDLES / "library_matmul").functions
    assert not any(f.may_overlap for f in library.values())
    serial = json.loads((BUNDLES / "scale_add" / "plan.json").read_text())
    serial["functions"][0]["overlap"] = False
    for name in ("sm_80.ptx", "sm_90a.ptx"):
        if (BUNDLES / "scale_add" / name).is_file():
            (tmp_path / name).write_text("// ptx\n")
    spec = read_plan(write_plan(tmp_path, serial)).functions["scale_add"]
    assert not spec.may_overlap


def write_plan(tmp_path, plan):
    (tmp_path / "plan.json").write_text(
        plan if isinstance(plan, str) else json.dumps(plan))
    return tmp_path


def test_plan_errors_name_the_bundle_and_the_field(tmp_path):
    good = json.loads((BUNDLES / "cluster_exp" / "plan.json").read_text())
    (tmp_path / "sm_90a.ptx").write_text("// sm_90a\n")
    at = f"bundle {tmp_path}: plan.json: "
    with pytest.raises(PlanError, match=f"bundle {tmp_path}: cannot read "):
        read_plan(tmp_path)
    with pytest.raises(PlanError, match="not a directory"):
        read_plan(tmp_path / "sm_90a.ptx")
    with pytest.raises(PlanError, match=re.escape(at + "line 1, column 2: ")):
        read_plan(write_plan(tmp_path, "{"))
    with pytest.raises(PlanError, match=re.escape(
            at + 'format: expected "mirage-bundle"')):
        read_plan(write_plan(tmp_path, dict(good, format="x")))
    with pytest.raises(PlanError, match="version: unsupported version 2"):
        read_plan(write_plan(tmp_path, dict(good, version=2)))
    with pytest.raises(PlanError,
                       match="functions: expected at least one function"):
        read_plan(write_plan(tmp_path, dict(good, functions=[])))
    bad = json.loads(json.dumps(good))
    bad["functions"][0]["inputs"][0]["dtype"] = "f64"
    with pytest.raises(PlanError,
                       match=re.escape(at + 'functions[0].inputs[0].dtype: '
                                       'unknown dtype "f64"')):
        read_plan(write_plan(tmp_path, bad))
    bad = json.loads(json.dumps(good))
    bad["functions"].append(bad["functions"][0])
    with pytest.raises(PlanError, match="duplicate function name"):
        read_plan(write_plan(tmp_path, bad))
    # A function the tuner measured faster without programmatic dependent
    # launch says "overlap": false.
    serial = json.loads(json.dumps(good))
    serial["functions"][0]["overlap"] = False
    read_plan(write_plan(tmp_path, serial))
    serial["functions"][0]["overlap"] = 0
    with pytest.raises(PlanError, match=re.escape(
            at + "functions[0].overlap: expected true or false")):
        read_plan(write_plan(tmp_path, serial))
    with pytest.raises(PlanError, match="ptx: expected at least one chip"):
        read_plan(write_plan(tmp_path, dict(good, ptx={})))
    plan = read_plan(write_plan(tmp_path, good))
    assert plan.ptx == {"sm_90a": "sm_90a.ptx"}
    (tmp_path / "sm_90a.ptx").unlink()
    with pytest.raises(PlanError, match=re.escape(
            at + 'ptx.sm_90a: file "sm_90a.ptx" not found')):
        read_plan(tmp_path)
    (tmp_path / "sm_90a.ptx").mkdir()
    with pytest.raises(PlanError, match="not found"):
        read_plan(tmp_path)


def test_plan_errors_are_value_errors(tmp_path):
    with pytest.raises(ValueError):
        parse_plan(b"[]")
    with pytest.raises(PlanError, match="^plan.json: expected an object, "
                                        "got an array$"):
        parse_plan(b"[]")


def test_tensor_specs_compare_by_shape_and_dtype():
    spec = TensorSpec([2, 3], "f16")
    assert spec == TensorSpec((2, 3), "f16")
    assert spec != TensorSpec([2, 3], "f32") and spec != (2, 3)
    assert str(spec) == "f16[2, 3]" and spec.strides == (3, 1)


