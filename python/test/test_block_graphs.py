"""Tests of the block-graph interpreter (graph_defs in a `program`): small
hand-made programs against the kernel ops they implement, validation, and
the µGraphs of examples/mugraphs against their references."""

import pathlib
import subprocess

import pytest

from mirage import interpreter
from mirage.backends import NumpyBackend, TorchBackend
from mirage.interpreter import Program, ProgramError
from mirage.plan import read_plan

np = pytest.importorskip("numpy")

REPO = pathlib.Path(__file__).resolve().parents[2]
BUNDLER = REPO / "build" / "bin" / "mirage-bundle"


def value(shape, dtype="f32"):
    return {"shape": list(shape), "dtype": dtype}


def op(name, operands, results, **attributes):
    return {"op": name, "operands": operands, "results": results,
            **attributes}


def graph(values, inputs, outputs, ops):
    return {"values": values, "inputs": inputs, "outputs": outputs,
            "ops": ops}


def graph_def(operands, results, body, grid, forloop=1, cluster=(1, 1, 1)):
    return op("graph_def", operands, results, grid=list(grid),
              forloop=forloop, cluster=list(cluster), body=body)


def one_kernel(inputs, output, body, grid, forloop=1, cluster=(1, 1, 1)):
    """A program of one graph_def: kernel inputs of types `inputs` (values
    0..n-1), one output of type `output`."""
    n = len(inputs)
    return graph(inputs + [output], list(range(n)), [n],
                 [graph_def(list(range(n)), [n], body, grid, forloop,
                            cluster)])


def evaluate(data, arrays, mode="f64", **options):
    program = Program.from_json(data, "program", block_graphs=True)
    return interpreter.evaluate(program, arrays, NumpyBackend(), mode,
                              **options)


def random(shape, dtype="f16", seed=0, scale=1.0):
    generator = np.random.default_rng(seed)
    array = generator.standard_normal(shape) * scale
    return array.astype({"f16": np.float16, "f32": np.float32}[dtype])


def relative(a, b):
    return np.abs(a - b).max() / np.abs(b).max()


#===---------------------------------------------------------------------===#
# Programs
#===---------------------------------------------------------------------===#


def tiled_exp_add(dtype):
    """exp(X) + b over X [8, 64], b [1, 64]: 4 x 2 blocks of [2, 32] tiles;
    b is replicated along x."""
    body = graph(
        [value([8, 64], dtype), value([1, 64], dtype), value([2, 32], dtype),
         value([1, 32], dtype), value([2, 32], dtype), value([2, 32], dtype),
         value([8, 64], dtype)],
        [0, 1], [6],
        [op("input_loader", [0], [2], imap=[0, 1, -1], fmap=-1),
         op("input_loader", [1], [3], imap=[-1, 1, -1], fmap=-1),
         op("exp", [2], [4]),
         op("add", [4, 3], [5]),
         op("output_saver", [5], [6], omap=[0, 1, -1])])
    return one_kernel([value([8, 64], dtype), value([1, 64], dtype)],
                      value([8, 64], dtype), body, [4, 2, 1])


def kernel_exp_add(dtype):
    return graph([value([8, 64], dtype), value([1, 64], dtype),
                  value([8, 64], dtype), value([8, 64], dtype)],
                 [0, 1], [3],
                 [op("exp", [0], [2]), op("add", [2, 1], [3])])


@pytest.mark.parametrize("mode", interpreter.MODES)
def test_a_tiled_elementwise_graph_def_equals_the_kernel_ops(mode):
    x, b = random([8, 64]), random([1, 64], seed=1)
    [tiled] = evaluate(tiled_exp_add("f16"), [x, b], mode)
    [kernel] = evaluate(kernel_exp_add("f16"), [x, b], mode)
    assert tiled.dtype == kernel.dtype
    assert np.array_equal(tiled, kernel)


def rmsnorm_linear(forloop=4, eps=None):
    """The fused RMSNorm + Linear µGraph, small: X [2, 64], W [64, 48], 4
    blocks of 12 columns; the for-loop walks the 64 channels. `eps` goes to
    rms_last when given."""
    tile = 64 // forloop
    body = graph(
        [value([2, 64], "f16"), value([64, 48], "f16"),
         value([2, tile], "f16"), value([tile, 12], "f16"),
         value([2, 12], "f16"), value([2, 12], "f16"), value([2, 1], "f16"),
         value([2, 12], "f16"), value([2, 48], "f16")],
        [0, 1], [8],
        [op("input_loader", [0], [2], imap=[-1, -1, -1], fmap=1),
         op("input_loader", [1], [3], imap=[1, -1, -1], fmap=0),
         op("matmul", [2, 3], [4]),
         op("forloop_accum", [4], [5], kind="sum"),
         op("forloop_accum", [2], [6], kind="rms_last",
            **({} if eps is None else {"eps": eps})),
         op("div", [5, 6], [7]),
         op("output_saver", [7], [8], omap=[1, -1, -1])])
    return one_kernel([value([2, 64], "f16"), value([64, 48], "f16")],
                      value([2, 48], "f16"), body, [4, 1, 1], forloop)


def rms_norm_then_matmul(eps=0):
    return graph([value([2, 64], "f16"), value([64, 48], "f16"),
                  value([2, 64], "f16"), value([2, 48], "f16")],
                 [0, 1], [3],
                 [op("rms_norm", [0], [2], size=64, eps=eps),
                  op("matmul", [2, 1], [3])])


def test_forloop_sum_and_rms_last_equal_rms_norm_and_matmul():
    x, w = random([2, 64]), random([64, 48], seed=1)
    [fused] = evaluate(rmsnorm_linear(), [x, w])
    [kernels] = evaluate(rms_norm_then_matmul(), [x, w])
    assert fused.dtype == np.float64
    assert relative(fused, kernels) < 1e-12
    x64 = x.astype(np.float64)
    direct = (x64 / np.sqrt((x64 ** 2).mean(1, keepdims=True))) @ w
    assert relative(fused, direct) < 1e-12
    # Emulated, both round differently but stay within f16 accuracy.
    [fused16] = evaluate(rmsnorm_linear(), [x, w], "emulate")
    [kernels16] = evaluate(rms_norm_then_matmul(), [x, w], "emulate")
    assert relative(fused16, direct) < 5e-3
    assert relative(kernels16, direct) < 5e-3


def test_rms_last_adds_its_eps_under_the_root_as_rms_norm_does():
    # Rows of small values, where an eps of 1e-2 moves the result.
    x, w = random([2, 64], scale=0.05), random([64, 48], seed=1)
    [fused] = evaluate(rmsnorm_linear(eps=1e-2), [x, w])
    [kernels] = evaluate(rms_norm_then_matmul(eps=1e-2), [x, w])
    assert relative(fused, kernels) < 1e-12
    [without] = evaluate(rmsnorm_linear(), [x, w])
    assert relative(without, kernels) > 1e-2


@pytest.mark.parametrize("kind, eps, message", [
    ("sum", 1e-6, "only rms_last has an eps"),
    ("rms_last", -1e-6, "a negative eps")])
def test_an_eps_is_rms_lasts_and_not_negative(kind, eps, message):
    data = rmsnorm_linear(eps=eps)
    accum = data["ops"][0]["body"]["ops"][4]
    accum["kind"] = kind
    if kind == "sum":
        data["ops"][0]["body"]["values"][6]["shape"] = [2, 16]
    with pytest.raises(ProgramError, match=message):
        Program.from_json(data, "program", block_graphs=True)


def test_the_accumulator_stays_in_float32_until_the_loop_ends():
    # 2048 then 63 times 1: rounding the running sum to f16 (spacing 2 at
    # 2048) would drop every 1; float32 keeps them and rounds 2111 once,
    # at the end, to 2112.
    body = graph([value([1, 64], "f16"), value([1, 1], "f16"),
                  value([1, 1], "f16"), value([1, 1], "f16")],
                 [0], [3],
                 [op("input_loader", [0], [1], imap=[-1, -1, -1], fmap=1),
                  op("forloop_accum", [1], [2], kind="sum"),
                  op("output_saver", [2], [3], omap=[-1, -1, -1])])
    program = one_kernel([value([1, 64], "f16")], value([1, 1], "f16"), body,
                         [1, 1, 1], forloop=64)
    x = np.ones([1, 64], dtype=np.float16)
    x[0, 0] = 2048
    [total] = evaluate(program, [x], "emulate")
    assert total[0, 0] == 2112


@pytest.mark.parametrize("kind, size, expected", [
    ("sum", None, lambda t: t.sum(0)),
    ("max", None, lambda t: t.max(0)),
    ("sum_last", None, lambda t: t.sum((0, 2)).reshape(2, 1)),
    ("sum_last_to", 2, lambda t: t.reshape(4, 2, 2, 2).sum((0, 2))),
    ("rms_last", None,
     lambda t: np.sqrt((t ** 2).sum((0, 2)) / 16).reshape(2, 1)),
])
def test_accumulator_kinds(kind, size, expected):
    # X [2, 16] in 4 iterations of [2, 4] tiles: t[i] = X[:, 4i:4i+4].
    out_shape = {"sum": [2, 4], "max": [2, 4], "sum_last_to": [2, 2]}.get(
        kind, [2, 1])
    accum = op("forloop_accum", [1], [2], kind=kind)
    if size:
        accum["size"] = size
    body = graph([value([2, 16]), value([2, 4]), value(out_shape),
                  value(out_shape)], [0], [3],
                 [op("input_loader", [0], [1], imap=[-1, -1, -1], fmap=1),
                  accum, op("output_saver", [2], [3], omap=[-1, -1, -1])])
    program = one_kernel([value([2, 16])], value(out_shape), body, [1, 1, 1],
                         forloop=4)
    x = random([2, 16], "f32")
    [out] = evaluate(program, [x])
    tiles = x.astype(np.float64).reshape(2, 4, 4).transpose(1, 0, 2)
    assert out.shape == tuple(out_shape)
    assert np.abs(out - expected(tiles)).max() < 1e-12


def test_block_reductions_are_strided():
    # Each of 4 blocks reduces its row of 32 to 8: out[r, j] = Σ_k x[r, j +
    # 8k], like the kernel reduction.
    body = graph([value([4, 32]), value([1, 32]), value([1, 8]),
                  value([4, 8])], [0], [3],
                 [op("input_loader", [0], [1], imap=[0, -1, -1], fmap=-1),
                  op("reduction", [1], [2], dim=1, size=8),
                  op("output_saver", [2], [3], omap=[0, -1, -1])])
    program = one_kernel([value([4, 32])], value([4, 8]), body, [4, 1, 1])
    kernel = graph([value([4, 32]), value([4, 8])], [0], [1],
                   [op("reduction", [0], [1], dim=1, size=8)])
    x = np.arange(128, dtype=np.float32).reshape(4, 32)
    [out] = evaluate(program, [x])
    [expected] = evaluate(kernel, [x])
    assert out.tolist() == expected.tolist()
    assert out[0].tolist() == [sum(range(j, 32, 8)) for j in range(8)]


def test_split_kv_partials_side_by_side_then_a_strided_reduction():
    # Kernel 1: 4 blocks each sum their 16 columns of X [2, 64] to 4
    # (sum_last_to over 2 iterations of 8) and write the partials side by
    # side into P [2, 16]. Kernel 2 reduces P to 4, strided: the strided
    # reduction of X to 4.
    first = graph([value([2, 64]), value([2, 8]), value([2, 4]),
                   value([2, 16])], [0], [3],
                  [op("input_loader", [0], [1], imap=[1, -1, -1], fmap=1),
                   op("forloop_accum", [1], [2], kind="sum_last_to", size=4),
                   op("output_saver", [2], [3], omap=[1, -1, -1])])
    second = graph([value([2, 16]), value([2, 16]), value([2, 4]),
                    value([2, 4])], [0], [3],
                   [op("input_loader", [0], [1], imap=[-1, -1, -1]),
                    op("reduction", [1], [2], dim=1, size=4),
                    op("output_saver", [2], [3], omap=[-1, -1, -1])])
    program = graph([value([2, 64]), value([2, 16]), value([2, 4])], [0], [2],
                    [graph_def([0], [1], first, [4, 1, 1], forloop=2),
                     graph_def([1], [2], second, [1, 1, 1])])
    x = random([2, 64], "f32")
    [out] = evaluate(program, [x])
    expected = x.astype(np.float64).reshape(2, 16, 4).sum(1)
    assert np.abs(out - expected).max() < 1e-12


def rmsnorm_cluster():
    """rms_norm of H [4, 64], each row over a cluster of 4 blocks of 16
    columns that add their partial sums of squares with cluster_reduce."""
    square = graph([value([], "f16"), value([], "f16")], [0], [1],
                   [op("square", [0], [1])])
    tile, one = value([1, 16], "f16"), value([1, 1], "f16")
    body = graph([value([4, 64], "f16"), tile, tile, one, one, one, one, tile,
                  value([4, 64], "f16")], [0], [8],
                 [op("input_loader", [0], [1], imap=[1, 0, -1], fmap=-1),
                  op("thread_graph", [1], [2], body=square),
                  op("reduction", [2], [3], dim=1, size=1),
                  op("cluster_reduce", [3], [4]),
                  op("mul_scalar", [4], [5], value=1 / 64),
                  op("sqrt", [5], [6]),
                  op("div", [1, 6], [7]),
                  op("output_saver", [7], [8], omap=[1, 0, -1])])
    return one_kernel([value([4, 64], "f16")], value([4, 64], "f16"), body,
                      [4, 4, 1], cluster=[4, 1, 1])


def test_cluster_reduce_sums_over_the_cluster():
    h = random([4, 64])
    [out] = evaluate(rmsnorm_cluster(), [h])
    h64 = h.astype(np.float64)
    expected = h64 / np.sqrt((h64 ** 2).mean(1, keepdims=True))
    assert relative(out, expected) < 1e-12
    [emulated] = evaluate(rmsnorm_cluster(), [h], "emulate")
    assert relative(emulated, expected) < 5e-3


def test_blocks_run_in_chunks_of_whole_clusters():
    h = random([4, 64])
    [whole] = evaluate(rmsnorm_cluster(), [h], "emulate")
    # A budget below one cluster still runs one whole cluster at a time.
    [chunked] = evaluate(rmsnorm_cluster(), [h], "emulate", memory_budget=1)
    assert np.array_equal(whole, chunked)


def test_blocks_are_ordered_cluster_by_cluster_in_rank_order():
    assert interpreter.block_order([4, 2, 1], [2, 2, 1]) == [
        (0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0),
        (2, 0, 0), (3, 0, 0), (2, 1, 0), (3, 1, 0)]


def test_cluster_gather_concatenates_in_rank_order():
    # H [4, 64]: blocks (x, y) load H[y, 16x:16x+16]; clusters of 2 x 2
    # gather along dim 1 in rank order (x fastest), and every block saves
    # the gathered [1, 64] at columns 64x of row y.
    body = graph([value([4, 64]), value([1, 16]), value([1, 64]),
                  value([4, 256])], [0], [3],
                 [op("input_loader", [0], [1], imap=[1, 0, -1], fmap=-1),
                  op("cluster_gather", [1], [2], dim=1),
                  op("output_saver", [2], [3], omap=[1, 0, -1])])
    program = one_kernel([value([4, 64])], value([4, 256]), body, [4, 4, 1],
                         cluster=[2, 2, 1])
    h = np.arange(256, dtype=np.float32).reshape(4, 64)
    [out] = evaluate(program, [h])
    expected = np.zeros([4, 256])
    for y in range(4):
        for x in range(4):
            cx, cy = x - x % 2, y - y % 2
            ranks = [(cx, cy), (cx + 1, cy), (cx, cy + 1), (cx + 1, cy + 1)]
            expected[y, 64 * x:64 * x + 64] = np.concatenate(
                [h[ry, 16 * rx:16 * rx + 16] for rx, ry in ranks])
    assert out.tolist() == expected.tolist()


def test_cluster_reduce_scatter_keeps_each_ranks_chunk():
    # H [8, 64]: block (x, y) loads H[4y:4y+4, 16x:16x+16]; the 4 blocks of
    # a cluster along x add their tiles, and rank x keeps columns
    # [4x, 4x+4) of the [4, 16] sum, which it saves at columns 4x of rows 4y.
    body = graph([value([8, 64]), value([4, 16]), value([4, 4]),
                  value([8, 16])], [0], [3],
                 [op("input_loader", [0], [1], imap=[1, 0, -1], fmap=-1),
                  op("cluster_reduce_scatter", [1], [2], dim=1),
                  op("output_saver", [2], [3], omap=[1, 0, -1])])
    program = one_kernel([value([8, 64])], value([8, 16]), body, [4, 2, 1],
                         cluster=[4, 1, 1])
    h = np.arange(512, dtype=np.float32).reshape(8, 64)
    [out] = evaluate(program, [h])
    expected = h.reshape(8, 4, 16).sum(1)
    assert out.tolist() == expected.tolist()


def thread_graph_program():
    """y = (x / 3) / 3 in a thread_graph (as products), x [1, 8] f16."""
    scalar, tile = value([], "f16"), value([1, 8], "f16")
    body = graph([scalar, scalar, scalar], [0], [2],
                 [op("mul_scalar", [0], [1], value=1 / 3),
                  op("mul_scalar", [1], [2], value=1 / 3)])
    block = graph([tile, tile, tile, tile], [0], [3],
                  [op("input_loader", [0], [1], imap=[-1, -1, -1]),
                   op("thread_graph", [1], [2], body=body),
                   op("output_saver", [2], [3], omap=[-1, -1, -1])])
    return one_kernel([tile], tile, block, [1, 1, 1])


def test_thread_graphs_round_every_body_value():
    x = random([1, 8], seed=3)
    [emulated] = evaluate(thread_graph_program(), [x], "emulate")
    third = np.float32(1 / 3)
    once = (x.astype(np.float32) * third).astype(np.float16)
    twice = (once.astype(np.float32) * third).astype(np.float16)
    assert emulated.tolist() == twice.astype(np.float32).tolist()
    # Without the rounding of the intermediate value, some results differ.
    [exact] = evaluate(thread_graph_program(), [x], "f32")
    assert np.abs(exact - x.astype(np.float64) / 9).max() < 1e-6
    assert (emulated != exact.astype(np.float16)).any()


def test_thread_graphs_broadcast_their_operands():
    scalar = value([], "f32")
    body = graph([scalar, scalar, scalar], [0, 1], [2],
                 [op("sub", [0, 1], [2])])
    block = graph([value([2, 1]), value([1, 3]), value([2, 1]),
                   value([1, 3]), value([2, 3]), value([2, 3])], [0, 1], [5],
                  [op("input_loader", [0], [2], imap=[-1, -1, -1]),
                   op("input_loader", [1], [3], imap=[-1, -1, -1]),
                   op("thread_graph", [2, 3], [4], body=body),
                   op("output_saver", [4], [5], omap=[-1, -1, -1])])
    program = one_kernel([value([2, 1]), value([1, 3])], value([2, 3]), block,
                         [1, 1, 1])
    a = np.array([[10.0], [20.0]], dtype=np.float32)
    b = np.array([[1.0, 2.0, 3.0]], dtype=np.float32)
    [out] = evaluate(program, [a, b])
    assert out.tolist() == (a - b).tolist()


def test_dtypes_include_nested_bodies():
    data = rmsnorm_linear()
    data["ops"][0]["body"]["values"][5]["dtype"] = "f32"  # The accumulator.
    program = Program.from_json(data, "program", block_graphs=True)
    assert program.dtypes == {"f16", "f32"}
    assert program.has_block_graphs


#===---------------------------------------------------------------------===#
# Validation
#===---------------------------------------------------------------------===#


def edited(edit):
    data = rmsnorm_linear()
    edit(data["ops"][0], data["ops"][0]["body"], data)
    return data


@pytest.mark.parametrize("edit, message", [
    (lambda g, b, p: b["values"][3].update(shape=[16, 24]),
     r"ops\[0\] \(graph_def\)\.body\.ops\[1\] \(input_loader\): result 3 "
     r"has shape \[16, 12\], but values\[3\] declares \[16, 24\]"),
    (lambda g, b, p: b["ops"][1].update(imap=[1, 1, -1]),
     r"imap maps two grid axes to dimension 1"),
    (lambda g, b, p: b["ops"][1].update(imap=[2, -1, -1]),
     r"imap maps grid axis x to dimension 2, out of range for rank 2"),
    (lambda g, b, p: g.update(grid=[5, 1, 1]),
     r"grid x \(5 blocks\) does not divide dimension 1 of size 48"),
    (lambda g, b, p: g.update(forloop=3),
     r"for-loop range 3 does not divide dimension 1"),
    (lambda g, b, p: b["ops"][6].update(omap=[-1, -1, -1]),
     r"grid axis x has 4 blocks but omap does not map it"),
    (lambda g, b, p: b["ops"][5].update(operands=[4, 6]),
     r"ops\[5\] \(div\): mixes a value computed in every for-loop "
     r"iteration with an accumulated one"),
    (lambda g, b, p: b["ops"][6].update(operands=[4]),
     r"output_saver\): saves a value that changes in every one of the 4"),
    (lambda g, b, p: b["ops"][4].update(operands=[5]),
     r"forloop_accum\): accumulates a value that is already accumulated"),
    (lambda g, b, p: b["ops"][3].update(kind="mean"),
     r"unknown accumulator kind 'mean'"),
    (lambda g, b, p: b["ops"][3].update(size=2),
     r"a size is only allowed with 'sum_last_to'"),
    (lambda g, b, p: b["ops"][2].update(operands=[0, 3]),
     r"ops\[2\] \(matmul\): operand 0 is a kernel tensor; only "
     r"input_loader reads those"),
    (lambda g, b, p: b["ops"][0].update(operands=[2]),
     r"operand 2 is used before it is defined"),
    (lambda g, b, p: b.update(outputs=[7]),
     r"body\.outputs: value 7 is not the result of an output_saver"),
    (lambda g, b, p: b["ops"][2].update(op="chunk", dim=0, parts=1),
     r"body\.ops\[2\]: unknown op 'chunk' in a block graph"),
    (lambda g, b, p: g.update(cluster=[3, 1, 1]),
     r"cluster x \(3\) does not divide grid x \(4\)"),
    (lambda g, b, p: p["values"][2].update(dtype="f32"),
     r"ops\[0\] \(graph_def\): result 2 has dtype f32, expected f16$"),
    (lambda g, b, p: g.update(operands=[0]),
     r"ops\[0\] \(graph_def\): body has 2 inputs for 1 operands"),
])
def test_rejects_malformed_block_graphs(edit, message):
    with pytest.raises(ProgramError, match="^program: .*" + message):
        Program.from_json(edited(edit), "program", block_graphs=True)


def test_a_reference_may_not_have_graph_defs():
    with pytest.raises(ProgramError,
                       match=r"^reference: ops\[0\]: graph_def is not "
                       r"allowed here: a reference holds kernel ops only"):
        Program.from_json(rmsnorm_linear())


def test_rejects_malformed_thread_and_cluster_ops():
    data = rmsnorm_cluster()
    body = data["ops"][0]["body"]
    body["ops"][1]["body"]["ops"][0] = op("matmul", [0, 0], [1])
    with pytest.raises(ProgramError, match=r"body\.ops\[1\] \(thread_graph\)"
                       r"\.body\.ops\[0\]: unknown op 'matmul' in a thread"):
        Program.from_json(data, "program", block_graphs=True)
    data = rmsnorm_cluster()
    data["ops"][0]["body"]["ops"][1]["body"]["values"][0]["shape"] = [1]
    with pytest.raises(ProgramError, match=r"values\[0\]\.shape: expected a "
                       r"scalar"):
        Program.from_json(data, "program", block_graphs=True)
    data = rmsnorm_cluster()
    data["ops"][0]["body"]["ops"][3] = op("cluster_gather", [3], [4], dim=1)
    with pytest.raises(ProgramError, match=r"\(cluster_gather\): result 4 has "
                       r"shape \[1, 4\], but values\[4\] declares \[1, 1\]"):
        Program.from_json(data, "program", block_graphs=True)


#===---------------------------------------------------------------------===#
# The µGraphs of examples/mugraphs, through the bundle writer
#===---------------------------------------------------------------------===#


@pytest.mark.skipif(not BUNDLER.is_file(),
                    reason="build/bin/mirage-bundle is not built")
@pytest.mark.parametrize("mugraph, benchmark", [
    ("rmsnorm_linear_fused", "rmsnorm_linear_bs1"),
    ("gqa_splitkv_bs1", "gqa_bs1"),
    ("rmsnorm_cluster", None),  # Its module holds its reference.
])
def test_bundle_programs_compute_their_references(tmp_path, mugraph,
                                                  benchmark):
    command = [str(BUNDLER),
               str(REPO / "examples" / "mugraphs" / f"{mugraph}.mlir"),
               "-o", str(tmp_path / "bundle")]
    if benchmark:
        command.append("--reference=" + str(
            REPO / "examples" / "benchmarks" / f"{benchmark}.mlir"))
    subprocess.run(command, check=True)
    function = read_plan(tmp_path / "bundle").functions[mugraph]
    program = Program.from_json(function.program, "program",
                                block_graphs=True)
    ref = Program.from_json(function.reference)
    assert program.has_block_graphs and not ref.has_block_graphs
    inputs = [random(t.shape, t.dtype, seed=i, scale=0.1)
              for i, t in enumerate(program.input_types)]
    backend = NumpyBackend()
    computed = interpreter.evaluate(program, inputs, backend, "f64")
    expected = interpreter.evaluate(ref, inputs, backend, "f64")
    for out, want in zip(computed, expected):
        assert out.shape == want.shape
        assert relative(out, want) < 1e-9


def test_the_torch_backend_computes_the_same():
    # The GPU check runs the interpreter on torch; here on the CPU.
    torch = pytest.importorskip("torch")
    backend = TorchBackend(torch, torch.device("cpu"))
    cases = [(tiled_exp_add("f16"),
              [random([8, 64]), random([1, 64], seed=1)]),
             (rmsnorm_linear(), [random([2, 64]), random([64, 48], seed=1)]),
             (rmsnorm_cluster(), [random([4, 64])]),
             (thread_graph_program(), [random([1, 8], seed=3)])]
    for data, arrays in cases:
        program = Program.from_json(data, "program", block_graphs=True)
        for mode, tolerance in (("f64", 1e-12), ("emulate", 2e-3)):
            [expected] = interpreter.evaluate(program, arrays, NumpyBackend(),
                                            mode)
            [computed] = interpreter.evaluate(
                program, [torch.from_numpy(a) for a in arrays], backend, mode)
            assert relative(computed.numpy(), expected) <= tolerance


def test_a_running_maximum_is_the_maximum_over_every_iteration():
    """Online softmax: `sub` of a `forloop_accum max` in the loop reads the
    maximum over all iterations (docs/LanguageReference.md, "Running
    maxima"), so the row sums of exp(x - max) over the loop are the
    max-subtracted softmax's denominators, with logits that would overflow
    exp without the maximum."""
    body = graph(
        [value([4, 64]), value([4, 16]), value([4, 1]), value([4, 1]),
         value([4, 16]), value([4, 16]), value([4, 1]), value([4, 1]),
         value([4, 1]), value([4, 1])],
        [0], [8, 9],
        [op("input_loader", [0], [1], imap=[-1, -1, -1], fmap=1),
         op("reduction_max", [1], [2], dim=1),
         op("forloop_accum", [2], [3], kind="max"),
         op("sub", [1, 3], [4]),
         op("exp", [4], [5]),
         op("forloop_accum", [5], [6], kind="sum_last"),
         op("output_saver", [6], [8], omap=[-1, -1, -1]),
         op("output_saver", [3], [9], omap=[-1, -1, -1])])
    program = graph([value([4, 64]), value([4, 1]), value([4, 1])], [0],
                    [1, 2], [graph_def([0], [1, 2], body, [1, 1, 1],
                                       forloop=4)])
    x = random([4, 64], "f32", scale=100.0)
    sums, maxima = evaluate(program, [x])
    m = x.astype(np.float64).max(axis=1, keepdims=True)
    assert np.allclose(maxima, m)
    assert np.allclose(sums, np.exp(x - m).sum(axis=1, keepdims=True))


def test_a_running_maximum_of_a_shifted_value_is_refused():
    body = graph(
        [value([4, 64]), value([4, 16]), value([4, 1]), value([4, 1]),
         value([4, 16]), value([4, 1]), value([4, 1]), value([4, 16]),
         value([4, 1])],
        [0], [8],
        [op("input_loader", [0], [1], imap=[-1, -1, -1], fmap=1),
         op("reduction_max", [1], [2], dim=1),
         op("forloop_accum", [2], [3], kind="max"),
         op("sub", [1, 3], [4]),
         op("reduction_max", [4], [5], dim=1),
         op("forloop_accum", [5], [6], kind="max"),
         op("sub", [4, 6], [7]),
         op("output_saver", [6], [8], omap=[-1, -1, -1])])
    program = graph([value([4, 64]), value([4, 1])], [0], [1],
                    [graph_def([0], [1], body, [1, 1, 1], forloop=4)])
    with pytest.raises(ProgramError,
                       match="running maximum whose input depends on a "
                             "running maximum"):
        Program.from_json(program, "program", block_graphs=True)
