//===- Pipelines.cpp - mirage-to-ptx-pipeline -----------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Support/Chip.h"

#include "Mirage/Dialect/Kernel/Transforms/Passes.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <cstdlib>

using namespace mlir;

/// The CUDA toolkit, for libdevice: $CUDA_ROOT, else /usr/local/cuda.
static std::string getCudaToolkitPath() {
  if (const char *root = std::getenv("CUDA_ROOT"))
    return root;
  return "/usr/local/cuda";
}

mirage::CodegenOptions
mirage::MirageToPTXPipelineOptions::toCodegenOptions() const {
  CodegenOptions options;
#define MIRAGE_CODEGEN_OPTION(TYPE, NAME, FLAG, DEFAULT, DESCRIPTION)          \
  options.NAME = NAME;
#include "Mirage/Conversion/CodegenOptions.def"
  return options;
}

void mirage::buildMirageToPTXPipeline(OpPassManager &pm,
                                      const CodegenOptions &options) {
  kernel::ExpandToBlocksPassOptions expand;
  expand.libraryMatmuls = options.libraryMatmuls;
  pm.addNestedPass<func::FuncOp>(kernel::createExpandToBlocksPass(expand));
  // LLVM takes time superlinear in a kernel's length: long kernels are cut.
  pm.addNestedPass<func::FuncOp>(
      kernel::createSplitGraphDefsPass({options.maxKernelOps}));
  pm.addPass(
      createConvertMirageBlockToGPUPass(ConvertMirageBlockToGPUPassOptions{
          options.chip, options.stages, options.maxSharedMemory,
          options.tensorCores, options.wgmma, options.tma, options.rowPrograms,
          options.preloadOnePass, options.runningMaxChains,
          options.combineTails}));
  pm.addPass(createConvertMirageKernelToGPUPass());

  GpuNVVMAttachTargetOptions target;
  target.moduleMatcher = "mirage_kernels";
  target.chip = options.chip;
  const Chip *chip = lookupChip(options.chip);
  target.features = chip ? chip->ptxFeatures.str() : "";
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createSCFToControlFlowPass());
  device.addPass(memref::createExpandStridedMetadataPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = true;
  device.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  // NVVM ops without an LLVM intrinsic (wgmma) become inline PTX.
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(createMirageTensorMapParamsPass());
  device.addPass(createMirageExternDynamicSharedPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = getCudaToolkitPath();
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mirage::registerMirageToPTXPipeline() {
  PassPipelineRegistration<MirageToPTXPipelineOptions>(
      "mirage-to-ptx-pipeline",
      "Compile kernel graphs to host functions on buffers and PTX kernels for "
      "one chip (sm_80 or sm_90a)",
      [](OpPassManager &pm, const MirageToPTXPipelineOptions &options) {
        buildMirageToPTXPipeline(pm, options.toCodegenOptions());
      });
}
