"""mi.check_equivalence: the finite-field verifier on graphs and on MLIR."""

import pytest

import mirage as mi
from mirage import compiler

MUGRAPH = """func.func @fused(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %0 = mirage_kernel.graph_def(%a = %x : tensor<2x64xf16>, %b = %w : tensor<64x32xf16>) -> tensor<2x32xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %1 = input_loader %a imap <> fmap -1 : tensor<2x64xf16> -> !mirage_block.stensor<2x64xf16>
    %2 = input_loader %b imap <> fmap -1 : tensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %3 = matmul %1, %2 : !mirage_block.stensor<2x64xf16>, !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<2x32xf16>
    %4 = output_saver %3 omap <> : !mirage_block.stensor<2x32xf16> -> tensor<2x32xf16>
    yield %4 : tensor<2x32xf16>
  }
  return %0 : tensor<2x32xf16>
}
"""


def binary(op, swap=False):
    graph = mi.new_kernel_graph()
    x = graph.new_input((4, 8))
    y = graph.new_input((4, 8))
    graph.mark_output(getattr(graph, op)(*((y, x) if swap else (x, y))))
    return graph


def matmul():
    graph = mi.new_kernel_graph()
    x = graph.new_input((2, 64))
    w = graph.new_input((64, 32))
    graph.mark_output(graph.matmul(x, w))
    return graph


def test_equivalent_graphs_come_with_their_bound(compiler_library):
    verdict = mi.check_equivalence(binary("mul"), binary("mul", swap=True))
    assert verdict and verdict.trials >= 2
    assert 0 < verdict.bound <= 2.0 ** -40


def test_a_difference_names_the_first_element(compiler_library):
    verdict = mi.check_equivalence(binary("mul"), binary("add"))
    assert not verdict and verdict.bound is None
    assert "output 0 differs at [0, 0]" in verdict.message


def test_a_mugraph_written_in_mlir(compiler_library):
    assert mi.check_equivalence(matmul(), MUGRAPH)
    # The same µGraph with an exp before its save computes something else.
    with_exp = MUGRAPH.replace(
        "    %4 = output_saver %3",
        "    %5 = exp %3 : !mirage_block.stensor<2x32xf16>\n"
        "    %4 = output_saver %5")
    assert not mi.check_equivalence(matmul(), with_exp)


def test_a_superoptimized_kernel(compiler_library, kernel_cache):
    kernel = matmul().superoptimize(time_limit=5, search_threads=1)
    assert mi.check_equivalence(matmul(), kernel.mlir)


def test_bad_programs_raise(compiler_library):
    with pytest.raises(ValueError, match="must hold one func.func, found 2"):
        mi.check_equivalence(matmul(), MUGRAPH + MUGRAPH)
    with pytest.raises(compiler.CompilerError, match="error"):
        mi.check_equivalence(matmul(), MUGRAPH.replace("2x32xf16>\n  }",
                                                       "2x33xf16>\n  }"))
