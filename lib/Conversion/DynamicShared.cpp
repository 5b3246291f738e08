//===- DynamicShared.cpp - Extern dynamic shared memory -------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mirage-extern-dynamic-shared: the dynamic shared memory global that
// convert-gpu-to-nvvm leaves internal becomes an external declaration, so
// that NVPTX declares it `.extern .shared ... name[]` instead of a one-byte
// shared variable.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_MIRAGEEXTERNDYNAMICSHAREDPASS
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;

namespace {

/// Whether `global` is a kernel's dynamic shared memory: a shared array of
/// no elements, whose size only the launch gives.
bool isDynamicSharedMemory(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  return global.getAddrSpace() == NVVM::NVVMMemorySpace::Shared && array &&
         array.getNumElements() == 0;
}

struct MirageExternDynamicSharedPass
    : mirage::impl::MirageExternDynamicSharedPassBase<
          MirageExternDynamicSharedPass> {
  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>())
      if (isDynamicSharedMemory(global))
        global.setLinkage(LLVM::Linkage::External);
  }
};

} // namespace
