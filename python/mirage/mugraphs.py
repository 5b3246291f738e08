"""Where the public implementation's saved µGraphs live, and which benchmark
program each file, and each hand-written µGraph of examples/mugraphs,
implements. Shared by the scripts that process them
(scripts/mugraph-equivalence.py, bench/make-gpu-bundles.py,
bench/recompile-bundles.py), the kernel benchmark (bench/gpu/bench.py) and
the lit tests. Paths are those of the checkout (mirage.CHECKOUT)."""

import os

from mirage import CHECKOUT

# The public implementation's saved µGraphs (docs/Mugraphs.md; not in the
# repository): shared/mugraphs/upstream-2024 beside the checkout, else under
# /work/shared.
DEFAULT_MUGRAPHS = next(
    (d for d in (os.path.join(CHECKOUT.parent, "shared", "mugraphs",
                              "upstream-2024"),
                 "/work/shared/mugraphs/upstream-2024") if os.path.isdir(d)),
    "")

# File stem -> reference program in examples/benchmarks (same name otherwise).
REFERENCES = {
    "rmsnorm_bs1": "rmsnorm_linear_bs1",
    "rmsnorm_bs8": "rmsnorm_linear_bs8",
    "single_gated_mlp": "gated_mlp",
    "single_lora": "lora",
    "single_mqa_bs1": "mqa_bs1",
}

# Files every graph of which the verifier proves wrong (docs/Mugraphs.md,
# "Why the 380 qknorm graphs are rejected"): not valid µGraphs to run.
REJECTED = {"qknorm_gqa_bs1", "qknorm_gqa_bs8"}

# Hand-written µGraph of examples/mugraphs -> the benchmark it implements
# (None: its own module holds the reference).
HAND_WRITTEN = {
    "rmsnorm_linear_fused": "rmsnorm_linear_bs1",
    "gqa_splitkv_bs1": "gqa_bs1",
    "gqa_cluster_bs1": "gqa_bs1",
    "gqa_splitkv_rows_bs1": "gqa_bs1",
    "gqa_splitkv_bs8": "gqa_bs8",
    "mha_splitkv_bs1": "mha_bs1",
    "mqa_splitkv_bs1": "mqa_bs1",
    "qknorm_splitkv_bs1": "qknorm_gqa_bs1",
    "rmsnorm_cluster": None,
}


def reference_program(stem):
    """The examples/benchmarks file of the program µGraph file `stem` implements."""
    return os.path.join(CHECKOUT, "examples", "benchmarks",
                        REFERENCES.get(stem, stem) + ".mlir")


def upstream_module(source):
    """(MLIR text, reference name): the saved upstream µGraphs of `source`,
    the source.mlir of an upstream_<stem> bundle of
    bench/make-gpu-bundles.py, after the benchmark program they implement
    (the reference). Raises ValueError for a file the verifier proves
    wrong (REJECTED)."""
    import pathlib
    import re
    source = pathlib.Path(source)
    stem = source.parent.name[len("upstream_"):]
    if stem in REJECTED:
        raise ValueError("the verifier proves every graph of this file "
                         "wrong (docs/Mugraphs.md)")
    reference_text = pathlib.Path(reference_program(stem)).read_text()
    reference = re.search(r"func\.func @([\w.]+)\(", reference_text).group(1)
    text = source.read_text().strip()
    if text.startswith("module {") and text.endswith("}"):
        text = text[len("module {"):-1]
    return reference_text + "\n" + text + "\n", reference
