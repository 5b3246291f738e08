"""Thread-block graphs written by hand (mirage.blockgraph) and
KernelGraph.customized / compile: the paper's fused RMSNorm + Linear built
from Python, proven equivalent and compiled, and every error path."""

import pytest

import mirage as mi


def reference():
    graph = mi.new_kernel_graph("rmsnorm_linear")
    X = graph.new_input((2, 4096))
    W = graph.new_input((4096, 6144))
    graph.mark_output(graph.matmul(graph.rms_norm(X, (4096,)), W))
    return graph


def fused(grid=(256, 1, 1), forloop=32):
    graph = mi.new_kernel_graph("fused")
    X = graph.new_input((2, 4096))
    W = graph.new_input((4096, 6144))
    tb = mi.new_threadblock_graph(grid_dim=grid, block_dim=(128, 1, 1),
                                  forloop_range=forloop, reduction_dimx=64)
    x = tb.new_input(dtensor=X, input_map=(-1, -1, -1), forloop_dim=1)
    w = tb.new_input(dtensor=W, input_map=(1, -1, -1), forloop_dim=0)
    acc = tb.forloop_accum(tb.matmul(x, w))
    rms = tb.forloop_accum(x, "rms")
    tb.new_output(stensor=tb.div(acc, rms), output_map=(1, -1, -1))
    (O,) = graph.customized([X, W], tb)
    graph.mark_output(O)
    return graph, tb, X, W


def test_the_fused_rmsnorm_linear_of_the_paper():
    graph, tb, _, _ = fused()
    text = graph.to_mlir()
    assert ("grid [256, 1, 1] block [128, 1, 1] forloop 32" in text)
    assert ("input_loader %b1 imap <x = 1> fmap 0 : tensor<4096x6144xf16> "
            "-> !mirage_block.stensor<128x24xf16>") in text
    assert ("forloop_accum %t0 rms_last : !mirage_block.stensor<2x128xf16> "
            "-> !mirage_block.stensor<2x1xf16>") in text
    assert "yield %o0 : tensor<2x6144xf16>" in text


def test_is_proven_equivalent_and_compiles(compiler_library, kernel_cache):
    graph = fused()[0]
    assert mi.check_equivalence(reference(), graph)
    kernel = graph.compile(chips=["sm_90a"])
    assert (kernel.directory / "sm_90a.ptx").is_file()
    assert "mirage_kernel.graph_def" in kernel.mlir


def test_a_wrong_mugraph_is_not_equivalent(compiler_library):
    graph = mi.new_kernel_graph("no_norm")
    X = graph.new_input((2, 4096))
    W = graph.new_input((4096, 6144))
    tb = mi.new_threadblock_graph((256, 1, 1), (128, 1, 1), 32)
    x = tb.new_input(X, (-1, -1, -1), 1)
    w = tb.new_input(W, (1, -1, -1), 0)
    tb.new_output(tb.forloop_accum(tb.matmul(x, w)), (1, -1, -1))
    graph.mark_output(graph.customized([X, W], tb)[0])
    assert not mi.check_equivalence(reference(), graph)


def test_accumulators_by_either_name():
    graph = mi.new_kernel_graph()
    X = graph.new_input((16, 4096))
    tb = mi.new_threadblock_graph((1, 1, 1), (128, 1, 1), 8,
                                  reduction_dimx=64)
    x = tb.new_input(X, (-1, -1, -1), 1)
    shapes = [tb.forloop_accum(x, acc).dims for acc in
              (None, "sum_last", "rms", "max", "sum_todimx")]
    assert shapes == [(16, 512), (16, 1), (16, 1), (16, 512), (16, 64)]


@pytest.mark.parametrize("build, message", [
    (lambda tb, X, W: tb.new_input(X, (0, -1, -1)),
     "256 blocks along x do not divide dimension 0 of (2, 4096)"),
    (lambda tb, X, W: tb.new_input(W, (1, 1, -1)),
     "maps two grid axes to one dimension"),
    (lambda tb, X, W: tb.new_input(W, (1, -1, -1), forloop_dim=1),
     "iterations do not divide dimension 1 of the tile (4096, 24)"),
    (lambda tb, X, W: tb.new_input(W, (2, -1, -1)), "must be (x, y, z)"),
    (lambda tb, X, W: tb.forloop_accum(tb.new_input(X, (-1, -1, -1), 1),
                                       "mean"),
     "unknown accumulator 'mean'"),
    (lambda tb, X, W: tb.forloop_accum(tb.forloop_accum(
        tb.new_input(X, (-1, -1, -1), 1))), "accumulated already"),
    (lambda tb, X, W: tb.add(tb.forloop_accum(tb.new_input(X, (-1, -1, -1),
                                                           1)),
                             tb.new_input(X, (-1, -1, -1), 1)),
     "mixes an accumulated tile"),
    (lambda tb, X, W: tb.new_output(tb.new_input(X, (-1, -1, -1), 1),
                                    (1, -1, -1)),
     "changes every iteration"),
    (lambda tb, X, W: tb.new_output(tb.forloop_accum(
        tb.new_input(X, (-1, -1, -1), 1)), (-1, -1, -1)),
     "grid axis x has 256 blocks but output_map"),
    (lambda tb, X, W: tb.matmul(tb.new_input(X, (-1, -1, -1), 1),
                                tb.new_input(X, (-1, -1, -1), 1)),
     "do not multiply"),
    (lambda tb, X, W: mi.new_threadblock_graph((2, 1), (128, 1, 1), 4),
     "grid_dim must be (x, y, z)"),
    (lambda tb, X, W: mi.new_threadblock_graph((2, 1, 1), (128, 2, 1), 4),
     "must be (threads, 1, 1)"),
])
def test_errors_name_the_op_and_the_shapes(build, message):
    graph = mi.new_kernel_graph()
    X = graph.new_input((2, 4096))
    W = graph.new_input((4096, 6144))
    tb = mi.new_threadblock_graph((256, 1, 1), (128, 1, 1), 32)
    with pytest.raises(ValueError) as error:
        build(tb, X, W)
    assert message in str(error.value)


def test_customized_checks_its_inputs():
    graph, tb, X, W = fused()
    with pytest.raises(ValueError, match="new_input calls took, in order"):
        graph.customized([W, X], tb)
    empty = mi.new_threadblock_graph((1, 1, 1), (128, 1, 1), 1)
    with pytest.raises(ValueError, match="has no output"):
        graph.customized([], empty)


def test_pictures_and_from_mlir_of_a_customized_graph(compiler_library,
                                                      tmp_path):
    graph = fused()[0]
    dot = graph.visualize(tmp_path / "f.dot").read_text()
    assert "graph_def: grid [256, 1, 1], block 128, forloop 32" in dot
    assert mi.from_mlir(graph.to_mlir()).to_mlir() == graph.to_mlir()


def test_an_rms_accumulator_with_eps_round_trips_through_mlir(
        compiler_library):
    graph = mi.new_kernel_graph("fused_eps")
    X = graph.new_input((2, 4096))
    W = graph.new_input((4096, 6144))
    tb = mi.new_threadblock_graph((256, 1, 1), (128, 1, 1), 32)
    x = tb.new_input(dtensor=X, input_map=(-1, -1, -1), forloop_dim=1)
    w = tb.new_input(dtensor=W, input_map=(1, -1, -1), forloop_dim=0)
    rms = tb.forloop_accum(x, "rms", eps=1e-6)
    tb.new_output(tb.div(tb.forloop_accum(tb.matmul(x, w)), rms),
                  (1, -1, -1))
    graph.mark_output(graph.customized([X, W], tb)[0])
    text = graph.to_mlir()
    assert "forloop_accum %t0 rms_last eps 9.999999975e-07 :" in text
    assert mi.from_mlir(text).to_mlir() == text
    with pytest.raises(ValueError, match="eps is only for 'rms'"):
        tb.forloop_accum(tb.matmul(x, w), "sum", eps=1e-6)
    with pytest.raises(ValueError, match="eps must be finite and >= 0"):
        tb.forloop_accum(x, "rms", eps=-1.0)


def test_the_copy_mode_round_trips_through_mlir(compiler_library):
    """A graph_def marked async_copies (cp.async where sm_90a would copy by
    TMA: the tuner's variant) keeps the mark through from_mlir."""
    graph = mi.new_kernel_graph("fused_async")
    X = graph.new_input((2, 4096))
    W = graph.new_input((4096, 6144))
    tb = mi.new_threadblock_graph((256, 1, 1), (128, 1, 1), 32,
                                  async_copies=True)
    x = tb.new_input(dtensor=X, input_map=(-1, -1, -1), forloop_dim=1)
    w = tb.new_input(dtensor=W, input_map=(1, -1, -1), forloop_dim=0)
    tb.new_output(tb.div(tb.forloop_accum(tb.matmul(x, w)),
                         tb.forloop_accum(x, "rms")), (1, -1, -1))
    graph.mark_output(graph.customized([X, W], tb)[0])
    text = graph.to_mlir()
    assert "forloop 32 async_copies {" in text
    assert mi.from_mlir(text).to_mlir() == text
    assert "async_copies" not in fused()[0].to_mlir()
    with pytest.raises(ValueError, match="async_copies must be a bool"):
        mi.new_threadblock_graph((1, 1, 1), (128, 1, 1), 1,
                                 async_copies="yes")


def test_a_saved_mugraph_file_loads_as_a_graph(compiler_library):
    from mirage import compiler
    path = (mi.CHECKOUT / "test" / "Target" / "MirageJSON" / "Inputs" /
            "valid_small.json")
    imported = compiler.import_mirage_json(path.read_text())
    graph = mi.load(path)
    assert "mirage_kernel.graph_def" in graph.to_mlir()
    assert mi.check_equivalence(graph, imported)


@pytest.mark.parametrize("edit, message", [
    (lambda op: op.update(cluster=[2, 1, 1]), "thread-block clusters"),
    (lambda op: op["body"]["ops"].insert(
        2, {"op": "concat", "operands": [3, 3], "results": [9], "dim": 0}),
     "holds a concat op, which thread-block graphs built in Python do not"),
])
def test_rebuilding_refuses_what_python_graphs_lack(compiler_library, edit,
                                                    message):
    from mirage import blockgraph, compiler
    graph = fused()[0]
    description = compiler.describe_function(graph.to_mlir())
    (op,) = description["ops"]
    edit(op)
    target = mi.new_kernel_graph("copy")
    X = target.new_input((2, 4096))
    W = target.new_input((4096, 6144))
    with pytest.raises(ValueError, match=message):
        blockgraph.rebuild_graph_def(target, op, [X, W])


def test_generate_triton_program(compiler_library, kernel_cache, tmp_path):
    import py_compile
    graph = fused()[0]
    path = graph.generate_triton_program(tmp_path / "fused.py")
    text = path.read_text()
    assert "@triton.jit" in text and "def fused(" in text
    py_compile.compile(str(path), doraise=True)
    kernel = reference().superoptimize(time_limit=10, search_threads=1)
    found = kernel.generate_triton_program(tmp_path / "found.py")
    py_compile.compile(str(found), doraise=True)
    assert "@triton.jit" in found.read_text()


def test_every_saved_upstream_mugraph_rebuilds(compiler_library):
    """The public implementation's 601 saved µGraphs (../shared/mugraphs,
    docs/Mugraphs.md) load as Python graphs, which the compiler verifies
    (thread graphs become tile ops)."""
    import re
    from mirage import compiler
    files = sorted((mi.CHECKOUT.parent / "shared" / "mugraphs" /
                    "upstream-2024").glob("*.json"))
    if not files:
        pytest.skip("the saved µGraphs are not beside the checkout")
    count = 0
    for path in files:
        imported = compiler.import_mirage_json(path.read_text(),
                                               name=path.name)
        for name in re.findall(r"func\.func @(\w+)\(", imported):
            graph = mi.from_mlir(imported, function=name)
            graph.verify()
            count += 1
    assert count == 601
