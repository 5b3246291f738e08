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
#include "Mirage/Analysis/CombineTail.h"
#include "Mirage/Analysis/KernelSchedule.h"
#include "Mirage/Support/Chip.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// The suffix of a kernel's launch-shape constant; the runtime's reader of
/// it is runtime/lib/Ptx.cpp (`scanPtxKernels`).
constexpr StringLiteral kLaunchShapeSuffix = "__launch";

/// Records in the GPU module what `kernel` (lowered from `graph`) was
/// compiled for, as the public constant `<kernel>__launch` of i64s: its grid
/// (x, y, z), its block (x, y, z), then the bytes of each buffer parameter.
/// The runtime reads it from the PTX and refuses a plan that launches the
/// kernel otherwise (docs/Runtime.md, "What the PTX vouches for"): offsets
/// and extents are compiled in, so a larger grid or a smaller buffer would
/// make the kernel read or write outside its memory.
void recordLaunchShape(gpu::GPUFuncOp kernel, kernel::GraphDefOp graph,
                       SymbolTable &kernels) {
  SmallVector<int64_t> shape;
  llvm::append_range(shape, graph.getGrid());
  llvm::append_range(shape, graph.getBlock());
  for (Type type : kernel.getArgumentTypes()) {
    auto buffer = cast<MemRefType>(type);
    shape.push_back(buffer.getNumElements() *
                    ((buffer.getElementTypeBitWidth() + 7) / 8));
  }
  OpBuilder builder(kernel->getContext());
  builder.setInsertionPointAfter(kernel);
  auto type = MemRefType::get({int64_t(shape.size())}, builder.getI64Type());
  auto global = memref::GlobalOp::create(
      builder, kernel.getLoc(), (kernel.getName() + kLaunchShapeSuffix).str(),
      /*sym_visibility=*/StringAttr(), type,
      DenseIntElementsAttr::get(
          RankedTensorType::get(type.getShape(), builder.getI64Type()),
          ArrayRef<int64_t>(shape)),
      /*constant=*/true, /*alignment=*/builder.getI64IntegerAttr(8));
  kernels.insert(global);
}

/// Lowers `graph` by `schedule` into a new kernel named `name` of the GPU
/// module whose symbol table is `kernels` (one table for all kernels, so
/// adding n kernels takes linear time); its launch shape is not recorded.
FailureOr<gpu::GPUFuncOp> lowerKernel(kernel::GraphDefOp graph, StringRef name,
                                      SymbolTable &kernels,
                                      const KernelSchedule &schedule,
                                      const BlockLowerings &lowerings,
                                      const Chip &chip) {
  SmallVector<Type> argumentTypes;
  for (Type type : graph.getInputs().getTypes())
    argumentTypes.push_back(getFlatBufferType(type));
  for (Type type : graph.getResultTypes())
    argumentTypes.push_back(getFlatBufferType(type));
  OpBuilder builder =
      OpBuilder::atBlockEnd(cast<gpu::GPUModuleOp>(kernels.getOp()).getBody());
  auto kernel =
      gpu::GPUFuncOp::create(builder, graph.getLoc(), name,
                             builder.getFunctionType(argumentTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
  kernel.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(graph.getBlock()));
  // Enough blocks per SM for 256 threads: lets ptxas use up to 255
  // registers per thread rather than spill to reach a higher occupancy.
  kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  builder.getI32IntegerAttr(
                      std::max<int64_t>(1, kThreadsPerSM / schedule.threads)));
  if (std::optional<ArrayRef<int32_t>> cluster = graph.getCluster())
    kernel->setAttr("nvvm.cluster_dim", builder.getDenseI32ArrayAttr(*cluster));
  kernels.insert(kernel);
  if (failed(GraphDefLowering(graph, kernel, schedule, lowerings,
                              chip.hasGridDependencies())
                 .run())) {
    kernels.erase(kernel);
    return failure();
  }
  return kernel;
}

struct ConvertMirageBlockToGPUPass
    : mirage::impl::ConvertMirageBlockToGPUPassBase<
          ConvertMirageBlockToGPUPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// The module's `gpu.module @mirage_kernels`, created on first use.
  gpu::GPUModuleOp getKernelModule();
  /// A graph_def of the module with its kernel's name and, when tails are
  /// combined and the next graph_def is its combine tail, how.
  struct Step {
    kernel::GraphDefOp graph;
    std::string name;
    std::optional<CombineTail> combine;
  };
  /// The graph_defs of the module, in order.
  SmallVector<Step> collectSteps();
  /// Compiles the graph_def of `step` into its kernel and replaces it with
  /// its launch; with a combine tail (`tail`, the next step), compiles both
  /// into that kernel and replaces both with one launch where its shared
  /// memory allows, else each on its own.
  LogicalResult convert(const Step &step, SymbolTable &kernels,
                        const BlockLowerings &lowerings,
                        const Step *tail = nullptr);
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
ConvertMirageBlockToGPUPass::convert(const Step &step, SymbolTable &kernels,
                                     const BlockLowerings &lowerings,
                                     const Step *tailStep) {
  ScheduleOptions options = {
      stages,          tensorCores, wgmma,          tma,
      maxSharedMemory, rowPrograms, preloadOnePass, runningMaxChains};
  const Chip &target = *lookupChip(chip);
  kernel::GraphDefOp graph = step.graph;
  FailureOr<KernelSchedule> schedule = scheduleKernel(graph, target, options);
  if (failed(schedule))
    return failure();
  kernel::GraphDefOp tail = tailStep ? tailStep->graph : nullptr;
  // The tail as the kernel compiles it: for blocks of one warp.
  OwningOpRef<kernel::GraphDefOp> warpTail;
  FailureOr<KernelSchedule> tailSchedule = failure();
  int64_t sharedBytes = schedule->sharedBytes;
  if (tail) {
    warpTail = cast<kernel::GraphDefOp>(tail->clone());
    warpTail->setBlock({int32_t(kWarpSize), 1, 1});
    tailSchedule = scheduleKernel(*warpTail, target, options);
    if (failed(tailSchedule))
      return failure();
    sharedBytes = getCombinedSharedBytes(sharedBytes, tailSchedule->sharedBytes,
                                         graph.getNumThreads());
    int64_t limit = target.sharedBytesPerBlock;
    if (maxSharedMemory > 0)
      limit = std::min<int64_t>(limit, maxSharedMemory);
    if (sharedBytes > limit) {
      // The clone reads the first's results, which its own launch replaces.
      warpTail = nullptr;
      return failure(failed(convert(step, kernels, lowerings)) ||
                     failed(convert(*tailStep, kernels, lowerings)));
    }
  }
  FailureOr<gpu::GPUFuncOp> kernel =
      lowerKernel(graph, step.name, kernels, *schedule, lowerings, target);
  if (failed(kernel))
    return failure();
  SmallVector<Value> inputs(graph.getInputs());
  SmallVector<Type> resultTypes(graph.getResultTypes());
  if (tail) {
    FailureOr<gpu::GPUFuncOp> tailKernel = lowerKernel(
        *warpTail, tailStep->name, kernels, *tailSchedule, lowerings, target);
    warpTail = nullptr;
    if (failed(tailKernel))
      return failure();
    FailureOr<gpu::GPUFuncOp> combined = combineTailKernels(
        graph, tail, *kernel, *tailKernel, *step.combine,
        getTailSharedOffset(schedule->sharedBytes),
        getTailSharedStride(tailSchedule->sharedBytes), step.name);
    if (failed(combined))
      return failure();
    kernels.erase(*kernel);
    kernels.erase(*tailKernel);
    kernels.insert(*combined);
    kernel = combined;
    for (unsigned j : getTailOwnInputs(graph, tail))
      inputs.push_back(tail.getInputs()[j]);
    llvm::append_range(resultTypes, tail.getResultTypes());
  }
  recordLaunchShape(*kernel, graph, kernels);

  OpBuilder builder(tail ? tail : graph);
  auto symbol =
      SymbolRefAttr::get(cast<gpu::GPUModuleOp>(kernels.getOp()).getNameAttr(),
                         {FlatSymbolRefAttr::get(kernel->getNameAttr())});
  auto launch = kernel::LaunchOp::create(
      builder, graph.getLoc(), resultTypes, symbol, inputs, graph.getGridAttr(),
      graph.getBlockAttr(),
      graph.getClusterAttr() ? graph.getClusterAttr()
                             : builder.getDenseI32ArrayAttr({1, 1, 1}),
      graph.getNonPortableClusterAttr(),
      builder.getI64IntegerAttr(sharedBytes));
  unsigned firstResults = graph.getNumResults();
  graph.replaceAllUsesWith(launch.getResults().take_front(firstResults));
  if (tail) {
    tail.replaceAllUsesWith(launch.getResults().drop_front(firstResults));
    tail.erase();
  }
  graph.erase();
  return success();
}

SmallVector<ConvertMirageBlockToGPUPass::Step>
ConvertMirageBlockToGPUPass::collectSteps() {
  SmallVector<Step> steps;
  for (auto function : getOperation().getOps<func::FuncOp>()) {
    unsigned count = 0;
    function.walk([&](kernel::GraphDefOp graph) {
      Step step{graph,
                (function.getSymName() + "_kernel" + Twine(count++)).str(),
                std::nullopt};
      // A tail is no graph_def's first.
      bool isTail = !steps.empty() && steps.back().combine &&
                    steps.back().graph->getNextNode() == graph;
      auto next = dyn_cast_or_null<kernel::GraphDefOp>(graph->getNextNode());
      if (combineTails && !isTail && next)
        step.combine = getCombineTail(graph, next);
      steps.push_back(std::move(step));
    });
  }
  return steps;
}

void ConvertMirageBlockToGPUPass::runOnOperation() {
  if (!lookupChip(chip)) {
    getOperation().emitError()
        << "unknown chip '" << chip << "', expected " << getChipNames();
    return signalPassFailure();
  }
  SmallVector<Step> steps = collectSteps();
  if (steps.empty()) {
    // A program of library calls alone still gets its (empty) kernel
    // module: a bundle carries PTX for every chip.
    if (kernel::containsKernelOps(getOperation()))
      getKernelModule();
    return;
  }
  SymbolTable kernels(getKernelModule());
  BlockLowerings lowerings;
  populateMirageBlockToGPULowerings(lowerings);
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step *tail = steps[i].combine ? &steps[i + 1] : nullptr;
    if (failed(convert(steps[i], kernels, lowerings, tail)))
      return signalPassFailure();
    if (tail)
      ++i;
  }
}

} // namespace
