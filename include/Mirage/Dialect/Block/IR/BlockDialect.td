//===- BlockDialect.td - mirage_block dialect definition ---*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKDIALECT_TD
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKDIALECT_TD

include "mlir/IR/OpBase.td"

def MirageBlock_Dialect : Dialect {
  let name = "mirage_block";
  let cppNamespace = "::mlir::mirage::block";
  let summary = "Mirage thread-block graphs: the body of one custom kernel";
  let description = [{
    The middle level of a Mirage µGraph: the ops one thread block runs inside
    a `mirage_kernel.graph_def`. Values are tiles (`!mirage_block.stensor`)
    held in shared memory or registers; loaders and savers move tiles between
    device memory and the block, and accumulators combine values across the
    iterations of the graph's for-loop.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKDIALECT_TD
