//===- Plan.cpp - The plan.json of a bundle -------------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Conversion/TensorMaps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Semantics/Import.h"
#include "Mirage/Semantics/ProgramJSON.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::mirage;
namespace json = llvm::json;

/// Shape, dtype and (contiguous) strides of a tensor or buffer type.
static json::Object describe(Type type) {
  auto shaped = cast<ShapedType>(type);
  json::Object object = sem::toJSON(sem::getValueType(type));
  SmallVector<int64_t> strides(shaped.getRank(), 1);
  for (int64_t k = shaped.getRank() - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * shaped.getDimSize(k + 1);
  object["strides"] = json::Array(strides);
  return object;
}

/// The three constants of a launch dimension.
static FailureOr<json::Array> getConstantDims(Operation *launch,
                                              ArrayRef<Value> values) {
  json::Array dims;
  for (Value value : values) {
    std::optional<int64_t> constant = getConstantIntValue(value);
    if (!constant)
      return launch->emitOpError(
          "has a launch dimension that is not a constant");
    dims.push_back(*constant);
  }
  return dims;
}

/// Where the buffer `operand` of `user` comes from: an argument or a
/// memref.alloc of the function (through the collapses that flatten it).
static FailureOr<json::Object>
getBinding(Operation *user, Value operand,
           const DenseMap<Value, json::Object> &bindings) {
  while (auto collapse = operand.getDefiningOp<memref::CollapseShapeOp>())
    operand = collapse.getSrc();
  auto it = bindings.find(operand);
  if (it == bindings.end())
    return user->emitOpError(
        "takes a buffer that is neither an argument nor a memref.alloc of "
        "the function");
  return json::Object(it->second);
}

/// The plan's entry for a library matmul: `library`, the batch count, m, n,
/// k, the operands' and the result's dtypes, and the buffers: lhs, rhs,
/// result and, for `plus`, the addend.
static FailureOr<json::Object>
getLibraryMatmul(kernel::LibraryMatmulOp matmul,
                 const DenseMap<Value, json::Object> &bindings) {
  MemRefType lhs = matmul.getLhs().getType(), rhs = matmul.getRhs().getType();
  int64_t rank = lhs.getRank();
  int64_t batch = 1;
  for (int64_t d = 0; d + 2 < rank; ++d)
    batch *= lhs.getDimSize(d);
  json::Array args;
  for (Value operand : matmul->getOperands()) {
    FailureOr<json::Object> binding = getBinding(matmul, operand, bindings);
    if (failed(binding))
      return failure();
    args.push_back(std::move(*binding));
  }
  auto dtype = [](Value buffer) {
    return sem::getElementTypeName(
               sem::getValueType(buffer.getType()).elementType)
        .str();
  };
  return json::Object{{"library", "matmul"},
                      {"batch", batch},
                      {"m", lhs.getDimSize(rank - 2)},
                      {"n", rhs.getDimSize(rank - 1)},
                      {"k", lhs.getDimSize(rank - 1)},
                      {"dtype", dtype(matmul.getLhs())},
                      {"result_dtype", dtype(matmul.getResult())},
                      {"args", std::move(args)}};
}

FailureOr<json::Object> mirage::getFunctionPlan(func::FuncOp host) {
  Block &entry = host.getBody().front();
  json::Array inputs, outputs, buffers, launches;
  // Where each argument binding comes from.
  DenseMap<Value, json::Object> bindings;
  SmallVector<std::pair<int64_t, json::Object>> results;
  for (BlockArgument arg : entry.getArguments()) {
    if (auto result = host.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                         "mirage.result")) {
      bindings[arg] =
          json::Object{{"kind", "output"}, {"index", result.getInt()}};
      results.emplace_back(result.getInt(), describe(arg.getType()));
      continue;
    }
    bindings[arg] =
        json::Object{{"kind", "input"}, {"index", int64_t(inputs.size())}};
    inputs.push_back(describe(arg.getType()));
  }
  llvm::sort(results, [](auto &a, auto &b) { return a.first < b.first; });
  for (auto &entry : results)
    outputs.push_back(std::move(entry.second));

  for (Operation &op : entry) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      bindings[alloc] =
          json::Object{{"kind", "buffer"}, {"index", int64_t(buffers.size())}};
      json::Object buffer{
          {"bytes",
           type.getNumElements() * int64_t(type.getElementTypeBitWidth() / 8)}};
      if (alloc->hasAttr(kZeroedAttrName))
        buffer["zeroed"] = true;
      buffers.push_back(std::move(buffer));
      continue;
    }
    if (auto matmul = dyn_cast<kernel::LibraryMatmulOp>(op)) {
      FailureOr<json::Object> call = getLibraryMatmul(matmul, bindings);
      if (failed(call))
        return failure();
      launches.push_back(std::move(*call));
      continue;
    }
    auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
    if (!launch)
      continue;
    json::Object entry;
    entry["kernel"] = launch.getKernelName().getValue();
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues(),
                    block = launch.getBlockSizeOperandValues();
    FailureOr<json::Array> gridDims =
        getConstantDims(launch, {grid.x, grid.y, grid.z});
    FailureOr<json::Array> blockDims =
        getConstantDims(launch, {block.x, block.y, block.z});
    if (failed(gridDims) || failed(blockDims))
      return failure();
    entry["grid"] = std::move(*gridDims);
    entry["block"] = std::move(*blockDims);
    json::Array cluster{1, 1, 1};
    if (launch.hasClusterSize()) {
      gpu::KernelDim3 dims = launch.getClusterSizeOperandValues();
      FailureOr<json::Array> clusterDims =
          getConstantDims(launch, {dims.x, dims.y, dims.z});
      if (failed(clusterDims))
        return failure();
      cluster = std::move(*clusterDims);
    }
    entry["cluster"] = std::move(cluster);
    entry["non_portable_cluster"] =
        launch->hasAttr("mirage.non_portable_cluster");
    int64_t shared = 0;
    if (Value bytes = launch.getDynamicSharedMemorySize())
      shared = getConstantIntValue(bytes).value_or(-1);
    if (shared < 0)
      return launch.emitOpError("has a dynamic shared memory size that is not "
                                "a constant");
    entry["shared_memory"] = shared;
    json::Array args;
    for (Value operand : launch.getKernelOperands()) {
      FailureOr<json::Object> binding = getBinding(launch, operand, bindings);
      if (failed(binding))
        return failure();
      args.push_back(std::move(*binding));
    }
    // TMA descriptor parameters: the runtime encodes one for the bound
    // tensor with this box (TensorMaps.h).
    if (auto maps = launch->getAttrOfType<ArrayAttr>(kTensorMapsAttrName)) {
      for (Attribute attr : maps) {
        std::optional<TensorMapParam> param = TensorMapParam::fromAttr(attr);
        if (!param || param->argument >= args.size())
          return launch.emitOpError()
                 << "has a malformed " << kTensorMapsAttrName << " entry "
                 << attr;
        json::Object &arg = *args[param->argument].getAsObject();
        Type element =
            cast<MemRefType>(
                launch.getKernelOperands()[param->argument].getType())
                .getElementType();
        json::Object map{
            {"tensor", describe(RankedTensorType::get(param->shape, element))},
            {"box", json::Array(param->box)}};
        if (param->swizzle != 0)
          map["swizzle"] = param->swizzle;
        arg["tensor_map"] = std::move(map);
      }
    }
    entry["args"] = std::move(args);
    launches.push_back(std::move(entry));
  }
  return json::Object{{"name", host.getSymName()},
                      {"inputs", std::move(inputs)},
                      {"outputs", std::move(outputs)},
                      {"buffers", std::move(buffers)},
                      {"launches", std::move(launches)}};
}

FailureOr<json::Object> mirage::getProgram(func::FuncOp function,
                                           bool allowBlockGraphs) {
  if (!allowBlockGraphs)
    for (auto graph : function.getOps<kernel::GraphDefOp>())
      return graph.emitOpError("cannot be part of a reference program: only "
                               "predefined mirage_kernel ops can");
  FailureOr<sem::Program> program = sem::buildProgram(function);
  if (failed(program))
    return failure();
  return std::move(*sem::toJSON(*program).getAsObject());
}
