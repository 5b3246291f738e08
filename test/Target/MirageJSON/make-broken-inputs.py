#!/usr/bin/env python3
"""Writes Inputs/valid_small.json and the broken-input corpus Inputs/broken/.

Usage: make-broken-inputs.py [OUT_DIR]   (default: Inputs/ next to this file)

Every broken file is the small valid µGraph of `base_graph()` (a LoRA-like
kn_customized_op followed by kn_exp_op and kn_matmul_op, after
the saved µGraph single_lora.json of docs/Mugraphs.md with tiny shapes) with exactly
one problem, named by the file. test/utils/check-diagnoses.py requires that
mirage-translate --import-mirage-json rejects each one with a diagnostic and
does not crash. Files that were found by fuzzing (docs/Fuzzing.md) are kept
in Inputs/broken/ as they were minimized and are not written here.
"""

import copy
import json
import os
import sys

NOMAP = {"x": -1, "y": -1, "z": -1}


def t(guid, dims, smem=False, after=False):
    d = {"data_type": 921, "dim": dims + [0] * (4 - len(dims)), "guid": guid,
         "layout": "SmemRowMajor" if smem else "DmemRowMajor", "num_dims": len(dims)}
    if smem:
        d["smem_offset"] = 0
        d["after_accum"] = after
    return d


def kn_input(guid, dims, strides):
    return {"op_type": "kn_input_op", "input_map": dict(NOMAP), "input_strides": strides,
            "input_tensors": [], "output_tensors": [t(guid, dims)]}


def kn_output(guid, dims, strides):
    return {"op_type": "kn_output_op", "output_map": dict(NOMAP), "output_strides": strides,
            "input_tensors": [t(guid, dims)], "output_tensors": []}


# Op indices of base_graph() and of its block graph.
A, B, C, CUST, EXP, MATMUL, OUT = range(7)
TB_A, TB_B, TB_MATMUL, TB_ACCUM, TB_OUT = range(5)


def base_graph():
    """guid 1: A 8x16, 2: B 16x32, 5: C 32x4 (kernel inputs);
    3 = customized(A, B) 8x32 (grid x=2 over B's columns, forloop 2 over K),
    4 = exp(3), 6 = matmul(4, C) 8x4, returned. Tiles: 11 = A 8x8, 12 = B 8x16,
    13 = matmul 8x16, 14 = accumulated 13."""
    return [
        kn_input(1, [8, 16], [16, 1]),
        kn_input(2, [16, 32], [32, 1]),
        kn_input(5, [32, 4], [4, 1]),
        {"op_type": "kn_customized_op",
         "input_tensors": [t(1, [8, 16]), t(2, [16, 32])],
         "output_tensors": [t(3, [8, 32])],
         "bgraph": {
             "graph_level": "thread_block_graph",
             "grid_dim": {"x": 2, "y": 1, "z": 1},
             "block_dim": {"x": 128, "y": 1, "z": 1},
             "forloop_range": 2, "reduction_dimx": 64, "smem_offset": 0,
             "operators": [
                 {"op_type": "tb_input_op", "dtensor": t(1, [8, 16]), "input_map": dict(NOMAP),
                  "forloop_dim": 1, "input_tensors": [], "output_tensors": [t(11, [8, 8], True)]},
                 {"op_type": "tb_input_op", "dtensor": t(2, [16, 32]),
                  "input_map": {"x": 1, "y": -1, "z": -1}, "forloop_dim": 0,
                  "input_tensors": [], "output_tensors": [t(12, [8, 16], True)]},
                 {"op_type": "tb_matmul_op",
                  "input_tensors": [t(11, [8, 8], True), t(12, [8, 16], True)],
                  "output_tensors": [t(13, [8, 16], True)]},
                 {"op_type": "tb_accum_nored_op", "input_tensors": [t(13, [8, 16], True)],
                  "output_tensors": [t(14, [8, 16], True, True)]},
                 {"op_type": "tb_output_op", "dtensor": t(3, [8, 32]),
                  "output_map": {"x": 1, "y": -1, "z": -1},
                  "input_tensors": [t(14, [8, 16], True, True)], "output_tensors": []},
             ]}},
        {"op_type": "kn_exp_op", "input_tensors": [t(3, [8, 32])], "output_tensors": [t(4, [8, 32])]},
        {"op_type": "kn_matmul_op", "input_tensors": [t(4, [8, 32]), t(5, [32, 4])],
         "output_tensors": [t(6, [8, 4])]},
        kn_output(6, [8, 4], [4, 1]),
    ]


def dump(graphs):
    """One op per line: small, and each file's problem shows in a diff."""
    if not isinstance(graphs, list) or not all(isinstance(g, list) for g in graphs):
        return json.dumps(graphs, sort_keys=True) + "\n"
    lines = []
    for g in graphs:
        ops = ",\n ".join(json.dumps(op, sort_keys=True) for op in g)
        lines.append("[" + ops + "]")
    return "[" + ",\n".join(lines) + "]\n"


def ops(g):
    return g[CUST]["bgraph"]["operators"]


def bgraph(g):
    return g[CUST]["bgraph"]


CASES = {}


def case(name):
    def register(fn):
        CASES[name] = fn
        return fn
    return register


def mutate(name, fn):
    """A case that edits a copy of the base graph in place."""
    def make():
        g = base_graph()
        fn(g)
        return dump([g])
    CASES[name] = make


VALID = dump([base_graph()])

# --- Not JSON, or not the format's outer structure ---------------------------
CASES["empty-file"] = lambda: ""
CASES["null"] = lambda: "null\n"
CASES["truncated-mid-object"] = lambda: VALID[:VALID.index('"kn_customized_op"') + 20]
CASES["truncated-mid-array"] = lambda: VALID[:VALID.index('"dim": [16, 32') + 12]
CASES["truncated-mid-string"] = lambda: VALID[:VALID.index('"kn_customized_op"') + 8]
CASES["trailing-garbage"] = lambda: VALID + "]\n"
CASES["trailing-comma"] = lambda: VALID.rstrip().rstrip("]") + "],]\n"
CASES["invalid-utf8"] = lambda: VALID.replace("DmemRowMajor", "Dmem\udcffRowMajor", 1)
CASES["nan-literal"] = lambda: VALID.replace('"forloop_range": 2', '"forloop_range": NaN', 1)
CASES["not-an-array"] = lambda: dump({"graphs": [base_graph()]})
CASES["graph-not-an-array"] = lambda: dump([base_graph()[A]])
CASES["empty-graph"] = lambda: "[[]]\n"
CASES["deeply-nested-arrays"] = lambda: "[" * 50000 + "]" * 50000 + "\n"
CASES["deeply-nested-objects"] = lambda: '{"a":' * 50000 + "0" + "}" * 50000 + "\n"


def remove_output(g):
    del g[OUT]


mutate("graph-without-kn-output-op", remove_output)

# --- Ops -----------------------------------------------------------------------


def set_(path, value):
    """A mutation that sets g[path...] = value."""
    def fn(g):
        obj = g
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value
    return fn


def delete(path):
    def fn(g):
        obj = g
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]
    return fn


mutate("op-not-an-object", set_([EXP], 42))
mutate("op-missing-op-type", delete([EXP, "op_type"]))
mutate("op-type-not-a-string", set_([EXP, "op_type"], 7))
mutate("unknown-kn-op", set_([EXP, "op_type"], "kn_frobnicate_op"))
mutate("unknown-tb-op", set_([CUST, "bgraph", "operators", TB_MATMUL, "op_type"],
                             "tb_frobnicate_op"))
mutate("block-op-not-an-object",
       set_([CUST, "bgraph", "operators", TB_MATMUL], "tb_matmul_op"))
mutate("block-op-missing-op-type",
       delete([CUST, "bgraph", "operators", TB_MATMUL, "op_type"]))
mutate("missing-input-tensors", delete([EXP, "input_tensors"]))
mutate("output-tensors-not-an-array", set_([EXP, "output_tensors"], {"guid": 4}))
mutate("tensor-not-an-object", set_([EXP, "input_tensors", 0], 3))
mutate("exp-with-two-inputs", lambda g: g[EXP]["input_tensors"].append(t(3, [8, 32])))
mutate("exp-with-two-outputs", lambda g: g[EXP]["output_tensors"].append(t(7, [8, 32])))
mutate("kn-input-op-with-input-tensors",
       set_([B, "input_tensors"], [t(1, [8, 16])]))
mutate("kn-output-op-with-two-inputs",
       lambda g: g[OUT]["input_tensors"].append(t(4, [8, 32])))

# --- Tensor fields -------------------------------------------------------------
mutate("guid-as-string", set_([EXP, "input_tensors", 0, "guid"], "3"))
mutate("guid-missing", delete([EXP, "output_tensors", 0, "guid"]))
mutate("dim-as-object", set_([EXP, "output_tensors", 0, "dim"], {"0": 8, "1": 32}))
mutate("dim-entry-not-an-integer", set_([A, "output_tensors", 0, "dim", 1], 16.5))
mutate("num-dims-negative", set_([EXP, "output_tensors", 0, "num_dims"], -1))
mutate("num-dims-zero", set_([EXP, "output_tensors", 0, "num_dims"], 0))
mutate("num-dims-five", set_([EXP, "output_tensors", 0, "num_dims"], 5))
mutate("num-dims-larger-than-dim-length", lambda g: g[EXP]["output_tensors"][0].update(
    {"dim": [8, 32], "num_dims": 3}))
mutate("dim-zero", set_([A, "output_tensors", 0, "dim", 0], 0))
mutate("dim-negative", set_([A, "output_tensors", 0, "dim", 0], -8))
mutate("data-type-unknown", set_([EXP, "output_tensors", 0, "data_type"], 930))
mutate("data-type-float", set_([EXP, "output_tensors", 0, "data_type"], 921.5))
mutate("data-type-string", set_([EXP, "output_tensors", 0, "data_type"], "fp16"))
# 2^63 does not fit an int64; 1e308 is a double.
CASES["huge-dim-2pow63"] = lambda: dump([base_graph()]).replace(
    '"dim": [8, 16, 0, 0]', '"dim": [9223372036854775808, 16, 0, 0]', 1)
mutate("huge-guid-1e308", set_([EXP, "output_tensors", 0, "guid"], 1e308))
mutate("huge-grid-dim-1e308", set_([CUST, "bgraph", "grid_dim", "x"], 1e308))
mutate("huge-forloop-range-int64-max",
       set_([CUST, "bgraph", "forloop_range"], 2**63 - 1))

# --- Edges -----------------------------------------------------------------------
mutate("dangling-guid", set_([EXP, "input_tensors", 0, "guid"], 99))
mutate("use-before-definition", lambda g: g.insert(CUST, g.pop(EXP)))


def cycle(g):
    # exp(guid 7) -> 4 and exp(guid 4) -> 7: each consumes the other's output.
    g[EXP]["input_tensors"] = [t(7, [8, 32])]
    g.insert(EXP + 1, {"op_type": "kn_exp_op", "input_tensors": [t(4, [8, 32])],
                       "output_tensors": [t(7, [8, 32])]})


mutate("cycle", cycle)
mutate("duplicate-guid", set_([EXP, "output_tensors", 0, "guid"], 3))
mutate("duplicate-guid-block-level",
       set_([CUST, "bgraph", "operators", TB_ACCUM, "output_tensors", 0, "guid"], 13))
mutate("block-dangling-guid",
       set_([CUST, "bgraph", "operators", TB_MATMUL, "input_tensors", 0, "guid"], 99))
mutate("shape-mismatch-producer-consumer",
       set_([EXP, "input_tensors", 0], t(3, [8, 16])))
mutate("shape-mismatch-rank", set_([EXP, "input_tensors", 0], t(3, [8, 32, 1])))


def matmul_mismatch(g):
    # C is 16x4: 8x32 @ 16x4 does not contract.
    g[C] = kn_input(5, [16, 4], [4, 1])
    g[MATMUL]["input_tensors"][1] = t(5, [16, 4])


mutate("matmul-mismatched-shapes", matmul_mismatch)


def matmul_wrong_result(g):
    g[MATMUL]["output_tensors"] = [t(6, [8, 8])]
    g[OUT] = kn_output(6, [8, 8], [8, 1])


mutate("matmul-wrong-result-shape", matmul_wrong_result)


def exp_wrong_result(g):
    g[EXP]["output_tensors"] = [t(4, [8, 16])]
    g[MATMUL]["input_tensors"][0] = t(4, [8, 16])


mutate("elementwise-wrong-result-shape", exp_wrong_result)

# --- kn_input_op / kn_output_op ----------------------------------------------------
mutate("kn-input-partitioned", set_([A, "input_map", "x"], 0))
mutate("kn-output-partitioned", set_([OUT, "output_map", "y"], 1))
mutate("kn-input-map-missing", delete([A, "input_map"]))
mutate("strides-wrong-count", set_([A, "input_strides"], [16]))
mutate("strides-negative", set_([A, "input_strides"], [-16, 1]))
mutate("strides-zero", set_([OUT, "output_strides"], [4, 0]))
mutate("strides-missing", delete([B, "input_strides"]))

# --- kn_customized_op and its block graph ------------------------------------------
mutate("customized-without-bgraph", delete([CUST, "bgraph"]))
mutate("bgraph-not-an-object", set_([CUST, "bgraph"], []))
mutate("bgraph-missing-grid-dim", delete([CUST, "bgraph", "grid_dim"]))
mutate("bgraph-missing-block-dim", delete([CUST, "bgraph", "block_dim"]))
mutate("bgraph-missing-forloop-range", delete([CUST, "bgraph", "forloop_range"]))
mutate("bgraph-missing-reduction-dimx", delete([CUST, "bgraph", "reduction_dimx"]))
mutate("bgraph-missing-operators", delete([CUST, "bgraph", "operators"]))
mutate("grid-dim-missing-axis", delete([CUST, "bgraph", "grid_dim", "z"]))
mutate("grid-dim-zero", set_([CUST, "bgraph", "grid_dim", "x"], 0))
mutate("grid-dim-negative", set_([CUST, "bgraph", "grid_dim", "x"], -2))
mutate("grid-dim-too-large", set_([CUST, "bgraph", "grid_dim", "x"], 2**31))
mutate("grid-dim-y-too-large", set_([CUST, "bgraph", "grid_dim", "y"], 65536))
mutate("block-dim-too-large", set_([CUST, "bgraph", "block_dim", "x"], 1025))
mutate("block-dim-too-many-threads",
       set_([CUST, "bgraph", "block_dim"], {"x": 64, "y": 32, "z": 1}))
mutate("forloop-range-zero", set_([CUST, "bgraph", "forloop_range"], 0))
mutate("forloop-range-not-dividing", set_([CUST, "bgraph", "forloop_range"], 3))
mutate("imap-out-of-range", set_([CUST, "bgraph", "operators", TB_B, "input_map", "x"], 2))
mutate("imap-below-minus-one",
       set_([CUST, "bgraph", "operators", TB_B, "input_map", "x"], -2))
mutate("imap-same-dim-twice", lambda g: (
    bgraph(g).update({"grid_dim": {"x": 2, "y": 2, "z": 1}}),
    ops(g)[TB_B].update({"input_map": {"x": 1, "y": 1, "z": -1}})))
mutate("imap-not-dividing", set_([CUST, "bgraph", "grid_dim", "x"], 3))
mutate("forloop-dim-out-of-range",
       set_([CUST, "bgraph", "operators", TB_A, "forloop_dim"], 2))
mutate("forloop-dim-below-minus-one",
       set_([CUST, "bgraph", "operators", TB_A, "forloop_dim"], -2))
mutate("tb-input-missing-forloop-dim",
       delete([CUST, "bgraph", "operators", TB_A, "forloop_dim"]))
mutate("tb-input-missing-dtensor", delete([CUST, "bgraph", "operators", TB_A, "dtensor"]))


def tile_wrong_shape(g):
    # A's tile is 8x8 (16 columns over 2 iterations), declared 8x16 by the
    # loader and by its consumer.
    ops(g)[TB_A]["output_tensors"] = [t(11, [8, 16], True)]
    ops(g)[TB_MATMUL]["input_tensors"][0] = t(11, [8, 16], True)


mutate("tb-input-wrong-tile-shape", tile_wrong_shape)
mutate("tb-input-with-input-tensors",
       set_([CUST, "bgraph", "operators", TB_B, "input_tensors"], [t(11, [8, 8], True)]))
mutate("tb-input-not-a-customized-input",
       set_([CUST, "bgraph", "operators", TB_B, "dtensor"], t(5, [32, 4])))
mutate("tb-output-not-a-customized-output",
       set_([CUST, "bgraph", "operators", TB_OUT, "dtensor"], t(4, [8, 32])))
mutate("tb-output-inside-forloop",
       set_([CUST, "bgraph", "operators", TB_OUT, "forloop_dim"], 0))
mutate("tb-output-map-not-covering-grid",
       set_([CUST, "bgraph", "operators", TB_OUT, "output_map", "x"], -1))
mutate("output-never-saved", lambda g: ops(g).pop(TB_OUT))
mutate("output-saved-twice", lambda g: ops(g).append(copy.deepcopy(ops(g)[TB_OUT])))


def output_wrong_shape(g):
    # The block graph saves 8x32 but the op declares its output 8x64 (and
    # its consumers agree with the declaration).
    g[CUST]["output_tensors"] = [t(3, [8, 64])]
    ops(g)[TB_OUT]["dtensor"] = t(3, [8, 64])
    g[EXP]["input_tensors"] = [t(3, [8, 64])]
    g[EXP]["output_tensors"] = [t(4, [8, 64])]
    g[C] = kn_input(5, [64, 4], [4, 1])
    g[MATMUL]["input_tensors"] = [t(4, [8, 64]), t(5, [64, 4])]


mutate("customized-output-wrong-shape", output_wrong_shape)


def no_outputs(g):
    g[CUST]["output_tensors"] = []
    ops(g).pop(TB_OUT)
    del g[EXP:]
    g.append(kn_output(1, [8, 16], [16, 1]))


mutate("customized-without-outputs", no_outputs)


def per_iteration_saved(g):
    # Saves the matmul of every iteration instead of its accumulation.
    ops(g).pop(TB_ACCUM)
    ops(g)[-1]["input_tensors"] = [t(13, [8, 16], True)]


mutate("saves-per-iteration-value", per_iteration_saved)


def accum_wrong_shape(g):
    ops(g)[TB_ACCUM]["output_tensors"] = [t(14, [8, 8], True, True)]
    ops(g)[TB_OUT]["input_tensors"] = [t(14, [8, 8], True, True)]


mutate("accumulator-wrong-shape", accum_wrong_shape)
mutate("accumulator-red-ld-sum-keeps-last-dim",
       set_([CUST, "bgraph", "operators", TB_ACCUM, "op_type"], "tb_accum_red_ld_sum_op"))
mutate("accumulator-unknown-kind",
       set_([CUST, "bgraph", "operators", TB_ACCUM, "op_type"], "tb_accum_red_ld_max_op"))
mutate("accumulator-with-two-inputs",
       lambda g: ops(g)[TB_ACCUM]["input_tensors"].append(t(12, [8, 16], True)))


def redtox(dimx):
    def fn(g):
        bgraph(g)["reduction_dimx"] = dimx
        ops(g)[TB_ACCUM]["op_type"] = "tb_accum_redtox_ld_sum_op"
    return fn


mutate("accumulator-redtox-reduction-dimx-zero", redtox(0))
mutate("accumulator-redtox-reduction-dimx-negative", redtox(-4))
mutate("accumulator-redtox-reduction-dimx-not-dividing", redtox(3))


def accumulate_twice(g):
    ops(g).insert(TB_OUT, {"op_type": "tb_accum_nored_op",
                           "input_tensors": [t(14, [8, 16], True, True)],
                           "output_tensors": [t(15, [8, 16], True, True)]})
    ops(g)[-1]["input_tensors"] = [t(15, [8, 16], True, True)]


mutate("accumulator-of-accumulated-value", accumulate_twice)


def mix_phases(g):
    # add(accumulated 14, per-iteration 13).
    ops(g).insert(TB_OUT, {"op_type": "tb_add_op",
                           "input_tensors": [t(14, [8, 16], True, True), t(13, [8, 16], True)],
                           "output_tensors": [t(15, [8, 16], True)]})
    ops(g)[-1]["input_tensors"] = [t(15, [8, 16], True)]


mutate("mixing-accumulated-and-per-iteration", mix_phases)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    out = argv[1] if len(argv) > 1 else os.path.join(here, "Inputs")
    broken = os.path.join(out, "broken")
    os.makedirs(broken, exist_ok=True)
    with open(os.path.join(out, "valid_small.json"), "w") as f:
        f.write(VALID)
    for name, make in sorted(CASES.items()):
        text = make()
        with open(os.path.join(broken, name + ".json"), "wb") as f:
            f.write(text.encode("utf-8", errors="surrogateescape"))
    print("wrote %d broken inputs to %s" % (len(CASES), broken))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
