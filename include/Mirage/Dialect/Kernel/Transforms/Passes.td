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
    Rewrites each kernel op other than `graph_def` into a `graph_def` that
    computes the same function, so that one code generator handles every
    kernel. The default block graph is one block with a single loop
    iteration: it loads every operand whole (`imap <>`), applies the
    block-level op of the same name and attributes, and saves every result
    whole (`omap <>`). Tiling (grids, for-loops) is the search's and the
    block-level passes' job.

    `chunk` and `all_reduce` have no block-level form yet and get an error.

    Example:

    ```mlir
    %e = mirage_kernel.exp %x : tensor<8x64xf16>
    // becomes
    %e = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16>
        grid [1, 1, 1] block [128, 1, 1] forloop 1 {
      %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
      %r = exp %t : !mirage_block.stensor<8x64xf16>
      %s = output_saver %r omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
      yield %s : tensor<8x64xf16>
    }
    ```
  }];
  let dependentDialects = ["::mlir::mirage::block::MirageBlockDialect"];
  let options = [
    Option<"threads", "threads", "int32_t", "128",
           "Threads per block of the default graph_defs">,
  ];
}

#endif // MIRAGE_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
