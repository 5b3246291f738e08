//===- Passes.h - Mirage conversion passes ----------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_PASSES_H
#define MIRAGE_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "Mirage/Conversion/PipelineDefaults.h"

namespace mlir::mirage {

#define GEN_PASS_DECL
#include "Mirage/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mirage/Conversion/Passes.h.inc"

/// Options of `mirage-to-ptx-pipeline`.
struct MirageToPTXPipelineOptions
    : public PassPipelineOptions<MirageToPTXPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target chip: sm_80 or sm_90a"),
                           llvm::cl::init("sm_90a")};
  Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("Pipeline stages of loop-varying input tiles "
                     "(convert-mirage-block-to-gpu); below 2, none"),
      llvm::cl::init(kDefaultPipelineStages)};
  Option<int64_t> maxSharedMemory{
      *this, "max-shared-memory",
      llvm::cl::desc("The most dynamic shared memory a block may use, in "
                     "bytes (convert-mirage-block-to-gpu; 0: the chip's "
                     "limit)"),
      llvm::cl::init(0)};
  Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Run f16 matmuls on tensor cores where they fit "
                     "(convert-mirage-block-to-gpu)"),
      llvm::cl::init(true)};
  Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("On sm_90a, run f16 matmuls on warpgroup tensor cores "
                     "(wgmma) where they fit (convert-mirage-block-to-gpu)"),
      llvm::cl::init(false)};
  Option<bool> tma{
      *this, "tma",
      llvm::cl::desc("On sm_90a, copy staged tiles with the TMA unit "
                     "(cp.async.bulk.tensor + mbarriers; "
                     "convert-mirage-block-to-gpu)"),
      llvm::cl::init(true)};
};

/// Adds the passes that take a module of kernel graphs down to host functions
/// on buffers plus a `gpu.binary` holding the PTX of every kernel for
/// `options.chip`.
void buildMirageToPTXPipeline(OpPassManager &pm,
                              const MirageToPTXPipelineOptions &options);

/// Registers `mirage-to-ptx-pipeline`.
void registerMirageToPTXPipeline();

} // namespace mlir::mirage

#endif // MIRAGE_CONVERSION_PASSES_H
