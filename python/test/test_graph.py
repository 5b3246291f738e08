"""The Python graph builder (mirage.graph): ops, shape and dtype errors
raised when an op is added, and the MLIR it prints (checked by the compiler
where the library is built)."""

import pytest

import mirage as mi
from mirage import graph as mgraph


def rmsnorm_linear():
    graph = mi.new_kernel_graph("rmsnorm_linear")
    X = graph.new_input(dims=(8, 4096), dtype=mi.float16)
    W = graph.new_input(dims=(4096, 6144), dtype=mi.float16)
    graph.mark_output(graph.matmul(graph.rms_norm(X, (4096,)), W))
    return graph


def test_prints_the_public_example_as_a_kernel_function():
    text = rmsnorm_linear().to_mlir()
    assert text.splitlines() == [
        "func.func @rmsnorm_linear(%arg0: tensor<8x4096xf16>, "
        "%arg1: tensor<4096x6144xf16>) -> (tensor<8x6144xf16>) {",
        "  %v0 = mirage_kernel.rms_norm %arg0 size 4096 : tensor<8x4096xf16>",
        "  %v1 = mirage_kernel.matmul %v0, %arg1 : tensor<8x4096xf16>, "
        "tensor<4096x6144xf16> -> tensor<8x6144xf16>",
        "  return %v1 : tensor<8x6144xf16>",
        "}"]


def test_every_op_of_the_dialect():
    graph = mi.new_graph("every_op")  # the public implementation's old name
    X = graph.new_input((4, 8), mi.bfloat16)
    Y = graph.new_input((4, 1), "bf16")
    values = [getattr(graph, op)(X) for op in mgraph.UNARY_OPS]
    values += [getattr(graph, op)(X, Y) for op in mgraph.BINARY_OPS]
    values.append(graph.mul_scalar(X, 0.125))
    values.append(graph.reduction(X, dim=1))
    values.append(graph.reduction(X, dim=-1, size=2))
    values.append(graph.reduction_max(X, dim=-1))
    values.append(graph.rms_norm(X, (8,), eps=1e-6))
    values.append(graph.concat(X, X, dim=0))
    values += graph.chunk(X, 2, dim=1)
    values.append(graph.matmul(X, graph.new_input((8, 2), mi.bfloat16),
                               out_dtype=mi.float32))
    for value in values:
        graph.mark_output(value)
    assert [v.dims for v in values[-7:]] == [
        (4, 2), (4, 1), (4, 8), (8, 8), (4, 4), (4, 4), (4, 2)]
    assert values[-1].dtype is mi.float32
    text = graph.to_mlir()
    for op in mgraph.UNARY_OPS + mgraph.BINARY_OPS:
        assert f"mirage_kernel.{op} " in text
    assert "mul_scalar %arg0 by 1.250000000e-01" in text
    assert "reduction %arg0 dim 1 size 2" in text
    assert "reduction_max %arg0 dim 1 : tensor<4x8xbf16> -> " \
        "tensor<4x1xbf16>" in text


@pytest.mark.parametrize("build, message", [
    (lambda g, a, b: g.matmul(a, a),
     "matmul: (8, 4096) by (8, 4096): contracting dimensions differ "
     "(4096 vs 8)"),
    (lambda g, a, b: g.add(a, b),
     "add: (8, 4096) and (4096, 6144): dimension 0 does not broadcast "
     "(8 vs 4096)"),
    (lambda g, a, b: g.mul(a, g.new_input((8, 4096), mi.float32)),
     "mul: (8, 4096) and (8, 4096): dtypes differ"),
    (lambda g, a, b: g.add(a, g.new_input((4096,), mi.float16)),
     "add: (8, 4096) and (4096): ranks differ"),
    (lambda g, a, b: g.reduction(a, dim=2), "reduction: dim 2 is out of range"),
    (lambda g, a, b: g.reduction_max(a, dim=-3),
     "reduction_max: dim -3 is out of range"),
    (lambda g, a, b: g.reduction(a, dim=1, size=3),
     "reduction: size 3 does not divide dimension 1 of (8, 4096)"),
    (lambda g, a, b: g.rms_norm(a, (8,)),
     "rms_norm: normalized_shape (8) is not the trailing dimensions"),
    (lambda g, a, b: g.rms_norm(a, (4096,), eps=-1.0),
     "rms_norm: eps must be finite and >= 0"),
    (lambda g, a, b: g.chunk(a, 3, dim=0), "chunk: 3 parts of dimension 0"),
    (lambda g, a, b: g.concat(a, b, dim=0),
     "concat: (8, 4096) and (4096, 6144): they differ outside dimension 0"),
    (lambda g, a, b: g.mul_scalar(a, float("nan")),
     "mul_scalar: the factor must be finite"),
    (lambda g, a, b: g.new_input((8, 0)), "new_input: dims must be positive"),
    (lambda g, a, b: g.new_input((8, 4)), None),
    (lambda g, a, b: g.new_input((8, 4), strides=(1, 8)),
     "new_input: strides (1, 8) for dims (8, 4) are not row-major (4, 1)"),
    (lambda g, a, b: g.new_input((8,), dtype="int8"),
     "new_input: unsupported dtype 'int8'"),
    (lambda g, a, b: mi.new_kernel_graph().exp(a), "exp: Tensor((8, 4096)"),
    (lambda g, a, b: g.exp(3.0), "exp: expected a mirage Tensor, got float"),
])
def test_errors_name_the_op_and_the_shapes(build, message):
    graph = mi.new_kernel_graph()
    a = graph.new_input((8, 4096), mi.float16)
    b = graph.new_input((4096, 6144), mi.float16)
    if message is None:
        build(graph, a, b)
        return
    with pytest.raises((ValueError, TypeError)) as error:
        build(graph, a, b)
    assert message in str(error.value)


def test_a_graph_without_outputs_or_with_a_bad_name_is_refused():
    with pytest.raises(ValueError, match="no output"):
        mi.new_kernel_graph().to_mlir()
    with pytest.raises(ValueError, match="not an identifier"):
        mi.new_kernel_graph("two words")


def test_the_compiler_verifies_what_the_builder_prints(compiler_library):
    rmsnorm_linear().verify()


def every_op_graph():
    graph = mi.new_kernel_graph("every_op")
    x = graph.new_input((4, 8))
    y = graph.new_input((4, 1))
    a, b = graph.chunk(x, 2, dim=1)
    graph.mark_output(graph.mul_scalar(
        graph.rms_norm(graph.div(x, y), (8,), eps=1e-5), 0.1))
    graph.mark_output(graph.reduction(a, dim=1, size=2))
    graph.mark_output(graph.concat(graph.exp(a), b, dim=1))
    graph.mark_output(graph.matmul(x, graph.new_input((8, 2)),
                                   out_dtype=mi.float32))
    return graph


def test_from_mlir_rebuilds_the_graph(compiler_library):
    graph = every_op_graph()
    rebuilt = mi.from_mlir(graph.to_mlir())
    assert rebuilt.name == "every_op"
    assert rebuilt.to_mlir() == graph.to_mlir()
    assert [t.dims for t in rebuilt.outputs] == [(4, 8), (4, 2), (4, 8),
                                                (4, 2)]


def test_save_and_load(compiler_library, tmp_path):
    graph = every_op_graph()
    graph.save(tmp_path / "g.mlir")
    assert mi.load(tmp_path / "g.mlir").to_mlir() == graph.to_mlir()


def test_from_mlir_refusals(compiler_library):
    from mirage import compiler
    two = every_op_graph().to_mlir() + every_op_graph().to_mlir(name="other")
    with pytest.raises(compiler.CompilerError, match="holds 2 functions"):
        mi.from_mlir(two)
    assert mi.from_mlir(two, function="other").name == "other"
    with pytest.raises(compiler.CompilerError, match="no function @nope"):
        mi.from_mlir(two, function="nope")
    with pytest.raises(compiler.CompilerError, match="expected"):
        mi.from_mlir("func.func @f(")


def test_from_mlir_rebuilds_a_mugraph(compiler_library, kernel_cache):
    graph = mi.new_kernel_graph("rmsnorm_linear")
    x = graph.new_input((2, 64))
    graph.mark_output(graph.matmul(graph.rms_norm(x, (64,)),
                                   graph.new_input((64, 32))))
    kernel = graph.superoptimize(time_limit=5, search_threads=1)
    assert "graph_def" in kernel.mlir
    rebuilt = mi.from_mlir(kernel.mlir)
    assert "mirage_kernel.graph_def" in rebuilt.to_mlir()
    assert mi.check_equivalence(graph, rebuilt)


def test_save_and_load_the_public_json(compiler_library, tmp_path):
    from mirage import compiler
    graph = rmsnorm_linear()
    graph.save(tmp_path / "g.json")
    text = (tmp_path / "g.json").read_text()
    assert text.lstrip().startswith("[")  # the public list-of-graphs file
    loaded = mi.load(tmp_path / "g.json")
    assert loaded.name == "graph_0"
    assert loaded.to_mlir(name="rmsnorm_linear") == graph.to_mlir()
    (tmp_path / "bad.json").write_text("[{\"ops\": 3}]")
    with pytest.raises(compiler.CompilerError, match="bad.json"):
        mi.load(tmp_path / "bad.json")


def test_a_broken_public_json_names_its_problem(compiler_library):
    from mirage import compiler
    broken = (mi.CHECKOUT / "test" / "Target" / "MirageJSON" / "Inputs" /
              "broken" / "truncated-mid-array.json")
    with pytest.raises(compiler.CompilerError) as error:
        compiler.import_mirage_json(broken.read_text(), name=broken.name)
    assert "truncated-mid-array.json" in error.value.diagnostics
    valid = broken.parent.parent / "valid_small.json"
    assert "func.func @graph_0" in compiler.import_mirage_json(
        valid.read_text(), name=valid.name)


def test_from_mlir_rebuilds_a_row_maximum(compiler_library):
    graph = mi.new_kernel_graph("stable_softmax")
    x = graph.new_input((4, 8))
    e = graph.exp(graph.sub(x, graph.reduction_max(x, dim=1)))
    graph.mark_output(graph.div(e, graph.reduction(e, dim=1)))
    rebuilt = mi.from_mlir(graph.to_mlir())
    assert rebuilt.to_mlir() == graph.to_mlir()
    assert "reduction_max %arg0 dim 1" in rebuilt.to_mlir()
