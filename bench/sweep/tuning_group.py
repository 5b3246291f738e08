"""A tuning group for `mirage-tune` out of hand-made µGraphs: the sweeps of
this folder write their variants of a program as the candidates of one
group, with the program as written beside them (docs/Runtime.md,
"Tuning")."""
import hashlib
import os
import re
import shutil
import subprocess

__all__ = ["tuning_group", "write_bundle"]


def mark(function, key, candidate):
    """`function` (a func.func's text) marked as `candidate` of the tuning
    group `key` (docs/Runtime.md, "Tuning")."""
    head, rest = function.split(" {\n", 1)
    return (f"{head} attributes {{mirage.tuning = {{candidate = {candidate}"
            f" : i64, compiler = \"sweep\", key = \"{key}\"}}}} {{\n"
            + rest)


def tuning_group(case, variant, program, functions):
    """The functions as one tuning group for mirage-tune, with the case's
    program as written (its first function, renamed `<case>_as_written`)
    as the group's program as written."""
    key = hashlib.sha256(f"sweep {case} {variant}".encode()).hexdigest()
    with open(program) as f:
        text = f.read()
    written = re.search(r"^\s*func\.func @[\w.]+.*?^\s*}$", text,
                        re.M | re.S).group(0).strip()
    written = re.sub(r"@[\w.]+", f"@{case}_as_written", written, count=1)
    return (mark("  " + written + "\n", key, -1) +
            "".join(mark(f, key, i) for i, f in enumerate(functions)))


def write_bundle(out, bundler, case, variant, program, functions, flags):
    """Writes OUT (emptied first) as one bundle for sm_90a: `functions` as
    the tuning group of tuning_group, compiled by `bundler` (mirage-bundle)
    with the code generator `flags`."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    source = os.path.join(out, "source.mlir")
    with open(source, "w") as f:
        f.write("module {\n" + tuning_group(case, variant, program,
                                            functions) + "}\n")
    subprocess.run([bundler, source, "--chips=sm_90a", *flags,
                    f"--reference={program}", "-o", out], check=True)
