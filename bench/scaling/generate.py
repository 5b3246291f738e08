#!/usr/bin/python3
"""Writes the programs of the scaling benchmark (docs/Benchmarks/Scaling.md).

  generate.py kernel-chain N   a function of N elementwise mirage_kernel ops
  generate.py block-chain N    one graph_def whose body holds N elementwise
                               block ops between one loader and one saver

Each chain cycles through exp, mul_scalar, add (of the previous two values)
and neg on a 64x256 f16 tensor, so no op is dead and every op reads the one
before it.
"""

import sys

SHAPE = "64x256"
TILE = "16x256"
KERNEL_TYPE = f"tensor<{SHAPE}xf16>"
TILE_TYPE = f"!mirage_block.stensor<{TILE}xf16>"


def chain(n, dialect_prefix, value_type):
    """The N ops of the chain on %v0 (and %v0 again as the first add's other
    operand), as lines; returns them and the last value's name."""
    lines = []
    previous, current = "%v0", "%v0"
    for i in range(1, n + 1):
        kind = i % 4
        if kind == 0:
            op = f"{dialect_prefix}exp {current} : {value_type}"
        elif kind == 1:
            op = f"{dialect_prefix}mul_scalar {current} by 5.000000e-01 : {value_type}"
        elif kind == 2:
            op = (f"{dialect_prefix}add {current}, {previous} : {value_type}, "
                  f"{value_type} -> {value_type}")
        else:
            op = f"{dialect_prefix}neg {current} : {value_type}"
        lines.append(f"  %v{i} = {op}")
        previous, current = current, f"%v{i}"
    return lines, current


def kernel_chain(n):
    body, last = chain(n, "mirage_kernel.", KERNEL_TYPE)
    return "\n".join(
        [f"func.func @kernel_chain_{n}(%v0: {KERNEL_TYPE}) -> {KERNEL_TYPE} {{"]
        + body
        + [f"  return {last} : {KERNEL_TYPE}", "}", ""])


def block_chain(n):
    body, last = chain(n, "", TILE_TYPE)
    return "\n".join(
        [f"func.func @block_chain_{n}(%x: {KERNEL_TYPE}) -> {KERNEL_TYPE} {{",
         f"  %o = mirage_kernel.graph_def(%X = %x : {KERNEL_TYPE}) -> {KERNEL_TYPE}",
         "      grid [4, 1, 1] block [128, 1, 1] forloop 1 {",
         f"  %v0 = input_loader %X imap <x = 0> : {KERNEL_TYPE} -> {TILE_TYPE}"]
        + body
        + [f"  %r = output_saver {last} omap <x = 0> : {TILE_TYPE} -> {KERNEL_TYPE}",
           f"  yield %r : {KERNEL_TYPE}",
           "  }",
           f"  return %o : {KERNEL_TYPE}",
           "}", ""])


GENERATORS = {"kernel-chain": kernel_chain, "block-chain": block_chain}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in GENERATORS:
        sys.exit(f"usage: {sys.argv[0]} {{{'|'.join(GENERATORS)}}} N")
    sys.stdout.write(GENERATORS[sys.argv[1]](int(sys.argv[2])))


if __name__ == "__main__":
    main()
