"""Pictures of graphs and µGraphs with Graphviz: every level, each
`graph_def` as a box of its thread-block graph and each `thread_graph` as
a box inside it.

    graph.visualize("graph.svg")      # a KernelGraph
    kernel.visualize("kernel.png")    # what superoptimize found

The picture is drawn from the compiler's description of the program
(mirage.compiler.describe_function); `dot` (Debian's graphviz) renders
`.svg`, `.png` and `.pdf`; a `.dot` path gets the source.
"""

import pathlib
import shutil
import subprocess

__all__ = ["to_dot", "render"]

_AXES = "xyz"


def _shape(value):
    return "x".join(map(str, value["shape"])) + " " + value["dtype"]


def _map_text(name, axes):
    pairs = [f"{_AXES[a]}={d}" for a, d in enumerate(axes) if d >= 0]
    return f"{name} <{', '.join(pairs)}>"


def _op_label(op):
    """The op's name and attributes, one per line."""
    kind, lines = op["op"], [op["op"]]
    if kind == "input_loader":
        lines += [_map_text("imap", op["imap"]), f"fmap {op['fmap']}"]
    elif kind == "output_saver":
        lines.append(_map_text("omap", op["omap"]))
    elif kind == "forloop_accum":
        lines.append(op.get("kind", "sum"))
    elif kind == "mul_scalar":
        lines.append(f"by {op['value']:g}")
    for attribute in ("dim", "size", "parts"):
        if attribute in op:
            lines.append(f"{attribute} {op[attribute]}")
    if op.get("eps"):
        lines.append(f"eps {op['eps']:g}")
    return "\\n".join(lines)


class _Writer:
    """Nodes go in their graph's box; edges all at the top level, where an
    edge names nodes without pulling them into a box."""

    def __init__(self):
        self.lines, self.edges, self.count = [], [], 0

    def node(self, label, indent, **attributes):
        name = f"n{self.count}"
        self.count += 1
        extra = "".join(f', {k}="{v}"' for k, v in attributes.items())
        self.lines.append(f'{indent}{name} [label="{label}"{extra}];')
        return name

    def edge(self, source, target, label):
        self.edges.append(f'  {source} -> {target} [label="{label}"];')

    def graph(self, program, producers, indent):
        """Draws `program`'s ops; `producers` maps its values to the node
        that makes each. Returns the producers of its outputs."""
        values = program["values"]
        for op in program["ops"]:
            if op["op"] in ("graph_def", "thread_graph"):
                body = op["body"]
                title = op["op"]
                if title == "graph_def":
                    title += (f": grid {op['grid']}, block {op['threads']}, "
                              f"forloop {op['forloop']}")
                    if op.get("cluster", [1, 1, 1]) != [1, 1, 1]:
                        title += f", cluster {op['cluster']}"
                self.lines.append(f"{indent}subgraph cluster_{self.count} {{")
                self.count += 1
                self.lines.append(f'{indent}  label="{title}"; '
                                  f'style="rounded"; color="gray40";')
                inner = {i: producers[o] for i, o in
                         zip(body["inputs"], op["operands"])}
                outputs = self.graph(body, inner, indent + "  ")
                self.lines.append(f"{indent}}}")
                producers.update(zip(op["results"], outputs))
                continue
            node = self.node(_op_label(op), indent, shape="box")
            for operand in op["operands"]:
                if operand in producers:
                    self.edge(producers[operand], node,
                              _shape(values[operand])
                              if values[operand]["shape"] else
                              values[operand]["dtype"])
            for result in op["results"]:
                producers[result] = node
        return [producers[o] for o in program["outputs"]]


def to_dot(description, name="graph"):
    """The Graphviz source of a described program."""
    writer = _Writer()
    producers = {}
    for position, index in enumerate(description["inputs"]):
        value = description["values"][index]
        producers[index] = writer.node(f"input {position}\\n{_shape(value)}",
                                       "  ", shape="ellipse")
    outputs = writer.graph(description, producers, "  ")
    for position, (index, source) in enumerate(zip(description["outputs"],
                                                   outputs)):
        value = description["values"][index]
        sink = writer.node(f"output {position}\\n{_shape(value)}", "  ",
                           shape="doubleoctagon")
        writer.edge(source, sink, "")
    return "\n".join([f'digraph "{name}" {{', "  rankdir=TB;",
                      '  node [fontname="Helvetica"]; '
                      'edge [fontname="Helvetica", fontsize=10];',
                      *writer.lines, *writer.edges, "}", ""])


def render(source, path, name="graph"):
    """Draws the function of MLIR `source` into `path` (.svg, .png, .pdf, or
    .dot for the Graphviz source); returns the path."""
    from mirage import compiler
    path = pathlib.Path(path)
    dot = to_dot(compiler.describe_function(source, name=f"{name}.mlir"),
                 name)
    if path.suffix == ".dot":
        path.write_text(dot)
        return path
    if path.suffix not in (".svg", ".png", ".pdf"):
        raise ValueError(f"visualize: {path.name}: use .svg, .png, .pdf or "
                         ".dot")
    executable = shutil.which("dot")
    if executable is None:
        raise RuntimeError("visualize: Graphviz's `dot` is not installed "
                           "(Debian: apt install graphviz); a .dot path "
                           "writes the source without it")
    subprocess.run([executable, f"-T{path.suffix[1:]}", "-o", str(path)],
                   input=dot, text=True, check=True, capture_output=True)
    return path
