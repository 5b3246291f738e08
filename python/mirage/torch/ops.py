"""The op a compiled FX graph calls for each Mirage subgraph.

On torch 2.4 and later that is the custom op `torch.ops.mirage.run(key,
inputs)`, which Inductor keeps as an opaque call and traces through its
fake implementation (the output shapes and dtypes the subgraph records);
elsewhere (torch.fx alone) the plain function `run`. Both look the
subgraph up by `key` in this process's registry.
"""

import hashlib
from typing import List

import torch

__all__ = ["HAS_CUSTOM_OP", "register", "registered", "target", "run"]

_SUBGRAPHS = {}


def register(subgraph, identity):
    """Records `subgraph` (callable on a list of tensors, with
    `empty_outputs(inputs)`) under a key made from `identity`, a text that
    names what it computes and where it sits; returns the key.

    The key is derived from that text, not from the order of compiles:
    Inductor's graph cache can hand a compiled graph, with its keys, to
    another process, where the backend registers the same subgraph under
    the same key before Inductor looks it up, and a different subgraph
    never under it."""
    digest = hashlib.sha256(identity.encode()).hexdigest()[:20]
    key = f"mirage-{digest}"
    _SUBGRAPHS[key] = subgraph
    return key


def registered():
    """{key: subgraph} of every subgraph registered in this process."""
    return dict(_SUBGRAPHS)


def run(key, inputs):
    """The outputs of subgraph `key` on `inputs`, a list."""
    return _SUBGRAPHS[key](inputs)


#: Whether this torch has torch.library.custom_op (2.4 and later), which
#: Inductor needs to keep a Mirage subgraph as one opaque call.
HAS_CUSTOM_OP = hasattr(torch, "library") and hasattr(torch.library,
                                                      "custom_op")

if HAS_CUSTOM_OP:
    @torch.library.custom_op("mirage::run", mutates_args=())
    def _run_op(key: str, inputs: List[torch.Tensor]) -> List[torch.Tensor]:
        return run(key, inputs)

    @_run_op.register_fake
    def _run_fake(key, inputs):
        return _SUBGRAPHS[key].empty_outputs(inputs)

    _TARGET = torch.ops.mirage.run.default
else:
    _TARGET = run


def target():
    """What an FX call_function node calls: (key, [input tensors])."""
    return _TARGET
