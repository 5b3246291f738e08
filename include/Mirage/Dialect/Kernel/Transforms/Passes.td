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
    fewer than 32 result elements);
    each operand is cut along the dimensions that follow the split ones (a
    matmul's lhs along m, its rhs along n; a broadcast operand is
    replicated). Finer tilings (for-loops, fusion) are the search's job.

    `chunk` and `all_reduce` have no block-level form yet and get an error.

    With `library-matmuls`, `matmul` ops stay: `convert-mirage-kernel-to-gpu`
    turns them into `library_matmul` calls that the runtime runs with
    cuBLASLt (the code generator's default: the program as written then runs
    its matmuls at library speed).

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

#endif // MIRAGE_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
