//===- BlockToGPU.cpp - convert-mirage-block-to-gpu -----------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The pass: compiles each graph_def into a gpu.func of the module's
// `gpu.module @mirage_kernels` (GraphDefLowering) and replaces it with a
// `mirage_kernel.launch` of that kernel.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"

#include "GraphDefLowering.h"
#include "Mirage/Support/Chip.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_CONVERTMIRAGEBLOCKTOGPUPASS
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::lowering;

namespace {

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// A graph_def lowered into a kernel.
struct LoweredKernel {
  gpu::GPUFuncOp kernel;
  /// Its dynamic shared memory per block.
  int64_t sharedBytes = 0;
  /// The for-loop iterations its stages hold (0: not staged).
  int64_t stages = 0;
};

/// Lowers `graph` into a new kernel of `kernels` named `name` (or a fresh
/// name while another kernel has it).
FailureOr<LoweredKernel> lowerKernel(kernel::GraphDefOp graph, StringRef name,
                                     gpu::GPUModuleOp kernels,
                                     const LoweringOptions &options,
                                     const BlockLowerings &lowerings) {
  SmallVector<Type> argumentTypes;
  for (Type type : graph.getInputs().getTypes())
    argumentTypes.push_back(getFlatBufferType(type));
  for (Type type : graph.getResultTypes())
    argumentTypes.push_back(getFlatBufferType(type));
  OpBuilder builder = OpBuilder::atBlockEnd(kernels.getBody());
  auto kernel = gpu::GPUFuncOp::create(
      builder, graph.getLoc(), name, builder.getFunctionType(argumentTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
  kernel.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(graph.getBlock()));
  // Enough blocks per SM for 256 threads: lets ptxas use up to 255
  // registers per thread rather than spill to reach a higher occupancy.
  int64_t threads = int64_t(graph.getBlock()[0]) * graph.getBlock()[1] *
                    graph.getBlock()[2];
  kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  builder.getI32IntegerAttr(
                      std::max<int64_t>(1, kThreadsPerSM / threads)));
  if (std::optional<ArrayRef<int32_t>> cluster = graph.getCluster())
    kernel->setAttr("nvvm.cluster_dim", builder.getDenseI32ArrayAttr(*cluster));
  SymbolTable(kernels).insert(kernel);
  GraphDefLowering lowering(graph, kernel, options, lowerings);
  if (failed(lowering.run())) {
    kernel.erase();
    return failure();
  }
  return LoweredKernel{kernel, lowering.getSharedMemoryBytes(),
                       lowering.getStages()};
}

struct ConvertMirageBlockToGPUPass
    : mirage::impl::ConvertMirageBlockToGPUPassBase<ConvertMirageBlockToGPUPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// The module's `gpu.module @mirage_kernels`, created on first use.
  gpu::GPUModuleOp getKernelModule();
  LogicalResult convert(kernel::GraphDefOp graph, StringRef name,
                        gpu::GPUModuleOp kernels,
                        const BlockLowerings &lowerings);
};

gpu::GPUModuleOp ConvertMirageBlockToGPUPass::getKernelModule() {
  ModuleOp module = getOperation();
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>("mirage_kernels"))
    return existing;
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(module.getContext()));
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  return gpu::GPUModuleOp::create(builder, module.getLoc(), "mirage_kernels");
}

LogicalResult
ConvertMirageBlockToGPUPass::convert(kernel::GraphDefOp graph, StringRef name,
                                     gpu::GPUModuleOp kernels,
                                     const BlockLowerings &lowerings) {
  const Chip &target = *lookupChip(chip);
  if (graph.getCluster() && !target.hasClusters())
    return graph.emitOpError()
           << "uses a thread-block cluster, which " << chip
           << " does not have (clusters need sm_90a)";
  // A kernel that does not fit in shared memory is lowered again with
  // fewer stages, then without preloaded tiles, then without staging, then
  // without vector groups in its sums.
  int64_t limit = target.sharedBytesPerBlock;
  if (maxSharedMemory > 0)
    limit = std::min(limit, int64_t(maxSharedMemory));
  bool warpgroupMatmuls = wgmma && tensorCores && target.hasWgmma;
  bool tensorCopies = tma && target.hasTMA;
  LoweringOptions attempts[] = {
      {stages, kMaxStagingBytes, true, tensorCores, warpgroupMatmuls,
       tensorCopies, true},
      {stages, kMaxStagingBytes, true, tensorCores, false, tensorCopies, true},
      {stages, kFallbackStagingBytes, true, tensorCores, false, tensorCopies,
       true},
      {stages, kFallbackStagingBytes, true, tensorCores, false, tensorCopies,
       false},
      {0, 0, true, tensorCores, false, false, false},
      {0, 0, false, tensorCores, false, false, false}};
  LoweredKernel lowered;
  LoweringOptions options;
  for (const LoweringOptions &attempt : attempts) {
    FailureOr<LoweredKernel> kernel = lowerKernel(graph, name, kernels, attempt, lowerings);
    if (failed(kernel))
      return failure();
    lowered = *kernel;
    options = attempt;
    if (lowered.sharedBytes <= limit)
      break;
    if (&attempt != &attempts[std::size(attempts) - 1])
      lowered.kernel.erase();
  }
  if (lowered.sharedBytes > limit) {
    lowered.kernel.erase();
    return graph.emitOpError()
           << "needs " << lowered.sharedBytes
           << " bytes of shared memory per block, more than the " << limit
           << " of " << chip << "; use smaller tiles (a larger grid or for-loop)";
  }

  // Fewer stages take less shared memory, so more blocks may share an SM:
  // the kernel takes the stage count that lets the most of its blocks run at
  // once, counting no more than the blocks each SM has to run (ties: more
  // stages, which hide more of the copies' latency).
  int64_t threads = int64_t(graph.getBlock()[0]) * graph.getBlock()[1] *
                    graph.getBlock()[2];
  int64_t blocks =
      int64_t(graph.getGrid()[0]) * graph.getGrid()[1] * graph.getGrid()[2];
  int64_t wanted = llvm::divideCeil(blocks, target.multiprocessors);
  auto concurrency = [&](const LoweredKernel &kernel) {
    return std::min(wanted,
                    target.residentBlocks(kernel.sharedBytes, threads));
  };
  for (options.maxStages = lowered.stages - 1;
       options.maxStages >= 2 && concurrency(lowered) < wanted;
       --options.maxStages) {
    FailureOr<LoweredKernel> fewer = lowerKernel(graph, name, kernels, options, lowerings);
    if (failed(fewer))
      return failure();
    if (concurrency(*fewer) <= concurrency(lowered)) {
      fewer->kernel.erase();
      continue;
    }
    lowered.kernel.erase();
    SymbolTable::setSymbolName(fewer->kernel, name);
    lowered = *fewer;
  }

  OpBuilder builder(graph);
  auto symbol = SymbolRefAttr::get(
      kernels.getNameAttr(),
      {FlatSymbolRefAttr::get(lowered.kernel.getNameAttr())});
  auto launch = kernel::LaunchOp::create(
      builder, graph.getLoc(), graph.getResultTypes(), symbol, graph.getInputs(),
      graph.getGridAttr(), graph.getBlockAttr(),
      graph.getClusterAttr() ? graph.getClusterAttr()
                             : builder.getDenseI32ArrayAttr({1, 1, 1}),
      graph.getNonPortableClusterAttr(),
      builder.getI64IntegerAttr(lowered.sharedBytes));
  graph.replaceAllUsesWith(launch.getResults());
  graph.erase();
  return success();
}

void ConvertMirageBlockToGPUPass::runOnOperation() {
  if (!lookupChip(chip)) {
    getOperation().emitError() << "unknown chip '" << chip << "', expected "
                               << getChipNames();
    return signalPassFailure();
  }
  SmallVector<std::pair<kernel::GraphDefOp, std::string>> graphs;
  for (auto function : getOperation().getOps<func::FuncOp>()) {
    unsigned count = 0;
    function.walk([&](kernel::GraphDefOp graph) {
      graphs.emplace_back(graph, (function.getSymName() + "_kernel" +
                                  Twine(count++)).str());
    });
  }
  if (graphs.empty())
    return;
  gpu::GPUModuleOp kernels = getKernelModule();
  BlockLowerings lowerings;
  populateMirageBlockToGPULowerings(lowerings);
  for (auto &[graph, name] : graphs)
    if (failed(convert(graph, name, kernels, lowerings)))
      return signalPassFailure();
}

} // namespace
