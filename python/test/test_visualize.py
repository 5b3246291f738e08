"""graph.visualize / kernel.visualize: Graphviz pictures of every level."""

import shutil

import pytest

import mirage as mi
from mirage import visualize


def gated_mlp():
    graph = mi.new_kernel_graph("gated_mlp")
    x = graph.new_input((8, 1024))
    gate = graph.matmul(x, graph.new_input((1024, 2048)))
    up = graph.matmul(x, graph.new_input((1024, 2048)))
    graph.mark_output(graph.mul(graph.silu(gate), up))
    return graph


def test_a_kernel_graph(compiler_library, tmp_path):
    dot = gated_mlp().visualize(tmp_path / "g.dot").read_text()
    assert dot.startswith('digraph "gated_mlp" {')
    assert dot.count("shape=\"ellipse\"") == 3
    assert dot.count('label="matmul"') == 2 and "cluster" not in dot
    assert 'label="8x1024 f16"' in dot  # edges name what flows


def test_a_mugraph_has_a_box_per_level(compiler_library, kernel_cache,
                                       tmp_path):
    kernel = gated_mlp().superoptimize(time_limit=20, search_threads=1)
    dot = kernel.visualize(tmp_path / "k.dot").read_text()
    assert "graph_def: grid [" in dot and 'label="thread_graph"' in dot
    assert dot.count("subgraph cluster_") == 2
    assert "input_loader\\nimap <x=1>\\nfmap 0" in dot
    # Edges come after every box: none pulls a node into the wrong one.
    body = dot.splitlines()
    last_brace = max(i for i, line in enumerate(body) if line.strip() == "}"
                     and i < len(body) - 2)
    assert all("->" not in line for line in body[:last_brace])


@pytest.mark.skipif(shutil.which("dot") is None, reason="no Graphviz")
@pytest.mark.parametrize("suffix, magic", [(".svg", b"<?xml"),
                                           (".png", b"\x89PNG")])
def test_renders_with_graphviz(compiler_library, tmp_path, suffix, magic):
    path = gated_mlp().visualize(tmp_path / f"g{suffix}")
    assert path.read_bytes().startswith(magic)


def test_refusals(compiler_library, tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="use .svg, .png, .pdf or .dot"):
        gated_mlp().visualize(tmp_path / "g.jpg")
    monkeypatch.setattr(visualize.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="apt install graphviz"):
        gated_mlp().visualize(tmp_path / "g.svg")
