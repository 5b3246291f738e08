//===- Plan.cpp - The plan.json of a bundle -------------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include "Mirage/Conversion/TensorMaps.h"
#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::mirage;
namespace json = llvm::json;

/// "f16", "bf16" or "f32".
static StringRef getDTypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  return "f32";
}

static json::Array toJSON(ArrayRef<int64_t> values) {
  json::Array array;
  for (int64_t v : values)
    array.push_back(v);
  return array;
}

/// Shape, dtype and (contiguous) strides of a tensor or buffer type.
static json::Object describe(Type type, bool withStrides) {
  auto shaped = cast<ShapedType>(type);
  json::Object object{{"shape", toJSON(shaped.getShape())},
                      {"dtype", getDTypeName(shaped.getElementType())}};
  if (withStrides) {
    SmallVector<int64_t> strides(shaped.getRank(), 1);
    for (int64_t k = shaped.getRank() - 2; k >= 0; --k)
      strides[k] = strides[k + 1] * shaped.getDimSize(k + 1);
    object["strides"] = toJSON(strides);
  }
  return object;
}

/// The three constants of a launch dimension.
static FailureOr<json::Array> getConstantDims(Operation *launch,
                                              ArrayRef<Value> values) {
  json::Array dims;
  for (Value value : values) {
    std::optional<int64_t> constant = getConstantIntValue(value);
    if (!constant)
      return launch->emitOpError("has a launch dimension that is not a constant");
    dims.push_back(*constant);
  }
  return dims;
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
      bindings[arg] = json::Object{{"kind", "output"}, {"index", result.getInt()}};
      results.emplace_back(result.getInt(), describe(arg.getType(), true));
      continue;
    }
    bindings[arg] = json::Object{{"kind", "input"}, {"index", int64_t(inputs.size())}};
    inputs.push_back(describe(arg.getType(), true));
  }
  llvm::sort(results, [](auto &a, auto &b) { return a.first < b.first; });
  for (auto &entry : results)
    outputs.push_back(std::move(entry.second));

  for (Operation &op : entry) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      bindings[alloc] =
          json::Object{{"kind", "buffer"}, {"index", int64_t(buffers.size())}};
      buffers.push_back(json::Object{
          {"bytes", type.getNumElements() *
                        int64_t(type.getElementTypeBitWidth() / 8)}});
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
      while (auto collapse = operand.getDefiningOp<memref::CollapseShapeOp>())
        operand = collapse.getSrc();
      auto it = bindings.find(operand);
      if (it == bindings.end())
        return launch.emitOpError(
            "takes a buffer that is neither an argument nor a memref.alloc of "
            "the function");
      args.push_back(json::Object(it->second));
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
        Type element = cast<MemRefType>(
                           launch.getKernelOperands()[param->argument].getType())
                           .getElementType();
        json::Object map{
            {"tensor",
             describe(RankedTensorType::get(param->shape, element), true)},
            {"box", toJSON(param->box)}};
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

namespace {

/// Writes a graph (a function body, a graph_def body or a thread_graph body)
/// as JSON: values numbered in order of definition, with their types. Nested
/// bodies, which are isolated from above, are numbered on their own.
class GraphWriter {
public:
  /// Describes `block`; `allowBlockGraphs` admits graph_defs.
  FailureOr<json::Object> write(Block &block, bool allowBlockGraphs);

private:
  FailureOr<json::Object> writeOp(Operation &op, bool allowBlockGraphs);

  DenseMap<Value, int64_t> ids;
};

json::Array toJSON(ArrayRef<int32_t> values) {
  json::Array array;
  for (int32_t v : values)
    array.push_back(v);
  return array;
}

/// Shape (empty for a scalar) and dtype of a value.
json::Object describeValue(Type type) {
  if (isa<ShapedType>(type))
    return describe(type, false);
  return json::Object{{"shape", json::Array()}, {"dtype", getDTypeName(type)}};
}

} // namespace

FailureOr<json::Object> GraphWriter::write(Block &block, bool allowBlockGraphs) {
  json::Array values, inputs, outputs, ops;
  auto number = [&](Value value) {
    ids[value] = values.size();
    values.push_back(describeValue(value.getType()));
    return ids[value];
  };
  for (BlockArgument arg : block.getArguments())
    inputs.push_back(number(arg));
  for (Operation &op : block.without_terminator()) {
    FailureOr<json::Object> entry = writeOp(op, allowBlockGraphs);
    if (failed(entry))
      return failure();
    json::Array results;
    for (Value result : op.getResults())
      results.push_back(number(result));
    (*entry)["results"] = std::move(results);
    ops.push_back(std::move(*entry));
  }
  for (Value value : block.getTerminator()->getOperands())
    outputs.push_back(ids.lookup(value));
  return json::Object{{"values", std::move(values)},
                      {"inputs", std::move(inputs)},
                      {"outputs", std::move(outputs)},
                      {"ops", std::move(ops)}};
}

FailureOr<json::Object> GraphWriter::writeOp(Operation &op,
                                             bool allowBlockGraphs) {
  StringRef dialect = op.getDialect() ? op.getDialect()->getNamespace() : "";
  if (!llvm::is_contained({"mirage_kernel", "mirage_block", "mirage_thread"},
                          dialect) ||
      isa<kernel::LaunchOp>(op))
    return op.emitOpError("cannot be described in a bundle program");
  if (isa<kernel::GraphDefOp>(op) && !allowBlockGraphs)
    return op.emitOpError("cannot be part of a reference program: only "
                          "predefined mirage_kernel ops can");
  json::Object entry{{"op", op.getName().stripDialect()}};
  json::Array operands;
  for (Value operand : op.getOperands())
    operands.push_back(ids.lookup(operand));
  entry["operands"] = std::move(operands);
  // Integer and float attributes, defaults included; maps as [x, y, z].
  for (NamedAttribute attr : op.getAttrs()) {
    StringRef name = attr.getName().getValue();
    if (auto integer = dyn_cast<IntegerAttr>(attr.getValue()))
      entry[name] = integer.getValue().getSExtValue();
    else if (auto real = dyn_cast<FloatAttr>(attr.getValue()))
      entry[name] = real.getValueAsDouble();
    else if (auto map = dyn_cast<block::GridMapAttr>(attr.getValue()))
      entry[name] = toJSON(map.getDims());
    else if (auto dims = dyn_cast<DenseI32ArrayAttr>(attr.getValue()))
      entry[name] = toJSON(dims.asArrayRef());
  }
  if (auto reduction = dyn_cast<kernel::ReductionOp>(op))
    entry["size"] = reduction.getSize();
  if (auto reduction = dyn_cast<block::ReductionOp>(op))
    entry["size"] = reduction.getSize();
  if (auto norm = dyn_cast<kernel::RmsNormOp>(op))
    entry["eps"] = norm.getEps().convertToDouble();
  if (auto norm = dyn_cast<block::RmsNormOp>(op))
    entry["eps"] = norm.getEps().convertToDouble();
  if (auto loader = dyn_cast<block::InputLoaderOp>(op))
    entry["fmap"] = loader.getFmap();
  if (auto accum = dyn_cast<block::ForloopAccumOp>(op))
    entry["kind"] = block::stringifyAccumKind(accum.getKind());
  if (auto graph = dyn_cast<kernel::GraphDefOp>(op))
    entry["cluster"] = toJSON(graph.getCluster().value_or(ArrayRef<int32_t>{1, 1, 1}));
  if (op.getNumRegions() == 1) {
    FailureOr<json::Object> body =
        GraphWriter().write(op.getRegion(0).front(), false);
    if (failed(body))
      return failure();
    entry["body"] = std::move(*body);
  }
  return entry;
}

FailureOr<json::Object> mirage::getProgram(func::FuncOp function,
                                           bool allowBlockGraphs) {
  return GraphWriter().write(function.getBody().front(), allowBlockGraphs);
}
