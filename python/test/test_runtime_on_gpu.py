"""Tests of the runtime's driver-side behaviour that need a GPU and torch:
bundles that load fails on, with the messages it gives, and interplay with
PyTorch streams. bench/gpu-check.sh runs them; elsewhere they skip.

The runtime library is $MIRAGE_RUNTIME_LIBRARY or build-runtime/'s.
"""

import json
import pathlib
import shutil

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

from mirage import runtime  # noqa: E402

BUNDLES = pathlib.Path(__file__).resolve().parents[2] / "runtime" / "test" / \
    "bundles"
MAJOR = torch.cuda.get_device_capability(0)[0]
OWN_CHIP = "sm_90a" if MAJOR == 9 else "sm_80"


def edited_bundle(tmp_path, edit_plan=None, edit_ptx=None):
    """A copy of the scale_add test bundle, with plan.json and the device
    chip's PTX passed through the given edits."""
    bundle = tmp_path / "bundle"
    shutil.copytree(BUNDLES / "scale_add", bundle)
    if edit_plan:
        plan = json.loads((bundle / "plan.json").read_text())
        edit_plan(plan)
        (bundle / "plan.json").write_text(json.dumps(plan))
    if edit_ptx:
        ptx = bundle / f"{OWN_CHIP}.ptx"
        ptx.write_text(edit_ptx(ptx.read_text()))
    return bundle


def load_error(bundle):
    with pytest.raises(runtime.MirageError) as error:
        runtime.load_bundle(bundle, device=0)
    return str(error.value)


def test_loads_and_runs_on_a_side_stream():
    bundle = runtime.load_bundle(BUNDLES / "scale_add", device=0)
    x, y = (torch.randn(8, 300, device="cuda") for _ in range(2))
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        out = bundle("scale_add")(x, y)
    stream.synchronize()
    assert torch.equal(out, (x + y) * 0.5)
    assert bundle.chip(0) == OWN_CHIP


def test_missing_kernel(tmp_path):
    bundle = edited_bundle(tmp_path, edit_plan=lambda plan: plan["functions"][
        0]["launches"][1].update(kernel="nope"))
    assert f"scale_add: launch 1 (kernel nope): the {OWN_CHIP} PTX has no " \
        "kernel of that name" in load_error(bundle)


def test_invalid_ptx_reports_the_jit_log(tmp_path):
    bundle = edited_bundle(tmp_path, edit_ptx=lambda ptx: ptx.replace(
        "add.f32 %f3, %f1, %f2;", "add.f32 %f3, %f1, %f9;"))
    message = load_error(bundle)
    assert "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX" in message
    assert "%f9" in message  # From the JIT's error log.


def test_shared_memory_beyond_the_device(tmp_path):
    bundle = edited_bundle(tmp_path, edit_plan=lambda plan: plan["functions"][
        0]["launches"][0].update(shared_memory=1 << 20))
    assert "scale_add: launch 0 (kernel add_f32_2400): 1048576 bytes of " \
        "dynamic shared memory (plus 0 static) exceed the" in \
        load_error(bundle)


def test_block_beyond_the_kernel_limit(tmp_path):
    bundle = edited_bundle(tmp_path, edit_ptx=lambda ptx: ptx.replace(
        "    .param .u64 out)\n{\n    .reg .pred %p;\n    .reg .b32 %r<5>;\n"
        "    .reg .f32 %f<4>;",
        "    .param .u64 out)\n.maxntid 64, 1, 1\n{\n    .reg .pred %p;\n"
        "    .reg .b32 %r<5>;\n    .reg .f32 %f<4>;", 1))
    assert "scale_add: launch 0 (kernel add_f32_2400): a block of 128 " \
        "threads exceeds the 64 this kernel allows" in load_error(bundle)


def test_arguments_the_kernel_does_not_take(tmp_path):
    # A damaged plan must not make a kernel read parameters it was not given
    # (or ignore ones it was): the PTX says how many a kernel takes.
    bundle = edited_bundle(tmp_path, edit_plan=lambda plan: plan["functions"][
        0]["launches"][0]["args"].append({"kind": "input", "index": 0}))
    assert "scale_add: launch 0 (kernel add_f32_2400): the plan passes 4 " \
        f"arguments on {OWN_CHIP}, the kernel takes 3" in load_error(bundle)
    bundle = edited_bundle(tmp_path / "fewer", edit_plan=lambda plan: plan[
        "functions"][0]["launches"][0]["args"].pop())
    assert "the plan passes 2 arguments" in load_error(bundle)


def test_launches_the_kernel_was_not_compiled_for(tmp_path):
    # Grids, blocks and buffer extents are compiled into the kernels; the
    # PTX records them, and a plan that launches a kernel otherwise (which
    # would make it touch memory outside its buffers) does not load.
    def launch(plan):
        return plan["functions"][0]["launches"][0]

    bundle = edited_bundle(tmp_path / "grid", edit_plan=lambda plan: launch(
        plan).update(grid=[20, 1, 1]))
    assert "scale_add: launch 0 (kernel add_f32_2400): the plan launches a " \
        "grid of [20, 1, 1] blocks of [128, 1, 1] threads; the " \
        f"{OWN_CHIP} kernel was compiled for [19, 1, 1] blocks of " \
        "[128, 1, 1]" in load_error(bundle)
    bundle = edited_bundle(tmp_path / "block", edit_plan=lambda plan: launch(
        plan).update(block=[64, 1, 1]))
    assert "blocks of [64, 1, 1] threads" in load_error(bundle)

    def shrink(plan):
        plan["functions"][0]["buffers"][0]["bytes"] = 9596
    bundle = edited_bundle(tmp_path / "buffer", edit_plan=shrink)
    assert "scale_add: launch 0 (kernel add_f32_2400): argument 2 is bound " \
        f"to 9596 bytes; the {OWN_CHIP} kernel was compiled for 9600" \
        in load_error(bundle)


def test_independent_library_calls_run_beside_each_other(monkeypatch):
    # LoRA as written: x W and x A do not depend on each other, so x W runs
    # on the side stream; the result, and a CUDA graph of the call, match
    # running them one after the other.
    torch.manual_seed(0)
    x, w, a, b = (torch.randn(shape, device="cuda").to(torch.bfloat16) * 0.1
                  for shape in ((48, 80), (80, 40), (80, 8), (8, 40)))
    results = []
    for side_stream in ("1", "0", "all"):
        monkeypatch.setenv("MIRAGE_SIDE_STREAM", side_stream)
        bundle = runtime.load_bundle(BUNDLES / "library_matmul", device=0)
        lora = bundle("lora_bf16_addend")
        results.append(lora(x, w, a, b))
        out = torch.empty_like(results[-1])
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            lora(x, w, a, b, out=out)
        out.zero_()
        graph.replay()
        torch.cuda.synchronize()
        assert torch.equal(out, results[-1])
        bundle.close()
    assert torch.equal(results[0], results[1])
    assert torch.equal(results[0], results[2])
    expected = x.float() @ w.float() + (x.float() @ a.float()).bfloat16(
    ).float() @ b.float()
    assert (results[0].float() - expected).abs().max() < 2e-2


def test_a_bad_side_stream_setting_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("MIRAGE_SIDE_STREAM", "yes")
    with pytest.raises(runtime.MirageError, match="MIRAGE_SIDE_STREAM: "
                       "expected 0, 1 or all, got 'yes'"):
        runtime.load_bundle(BUNDLES / "library_matmul", device=0)


def test_missing_chip(tmp_path):
    other = "sm_80" if OWN_CHIP == "sm_90a" else "sm_90a"
    bundle = edited_bundle(tmp_path, edit_plan=lambda plan: plan["ptx"].pop(
        OWN_CHIP))
    message = load_error(bundle)
    assert f"needs PTX for {OWN_CHIP}, but the bundle has PTX only for " \
        f"{other}" in message
    assert torch.cuda.get_device_name(0) in message


def test_reloading_does_not_leak_device_memory():
    def load_and_run():
        bundle = runtime.load_bundle(BUNDLES / "scale_add", device=0)
        x = torch.ones(8, 300, device="cuda")
        bundle("scale_add")(x, x)
        bundle.close()

    load_and_run()
    torch.cuda.synchronize()
    free_before = torch.cuda.mem_get_info()[0]
    for _ in range(30):
        load_and_run()
    torch.cuda.synchronize()
    # Each load allocates a 9600-byte buffer and a module; 30 leaked loads
    # would take at least 30 allocation granules (2 MiB each).
    assert free_before - torch.cuda.mem_get_info()[0] < 16 << 20
