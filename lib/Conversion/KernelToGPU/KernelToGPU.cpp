//===- KernelToGPU.cpp - convert-mirage-kernel-to-gpu ---------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The host side of a compiled kernel graph: tensors become buffers, results
// become destination arguments, intermediates become allocations and each
// mirage_kernel.launch a gpu.launch_func on flattened buffers.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Conversion/TensorMaps.h"

#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_CONVERTMIRAGEKERNELTOGPUPASS
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;

namespace {

MemRefType getBufferType(Type tensor) {
  auto shaped = cast<ShapedType>(tensor);
  return MemRefType::get(shaped.getShape(), shaped.getElementType());
}

/// `buffer` as the flat memref a kernel takes.
Value flatten(OpBuilder &builder, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  ReassociationIndices all(type.getRank());
  std::iota(all.begin(), all.end(), 0);
  return memref::CollapseShapeOp::create(builder, loc, buffer,
                                         ArrayRef<ReassociationIndices>{all});
}

/// Checks that `function` is a kernel graph of launches and library matmuls
/// whose results are written by kernels or calls, each by its own.
LogicalResult checkConvertible(func::FuncOp function) {
  for (Operation &op : function.getBody().front().without_terminator()) {
    auto add = dyn_cast<kernel::AddOp>(op);
    if (!isa<kernel::LaunchOp, kernel::MatmulOp>(op) &&
        !(add && kernel::getLibraryEpilogueMatmul(add)))
      return op.emitOpError()
             << "has no GPU lowering here: expected only mirage_kernel.launch "
                "ops, library matmuls and the adds their calls compute (run "
                "mirage-kernel-expand-to-blocks and "
                "convert-mirage-block-to-gpu "
                "first)";
  }
  auto ret = cast<func::ReturnOp>(function.getBody().front().getTerminator());
  DenseSet<Value> seen;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    if (isa<BlockArgument>(value))
      return ret.emitOpError()
             << "returns argument " << cast<BlockArgument>(value).getArgNumber()
             << " as result " << i
             << "; the code generator needs every result written by a kernel";
    if (!seen.insert(value).second)
      return ret.emitOpError()
             << "returns the same value twice (result " << i
             << "); the code generator needs one kernel output per result";
  }
  return success();
}

/// Rewrites `function` on buffers; `symbols` caches the symbol tables that
/// find each launched kernel (a lookup without it scans the GPU module, which
/// made the pass quadratic in the number of kernels).
void convertFunction(func::FuncOp function, SymbolTableCollection &symbols) {
  MLIRContext *ctx = function.getContext();
  Block &entry = function.getBody().front();
  auto ret = cast<func::ReturnOp>(entry.getTerminator());
  Location loc = function.getLoc();

  // The adds that library calls compute, by add, with their matmuls: found
  // while the arguments still have their tensor types.
  DenseMap<Operation *, kernel::MatmulOp> epilogues;
  DenseSet<Operation *> fusedMatmuls;
  for (auto add : entry.getOps<kernel::AddOp>())
    if (kernel::MatmulOp matmul = kernel::getLibraryEpilogueMatmul(add)) {
      epilogues[add] = matmul;
      fusedMatmuls.insert(matmul);
    }

  // Arguments: inputs as buffers, then one destination buffer per result.
  DenseMap<Value, Value> buffers;
  for (BlockArgument arg : entry.getArguments()) {
    arg.setType(getBufferType(arg.getType()));
    buffers[arg] = arg;
  }
  unsigned numInputs = entry.getNumArguments();
  DenseMap<Value, unsigned> resultIndex;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    resultIndex[value] = i;
    entry.addArgument(getBufferType(value.getType()), value.getLoc());
  }

  OpBuilder builder(ctx);
  SmallVector<Value> intermediates;
  // The buffer of `result`: the destination argument of a function result,
  // else a new allocation.
  auto getResultBuffer = [&](Value result, Location at) {
    Value buffer;
    if (auto it = resultIndex.find(result); it != resultIndex.end()) {
      buffer = entry.getArgument(numInputs + it->second);
    } else {
      buffer =
          memref::AllocOp::create(builder, at, getBufferType(result.getType()));
      intermediates.push_back(buffer);
    }
    buffers[result] = buffer;
    return buffer;
  };
  SmallVector<Operation *> steps;
  for (Operation &op : entry.without_terminator())
    steps.push_back(&op);
  for (Operation *step : steps) {
    builder.setInsertionPoint(step);
    Location at = step->getLoc();
    if (auto matmul = dyn_cast<kernel::MatmulOp>(step)) {
      // A matmul whose add its call computes runs at the add.
      if (fusedMatmuls.contains(matmul))
        continue;
      kernel::LibraryMatmulOp::create(builder, at,
                                      buffers.lookup(matmul.getLhs()),
                                      buffers.lookup(matmul.getRhs()),
                                      getResultBuffer(matmul.getResult(), at),
                                      /*addend=*/Value());
      continue;
    }
    if (auto add = dyn_cast<kernel::AddOp>(step)) {
      kernel::MatmulOp matmul = epilogues.lookup(add);
      Value addend =
          add.getLhs() == matmul.getResult() ? add.getRhs() : add.getLhs();
      kernel::LibraryMatmulOp::create(
          builder, at, buffers.lookup(matmul.getLhs()),
          buffers.lookup(matmul.getRhs()), getResultBuffer(add.getResult(), at),
          buffers.lookup(addend));
      continue;
    }
    auto launch = cast<kernel::LaunchOp>(step);
    SmallVector<Value> operands;
    for (Value input : launch.getInputs())
      operands.push_back(flatten(builder, at, buffers.lookup(input)));
    for (Value result : launch.getResults())
      operands.push_back(flatten(builder, at, getResultBuffer(result, at)));
    auto dim3 = [&](ArrayRef<int32_t> dims) {
      return gpu::KernelDim3{
          arith::ConstantIndexOp::create(builder, at, dims[0]),
          arith::ConstantIndexOp::create(builder, at, dims[1]),
          arith::ConstantIndexOp::create(builder, at, dims[2])};
    };
    std::optional<gpu::KernelDim3> cluster;
    if (llvm::any_of(launch.getCluster(), [](int32_t c) { return c != 1; }))
      cluster = dim3(launch.getCluster());
    Value sharedBytes = arith::ConstantOp::create(
        builder, at,
        builder.getI32IntegerAttr(
            static_cast<int32_t>(launch.getSharedMemory())));
    // The TMA descriptor parameters after the buffers: the input's buffer,
    // which the runtime encodes (TensorMaps.h).
    auto kernelFunc = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernel());
    // After the results, the counters of a kernel that runs a combine tail:
    // zero before each launch, and the kernel leaves them zero.
    if (auto groups = kernelFunc ? kernelFunc->getAttrOfType<IntegerAttr>(
                                       kCombineCountersAttrName)
                                 : IntegerAttr()) {
      auto counters = memref::AllocOp::create(
          builder, at,
          MemRefType::get({groups.getInt()}, builder.getI32Type()));
      counters->setAttr(kZeroedAttrName, builder.getUnitAttr());
      intermediates.push_back(counters);
      operands.push_back(counters);
    }
    auto tensorMaps =
        kernelFunc ? kernelFunc->getAttrOfType<ArrayAttr>(kTensorMapsAttrName)
                   : ArrayAttr();
    if (tensorMaps) {
      for (Attribute attr : tensorMaps) {
        // Written by convert-mirage-block-to-gpu for this kernel.
        std::optional<TensorMapParam> param = TensorMapParam::fromAttr(attr);
        assert(param && param->input < launch.getInputs().size() &&
               "malformed tensor map entry");
        operands.push_back(flatten(
            builder, at, buffers.lookup(launch.getInputs()[param->input])));
      }
    }
    auto launchFunc = gpu::LaunchFuncOp::create(
        builder, at, launch.getKernel(), dim3(launch.getGrid()),
        dim3(launch.getBlock()), sharedBytes, operands,
        /*asyncTokenType=*/nullptr,
        /*asyncDependencies=*/{}, cluster);
    if (launch.getNonPortableCluster())
      launchFunc->setAttr("mirage.non_portable_cluster", builder.getUnitAttr());
    if (tensorMaps)
      launchFunc->setAttr(kTensorMapsAttrName, tensorMaps);
  }

  builder.setInsertionPoint(ret);
  for (Value buffer : intermediates)
    memref::DeallocOp::create(builder, loc, buffer);
  func::ReturnOp::create(builder, ret.getLoc());
  ret.erase();
  for (Operation *step : llvm::reverse(steps)) {
    step->dropAllUses();
    step->erase();
  }

  function.setFunctionType(
      FunctionType::get(ctx, entry.getArgumentTypes(), {}));
  for (unsigned i = numInputs; i < entry.getNumArguments(); ++i)
    function.setArgAttr(
        i, "mirage.result",
        IntegerAttr::get(IntegerType::get(ctx, 64), i - numInputs));
}

struct ConvertMirageKernelToGPUPass
    : mirage::impl::ConvertMirageKernelToGPUPassBase<
          ConvertMirageKernelToGPUPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> functions;
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (function.isExternal() || !kernel::containsKernelOps(function))
        continue;
      if (failed(checkConvertible(function)))
        return signalPassFailure();
      functions.push_back(function);
    }
    SymbolTableCollection symbols;
    for (func::FuncOp function : functions)
      convertFunction(function, symbols);
  }
};

} // namespace
