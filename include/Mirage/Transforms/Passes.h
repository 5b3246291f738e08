//===- Passes.h - Mirage transformation passes ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_PASSES_H
#define MIRAGE_TRANSFORMS_PASSES_H

#include "Mirage/Dialect/Block/IR/BlockDialect.h"
#include "Mirage/Dialect/Thread/IR/ThreadDialect.h"
#include "Mirage/Semantics/Limits.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::mirage {

#define GEN_PASS_DECL
#include "Mirage/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mirage/Transforms/Passes.h.inc"

/// The dialect a program is imported from.
enum class ImportSource { Linalg, Tosa };

/// Options of `mirage-import-pipeline`.
struct MirageImportPipelineOptions
    : public PassPipelineOptions<MirageImportPipelineOptions> {
  Option<ImportSource> from{
      *this, "from", llvm::cl::desc("The dialect the program is written in"),
      llvm::cl::init(ImportSource::Linalg),
      llvm::cl::values(
          clEnumValN(ImportSource::Linalg, "linalg", "linalg on tensors"),
          clEnumValN(ImportSource::Tosa, "tosa", "TOSA"))};
  Option<bool> strict{
      *this, "strict",
      llvm::cl::desc("Report an op left unconverted as an error and fail"),
      llvm::cl::init(false)};
};

/// Adds convert-linalg-to-mirage-kernel (or convert-tosa-to-mirage-kernel)
/// on every function, then mirage-outline-kernel-graphs.
void buildMirageImportPipeline(OpPassManager &pm,
                               const MirageImportPipelineOptions &options);

/// Registers `mirage-import-pipeline`.
void registerMirageImportPipeline();

} // namespace mlir::mirage

#endif // MIRAGE_TRANSFORMS_PASSES_H
