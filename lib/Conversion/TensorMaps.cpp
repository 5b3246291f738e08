//===- TensorMaps.cpp - TMA descriptor parameters -------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The `mirage.tensor_maps` entries, and mirage-tensor-map-params, which makes
// the descriptor parameters of a lowered kernel 128-byte by-value grid
// constants (the GPU-to-NVVM lowering drops argument attributes).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/TensorMaps.h"

#include "Mirage/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_MIRAGETENSORMAPPARAMSPASS
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;

DictionaryAttr TensorMapParam::toAttr(MLIRContext *context) const {
  Builder builder(context);
  SmallVector<NamedAttribute> entries = {
      builder.getNamedAttr("argument", builder.getI64IntegerAttr(argument)),
      builder.getNamedAttr("input", builder.getI64IntegerAttr(input)),
      builder.getNamedAttr("shape", builder.getDenseI64ArrayAttr(shape)),
      builder.getNamedAttr("box", builder.getDenseI64ArrayAttr(box))};
  if (swizzle != 0)
    entries.push_back(
        builder.getNamedAttr("swizzle", builder.getI64IntegerAttr(swizzle)));
  return builder.getDictionaryAttr(entries);
}

std::optional<TensorMapParam> TensorMapParam::fromAttr(Attribute attr) {
  auto entry = dyn_cast<DictionaryAttr>(attr);
  if (!entry)
    return std::nullopt;
  auto argument = entry.getAs<IntegerAttr>("argument");
  auto input = entry.getAs<IntegerAttr>("input");
  auto shape = entry.getAs<DenseI64ArrayAttr>("shape");
  auto box = entry.getAs<DenseI64ArrayAttr>("box");
  if (!argument || !input || !shape || !box || shape.size() != box.size())
    return std::nullopt;
  int64_t swizzle = 0;
  if (Attribute value = entry.get("swizzle")) {
    auto bytes = dyn_cast<IntegerAttr>(value);
    if (!bytes || !llvm::is_contained({32, 64, 128}, bytes.getInt()))
      return std::nullopt;
    swizzle = bytes.getInt();
  }
  return TensorMapParam{unsigned(argument.getInt()), unsigned(input.getInt()),
                        SmallVector<int64_t, 4>(shape.asArrayRef()),
                        SmallVector<int64_t, 4>(box.asArrayRef()), swizzle};
}

namespace {

/// The alignment of the shared memory of a kernel with TMA copies: that of
/// a swizzled box (KernelEmitter.h's kSwizzleAlignment).
constexpr int64_t kSharedMemoryAlignment = 1024;

struct MirageTensorMapParamsPass
    : mirage::impl::MirageTensorMapParamsPassBase<MirageTensorMapParamsPass> {
  void runOnOperation() override {
    bool found = false;
    for (auto function : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto entries = function->getAttrOfType<ArrayAttr>(kTensorMapsAttrName);
      if (!entries)
        continue;
      if (failed(markParameters(function, entries)))
        return signalPassFailure();
      found = true;
    }
    if (!found)
      return;
    for (auto global : getOperation().getOps<LLVM::GlobalOp>())
      if (global.getAddrSpace() == NVVM::NVVMMemorySpace::Shared &&
          global.getAlignment().value_or(0) < kSharedMemoryAlignment)
        global.setAlignment(kSharedMemoryAlignment);
  }

  /// Makes the parameters `entries` lists by-value grid constants.
  LogicalResult markParameters(LLVM::LLVMFuncOp function, ArrayAttr entries) {
    MLIRContext *context = &getContext();
    Builder builder(context);
    auto storage =
        LLVM::LLVMArrayType::get(IntegerType::get(context, 8), kTensorMapBytes);
    for (Attribute attr : entries) {
      std::optional<TensorMapParam> param = TensorMapParam::fromAttr(attr);
      if (!param || param->argument >= function.getNumArguments() ||
          !isa<LLVM::LLVMPointerType>(
              function.getArgument(param->argument).getType()))
        return function.emitOpError()
               << "has a malformed " << kTensorMapsAttrName << " entry "
               << attr;
      function.setArgAttr(param->argument,
                          LLVM::LLVMDialect::getByValAttrName(),
                          TypeAttr::get(storage));
      function.setArgAttr(param->argument,
                          LLVM::LLVMDialect::getAlignAttrName(),
                          builder.getI64IntegerAttr(kTensorMapAlignment));
      function.setArgAttr(param->argument,
                          NVVM::NVVMDialect::getGridConstantAttrName(),
                          builder.getUnitAttr());
    }
    function->removeAttr(kTensorMapsAttrName);
    return success();
  }
};

} // namespace
