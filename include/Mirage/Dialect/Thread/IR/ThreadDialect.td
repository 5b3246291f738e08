//===- ThreadDialect.td - mirage_thread dialect definition -*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_THREAD_IR_THREADDIALECT_TD
#define MIRAGE_DIALECT_THREAD_IR_THREADDIALECT_TD

include "mlir/IR/OpBase.td"

def MirageThread_Dialect : Dialect {
  let name = "mirage_thread";
  let cppNamespace = "::mlir::mirage::thread";
  let summary = "Mirage thread graphs: per-element programs in registers";
  let description = [{
    The bottom level of a Mirage µGraph: scalar ops inside a
    `mirage_block.thread_graph`, run by each thread on the elements it owns,
    in registers. They form the fused prologues and epilogues of a block
    graph.
  }];
}

#endif // MIRAGE_DIALECT_THREAD_IR_THREADDIALECT_TD
