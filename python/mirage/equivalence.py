"""`mi.check_equivalence(reference, candidate)`: the finite-field verifier
(docs/Verification.md) on two programs, from Python.

Each program is a KernelGraph or the MLIR text of one `func.func` (a µGraph
written by hand, or a superoptimized kernel's `mlir`). The verdict comes
with the number of trials and the bound on the probability that an
"equivalent" verdict is wrong.
"""

import re

from mirage import compiler

__all__ = ["Equivalence", "check_equivalence"]

_FUNCTION = re.compile(r"func\.func\s+(?:private\s+)?@([\w$.-]+|\"[^\"]*\")")
_TRIALS = re.compile(r"is equivalent to @reference: (\d+) trials, "
                     r"false-positive probability <= 2\^(-?[\d.]+)")


class Equivalence:
    """A verdict: `equivalent`, `trials`, `bound` (the probability that an
    "equivalent" verdict is wrong; None for a difference) and `message`
    (the verifier's words)."""

    def __init__(self, equivalent, message, trials=None, bound=None):
        self.equivalent, self.message = equivalent, message
        self.trials, self.bound = trials, bound

    def __bool__(self):
        return self.equivalent

    def __repr__(self):
        if self.equivalent:
            return (f"Equivalence(True, {self.trials} trials, "
                    f"bound {self.bound:.3g})")
        return f"Equivalence(False, {self.message!r})"


def _as_function(program, name):
    """The MLIR of `program` as one function named `name`."""
    if hasattr(program, "to_mlir"):
        return program.to_mlir(name=name)
    if program.lstrip().startswith("module") and "func.func" in program:
        # A printed module (a Kernel's `mlir`): its function alone.
        program = program[program.index("func.func"):program.rstrip()
                          .rfind("}")]
    functions = _FUNCTION.findall(program)
    if len(functions) != 1:
        raise ValueError(f"check_equivalence: the {name} text must hold one "
                         f"func.func, found {len(functions)}")
    return _FUNCTION.sub(f"func.func @{name}", program, count=1)


def check_equivalence(reference, candidate, seed=1):
    """Whether `candidate` computes what `reference` does (see the module's
    doc). A program the compiler rejects raises CompilerError."""
    source = "\n".join([_as_function(reference, "reference"),
                        _as_function(candidate, "candidate")])
    pipeline = ("mirage-check-equivalence{reference=reference "
                f"seed={int(seed)}}}")
    try:
        compiler.run_pipeline(source, pipeline, name="equivalence.mlir")
    except compiler.CompilerError as error:
        for line in error.diagnostics.splitlines():
            if "is not equivalent to @reference" in line:
                return Equivalence(False, line.split("error: ", 1)[-1])
        raise
    remarks = compiler.last_remarks()
    match = _TRIALS.search(remarks)
    if not match:
        raise compiler.CompilerError(
            "check_equivalence: the verifier gave no verdict", remarks)
    line = next(l for l in remarks.splitlines() if _TRIALS.search(l))
    return Equivalence(True, line.split("remark: ", 1)[-1],
                       trials=int(match.group(1)),
                       bound=2.0 ** float(match.group(2)))
