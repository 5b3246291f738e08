"""bench/cluster-attention-mugraphs.py writes the µGraphs of the cluster
sweep; the one examples/mugraphs keeps is one of them, unchanged."""

import importlib.util
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[3]
SCRIPT = REPO / "bench" / "cluster-attention-mugraphs.py"

spec = importlib.util.spec_from_file_location("cluster_attention", SCRIPT)
cluster_attention = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cluster_attention)


def test_the_example_is_the_generated_gqa_variant():
    example = (REPO / "examples" / "mugraphs" /
               "gqa_cluster_bs1.mlir").read_text()
    code = example[example.index("func.func @gqa_cluster_bs1("):]
    assert code == cluster_attention.emit("gqa_cluster_bs1", 2, 256, False,
                                          8, 16, 32)


def test_every_variant_is_written(tmp_path):
    cluster_attention.main(tmp_path)
    written = sorted(path.stem for path in tmp_path.iterdir())
    expected = sorted(
        f"{case}_c{slices}_t{tile}_k{keys}"
        for case, variants in cluster_attention.VARIANTS.items()
        for slices, tile, keys in variants)
    assert written == expected
    text = (tmp_path / "qknorm_gqa_bs1_c16_t32_k32.mlir").read_text()
    assert "cluster [16, 1, 1] non_portable" in text
    assert text.count("rms_norm") == 2
