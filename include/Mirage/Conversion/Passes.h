//===- Passes.h - Mirage conversion passes ----------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_PASSES_H
#define MIRAGE_CONVERSION_PASSES_H

#include "Mirage/Conversion/CodegenOptions.h"
#include "Mirage/Dialect/Kernel/IR/KernelDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mirage {

#define GEN_PASS_DECL
#include "Mirage/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mirage/Conversion/Passes.h.inc"

/// The attribute of a kernel that runs a combine tail
/// (Mirage/Analysis/CombineTail.h): the number of its groups, whose i32
/// counters it takes after its results (before any TMA descriptor), zero
/// before each launch and after it (convert-mirage-kernel-to-gpu allocates
/// them zeroed).
inline constexpr StringLiteral kCombineCountersAttrName =
    "mirage.combine_counters";

/// The attribute of a host function's memref.alloc whose buffer the runtime
/// must zero once, when it allocates it (a plan buffer's `zeroed`).
inline constexpr StringLiteral kZeroedAttrName = "mirage.zeroed";

/// Options of `mirage-to-ptx-pipeline`: the code generator's options
/// (CodegenOptions.def) as pass-pipeline options.
struct MirageToPTXPipelineOptions
    : public PassPipelineOptions<MirageToPTXPipelineOptions> {
#define MIRAGE_CODEGEN_OPTION(TYPE, NAME, FLAG, DEFAULT, DESCRIPTION)          \
  Option<TYPE> NAME{*this, FLAG, llvm::cl::desc(DESCRIPTION),                  \
                    llvm::cl::init(DEFAULT)};
#include "Mirage/Conversion/CodegenOptions.def"

  /// The options' values.
  CodegenOptions toCodegenOptions() const;
};

/// Adds the passes that take a module of kernel graphs down to host functions
/// on buffers plus a `gpu.binary` holding the PTX of every kernel for
/// `options.chip`.
void buildMirageToPTXPipeline(OpPassManager &pm, const CodegenOptions &options);

/// Registers `mirage-to-ptx-pipeline`.
void registerMirageToPTXPipeline();

} // namespace mlir::mirage

#endif // MIRAGE_CONVERSION_PASSES_H
