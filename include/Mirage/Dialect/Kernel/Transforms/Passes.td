//===- Passes.td - mirage_kernel passes --------------------*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
#define MIRAGE_DIALECT_KERNEL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ExpandToBlocksPass
    : Pass<"mirage-kernel-expand-to-blocks", "::mlir::func::FuncOp"> {
  let summary = "Turn every predefined kernel op into a default graph_def";
  let description = [{
    Rewrites each predefined kernel op (not `graph_def` or `launch`) into a
    `graph_def` that computes the same function, so that one code generator
    handles every kernel. The block graph applies the block-level op of the same name and
    attributes to one tile per block, in a single loop iteration: grid axes
    x, y and z split the outermost result dimensions that may be split (not
    a reduced or concatenated dimension, not inside an `rms_norm` group)
    until a block's result tile has at most about `tile-elements` elements
    and the grid has about 256 blocks (fewer when that would leave a block
    fewer than 32 result elements), counting for a `reduction` the elements
    of its input (a row sum of 128 rows of 4096 elements takes 128 blocks of
    one row, not 4 of 32);
    each operand is cut along the dimensions that follow the split ones (a
    matmul's lhs along m, its rhs along n; a broadcast operand is
    replicated). Finer tilings (for-loops, fusion across matmuls and
    reductions) are the search's job; a tree of elementwise ops whose inner
    results have one use and the root's type (shape and element type) is one
    graph_def, whose other operands are loaded once each and whose root
    alone is saved (`silu %g` then `mul %s, %u`: one kernel, no intermediate
    tensor).

    A row group is one graph_def too: an elementwise root and, transitively,
    the ops defining its ops' operands that are elementwise ops of its type
    or `reduction`s whose result broadcasts back into its shape (the reduced
    dimension 1, or its extent, the others the root's), as long as every
    value the group computes but the root's is used only inside the group
    (an op with a use outside is left out, then so is what only it used),
    with at least one reduction among them, and no `library-matmuls` op. No
    grid axis splits a reduced dimension, so each block sums whole rows;
    each distinct outside value is loaded once, and every op keeps its
    element type, so each intermediate value is rounded as the program as
    written rounds it. A group the code generator could not schedule within
    the shared memory of every chip (rows too long to hold) gives way to the
    elementwise tree. The row softmax `exp`, `reduction`, `div` is one
    kernel that reads its input once and writes its result once.

    `chunk` and `all_reduce` have no block-level form yet and get an error.

    With `library-matmuls`, `matmul` ops stay: `convert-mirage-kernel-to-gpu`
    turns them into `library_matmul` calls that the runtime runs with
    cuBLASLt (the code generator's default: the program as written then runs
    its matmuls at library speed). So does an `add` of a matmul's only
    result and a tensor of its type, which the call computes as its epilogue
    (`kernel::getLibraryEpilogueMatmul`); no elementwise tree reaches past it.

    Example:

    ```mlir
    %e = mirage_kernel.exp %x : tensor<8x64xf16>
    // becomes, with tile-elements=128,
    %e = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16>
        grid [4, 1, 1] block [128, 1, 1] forloop 1 {
      %t = input_loader %X imap <x = 0> : tensor<8x64xf16> -> !mirage_block.stensor<2x64xf16>
      %r = exp %t : !mirage_block.stensor<2x64xf16>
      %s = output_saver %r omap <x = 0> : !mirage_block.stensor<2x64xf16> -> tensor<8x64xf16>
      yield %s : tensor<8x64xf16>
    }

    %e = mirage_kernel.exp %s : tensor<64x256xf16>
    %r = mirage_kernel.reduction %e dim 1 : tensor<64x256xf16> -> tensor<64x1xf16>
    %o = mirage_kernel.div %e, %r : tensor<64x256xf16>, tensor<64x1xf16> -> tensor<64x256xf16>
    // becomes, with the default tile-elements, one row per block:
    %o = mirage_kernel.graph_def(%S = %s : tensor<64x256xf16>) -> tensor<64x256xf16>
        grid [64, 1, 1] block [128, 1, 1] forloop 1 {
      %t = input_loader %S imap <x = 0> : tensor<64x256xf16> -> !mirage_block.stensor<1x256xf16>
      %e = exp %t : !mirage_block.stensor<1x256xf16>
      %r = reduction %e dim 1 : !mirage_block.stensor<1x256xf16> -> !mirage_block.stensor<1x1xf16>
      %d = div %e, %r : !mirage_block.stensor<1x256xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x256xf16>
      %v = output_saver %d omap <x = 0> : !mirage_block.stensor<1x256xf16> -> tensor<64x256xf16>
      yield %v : tensor<64x256xf16>
    }
    ```
  }];
  let dependentDialects = ["::mlir::mirage::block::MirageBlockDialect"];
  let options = [
    Option<"threads", "threads", "int32_t", "128",
           "Threads per block of the default graph_defs">,
    Option<"tileElements", "tile-elements", "int64_t", "2048",
           "Largest result tile (in elements) one block should compute">,
    Option<"libraryMatmuls", "library-matmuls", "bool", "false",
           "Leave matmul ops for the runtime's GEMM library">,
  ];
}

def SplitGraphDefsPass
    : Pass<"mirage-kernel-split-graph-defs", "::mlir::func::FuncOp"> {
  let summary = "Cut graph_defs with long bodies into several graph_defs";
  let description = [{
    Bounds the size of each kernel, so that compiling a program takes time
    linear in its length: LLVM's optimizer and the NVPTX backend take time
    superlinear in the length of a kernel's straight-line code (one
    graph_def of 1,000 elementwise block ops: 450 s;
    docs/Benchmarks/Scaling.md).

    A `graph_def` whose body holds more than `max-ops` operations (compute
    ops and the scalar ops of their thread graphs; loaders and savers do not
    count) becomes a sequence of `graph_def`s with the same grid, block and
    for-loop, each holding about `max-ops` of them in the body's order: a
    cut follows the first op that reaches the count and whose cut no value
    is blocked from crossing. A tile computed before a cut and read after it
    is saved by the first part to a kernel tensor (each grid axis of more
    than one block on its own dimension, x first) and loaded by the later
    parts; a per-iteration tile of a loop with more than one iteration, or
    one with fewer dimensions than the grid has axes of more than one block,
    may not cross. Input loaders are repeated in each part that reads them;
    an output saver goes with the op it saves. `graph_def`s with a cluster
    are left whole. `max-ops=0` splits nothing.

    Example, with max-ops=2:

    ```mlir
    %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> tensor<64x64xf16>
        grid [4, 1, 1] block [128, 1, 1] forloop 1 {
      %t = input_loader %X imap <x = 0> : tensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
      %a = exp %t : !mirage_block.stensor<16x64xf16>
      %b = neg %a : !mirage_block.stensor<16x64xf16>
      %c = exp %b : !mirage_block.stensor<16x64xf16>
      %s = output_saver %c omap <x = 0> : !mirage_block.stensor<16x64xf16> -> tensor<64x64xf16>
      yield %s : tensor<64x64xf16>
    }
    // becomes a graph_def computing %a and %b and saving %b, then one that
    // loads %b (imap <x = 0>) and computes and saves %c.
    ```
  }];
  let dependentDialects = ["::mlir::mirage::block::MirageBlockDialect"];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", "64",
           "Most operations one graph_def keeps (0: no limit)">,
  ];
}

#endif // MIRAGE_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
