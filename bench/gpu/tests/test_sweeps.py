"""Tests of bench/sweep's bundle writers: the combining kernel's launch
rewrite keeps the µGraph equivalent to its program (checked by the real
mirage-opt), and the tuning group marks the program as written and the
variants; and that its CUDA probes build with the toolkit's nvcc."""

import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
SWEEP = REPO / "bench" / "sweep"
OPT = REPO / "build" / "bin" / "mirage-opt"

sys.path.insert(0, str(SWEEP))
spec = importlib.util.spec_from_file_location(
    "combine_sweep", SWEEP / "make-combine-sweep.py")
combine_sweep = importlib.util.module_from_spec(spec)
spec.loader.exec_module(combine_sweep)
tuning_group = importlib.import_module("tuning_group")

needs_opt = pytest.mark.skipif(not OPT.exists(), reason="no build/bin/mirage-opt")
NVCC = pathlib.Path(os.environ.get("CUDA_ROOT", "/usr/local/cuda"), "bin",
                    "nvcc")


def printed(path):
    """The module at `path` as mirage-opt prints it (the form bundles'
    source.mlir have)."""
    return subprocess.run([str(OPT), str(path)], check=True,
                          capture_output=True, text=True).stdout


def assert_equivalent(tmp_path, variant, reference=None, name="mqa_bs1"):
    """mirage-check-equivalence proves @variant equal to @`name` of
    `reference` (the text of a module; by default MQA bs1's)."""
    if reference is None:
        reference = (REPO / "examples" / "benchmarks" /
                     "mqa_bs1.mlir").read_text()
    module = tmp_path / "check.mlir"
    module.write_text(reference + "\n" + variant)
    result = subprocess.run([str(OPT), str(module),
                             f"--mirage-check-equivalence=reference={name}",
                             "-o", "/dev/null"], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    assert f"is equivalent to @{name}" in result.stderr


@needs_opt
@pytest.mark.parametrize("rows,threads", [(8, 256), (1, 128), (32, 512)])
def test_combine_launch_keeps_the_program(tmp_path, rows, threads):
    source = printed(REPO / "examples" / "mugraphs" / "mqa_splitkv_bs1.mlir")
    original = combine_sweep.function_text(source, "mqa_splitkv_bs1")
    variant = combine_sweep.with_combine_launch(original, "variant", rows,
                                                threads)
    combining = variant[variant.rindex("mirage_kernel.graph_def("):]
    assert f"grid [1, {1024 // rows}, 1] block [{threads}, 1, 1]" in combining
    assert f"stensor<1x{rows}x" in combining
    # The first kernel is untouched.
    assert variant.split("%1 = mirage_kernel.graph_def")[0].replace(
        "@variant", "@mqa_splitkv_bs1") == original.split(
            "%1 = mirage_kernel.graph_def")[0]
    assert_equivalent(tmp_path, variant)


@needs_opt
def test_combine_launch_maps_rows_onto_a_free_axis(tmp_path):
    # A combining kernel whose grid does not cover the rows (whole rows in
    # one block) gets them on a free axis, one its maps do not name, in
    # every map of its body: x maps the batch here, so y takes them.
    source = printed(REPO / "examples" / "mugraphs" / "mqa_splitkv_bs1.mlir")
    original = combine_sweep.function_text(source, "mqa_splitkv_bs1")
    cut = original.rindex("%1 = mirage_kernel.graph_def(")
    combining = (original[cut:].replace("grid [1, 256, 1]", "grid [1, 1, 1]")
                 .replace("x = 0, y = 1>", "x = 0>")
                 .replace("stensor<1x4x", "stensor<1x1024x"))
    whole_rows = original[:cut] + combining
    variant = combine_sweep.with_combine_launch(whole_rows, "variant", 4, 128)
    rewritten = variant[variant.rindex("mirage_kernel.graph_def("):]
    assert "grid [1, 256, 1]" in rewritten
    assert "x = 0>" not in rewritten and "x = 0, y = 1>" in rewritten
    assert_equivalent(tmp_path, variant)


def test_tuning_group_marks_candidates(tmp_path):
    program = tmp_path / "p.mlir"
    program.write_text("func.func @p(%x: tensor<2xf16>) -> tensor<2xf16> {\n"
                       "  return %x : tensor<2xf16>\n}\n")
    variants = ["  func.func @a(%x: tensor<2xf16>) -> tensor<2xf16> {\n"
                "    return %x : tensor<2xf16>\n  }\n",
                "  func.func @b(%x: tensor<2xf16>) -> tensor<2xf16> {\n"
                "    return %x : tensor<2xf16>\n  }\n"]
    text = tuning_group.tuning_group("case", "v", str(program), variants)
    marks = re.findall(r"func\.func @(\w+)\(.*candidate = (-?\d+) : i64, "
                       r"compiler = \"sweep\", key = \"([0-9a-f]{64})\"",
                       text)
    assert [(name, int(c)) for name, c, _ in marks] == [
        ("case_as_written", -1), ("a", 0), ("b", 1)]
    assert len({key for _, _, key in marks}) == 1


@pytest.mark.skipif(not NVCC.exists(), reason="no CUDA toolkit (nvcc)")
@pytest.mark.parametrize("probe", sorted(p.name for p in SWEEP.glob("*.cu")))
def test_probe_builds(tmp_path, probe):
    """Each CUDA probe compiles for sm_90a, as its header says to build it
    on the GPU machine, without warnings."""
    result = subprocess.run(
        [str(NVCC), "-O3", "-arch=sm_90a", "-o", str(tmp_path / "probe"),
         str(SWEEP / probe)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr.lower(), result.stderr


lora_spec = importlib.util.spec_from_file_location(
    "lora_sweep", SWEEP / "make-lora-sweep.py")
lora_sweep = importlib.util.module_from_spec(lora_spec)
lora_spec.loader.exec_module(lora_sweep)

LORA = """func.func @lora(%X: tensor<16x1024xf16>, %W: tensor<1024x256xf16>, %A: tensor<1024x16xf16>, %B: tensor<16x256xf16>) -> tensor<16x256xf16> {
  %XW = mirage_kernel.matmul %X, %W : tensor<16x1024xf16>, tensor<1024x256xf16> -> tensor<16x256xf16>
  %XA = mirage_kernel.matmul %X, %A : tensor<16x1024xf16>, tensor<1024x16xf16> -> tensor<16x16xf16>
  %XAB = mirage_kernel.matmul %XA, %B : tensor<16x16xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  %O = mirage_kernel.add %XW, %XAB : tensor<16x256xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  return %O : tensor<16x256xf16>
}
"""


def test_lora_sweep_reads_the_programs_shapes():
    program = REPO / "bench" / "generality" / "llama3_8b_lora_r16_t16_f16.mlir"
    assert lora_sweep.shapes(program) == (16, 4096, 4096, 16, "f16")
    # Every variant divides the reduction and the columns evenly.
    for tile, splits, forloop in lora_sweep.variants(16, 4096, 4096, 16):
        assert 4096 % tile == 0 and 4096 % (splits * forloop) == 0
        assert 64 <= 4096 // (splits * forloop) <= 256


@needs_opt
@pytest.mark.parametrize("tile,splits,forloop", [(64, 2, 4), (128, 4, 2)])
def test_lora_split_computes_the_program(tmp_path, tile, splits, forloop):
    split = lora_sweep.split_lora("split", 16, 1024, 256, 16, "f16", tile,
                                  splits, forloop)
    assert f"grid [{256 // tile}, {splits}, 1]" in split
    assert f"dim 0 size 16 : tensor<{16 * splits}x256xf16>" in split
    assert_equivalent(tmp_path, split, LORA, "lora")
