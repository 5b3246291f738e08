//===- KernelDialect.td - mirage_kernel dialect definition -*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_TD
#define MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_TD

include "mlir/IR/OpBase.td"

def MirageKernel_Dialect : Dialect {
  let name = "mirage_kernel";
  let cppNamespace = "::mlir::mirage::kernel";
  let summary = "Mirage kernel graphs: tensor programs over device memory";
  let description = [{
    The top level of a Mirage µGraph. Values are builtin statically shaped
    tensors of `f16`, `bf16` or `f32` that live in device memory. Each op is
    one GPU kernel: either a predefined one (`matmul`, `exp`, `reduction`, ...)
    or a `graph_def`, a custom kernel described by a thread-block graph of
    `mirage_block` ops.
  }];
}

#endif // MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_TD
