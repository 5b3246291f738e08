//===- Export.cpp - Export kernel graphs as µGraph JSON -------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Target/MirageJSON.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "MirageJSONFormat.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::mirage;
namespace json = llvm::json;

namespace {

class Exporter {
public:
  /// Appends the graph of `func` to `graphs`.
  LogicalResult exportFunc(func::FuncOp func, json::Array &graphs);

private:
  int64_t guidOf(Value value) {
    auto [it, inserted] = guids.try_emplace(value, nextGuid);
    nextGuid += inserted;
    return it->second;
  }
  /// The JSON of a tensor or tile; `value` names its guid.
  FailureOr<json::Object> tensor(Operation *user, Value value);
  /// Appends the JSON of `values` to `array`.
  LogicalResult appendTensors(json::Array &array, Operation *user,
                              ValueRange values);
  static json::Object xyz(ArrayRef<int32_t> v) {
    return json::Object{{"x", v[0]}, {"y", v[1]}, {"z", v[2]}};
  }
  static json::Object mapOf(block::GridMapAttr map) {
    SmallVector<int32_t, 3> dims = map.getDims();
    return xyz(dims);
  }
  FailureOr<json::Object> exportGraphDef(kernel::GraphDefOp op);
  FailureOr<json::Object> exportBlockOp(Operation &op, kernel::GraphDefOp graph,
                                        std::optional<int64_t> &reductionDimx);

  llvm::DenseMap<Value, int64_t> guids;
  int64_t nextGuid = 1000000;
};

FailureOr<json::Object> Exporter::tensor(Operation *user, Value value) {
  auto type = cast<ShapedType>(value.getType());
  if (!type.getElementType().isF16())
    return user->emitOpError("uses ")
           << type << ": the µGraph JSON format holds only f16 tensors";
  json::Array dims;
  for (int64_t d : type.getShape())
    dims.push_back(d);
  while (dims.size() < 4)
    dims.push_back(0);
  json::Object t{{"guid", guidOf(value)},
                 {"num_dims", type.getRank()},
                 {"dim", std::move(dims)},
                 {"data_type", json_format::kF16Code},
                 {"layout", "DmemRowMajor"}};
  if (isa<block::STensorType>(type)) {
    t["smem_offset"] = 0;
    Operation *def = value.getDefiningOp();
    t["after_accum"] = def && isa<block::ForloopAccumOp>(def);
  }
  return t;
}

LogicalResult Exporter::appendTensors(json::Array &array, Operation *user,
                                      ValueRange values) {
  for (Value v : values) {
    FailureOr<json::Object> t = tensor(user, v);
    if (failed(t))
      return failure();
    array.push_back(std::move(*t));
  }
  return success();
}

FailureOr<json::Object>
Exporter::exportBlockOp(Operation &op, kernel::GraphDefOp graph,
                        std::optional<int64_t> &reductionDimx) {
  json::Object out;
  json::Array inputs, outputs;
  if (auto load = dyn_cast<block::InputLoaderOp>(op)) {
    Value kernelTensor =
        graph.getInputs()[cast<BlockArgument>(load.getSource()).getArgNumber()];
    FailureOr<json::Object> dtensor = tensor(&op, kernelTensor);
    if (failed(dtensor))
      return failure();
    out["op_type"] = "tb_input_op";
    out["dtensor"] = std::move(*dtensor);
    out["input_map"] = mapOf(load.getImap());
    out["forloop_dim"] = load.getFmap();
  } else if (auto save = dyn_cast<block::OutputSaverOp>(op)) {
    Operation *yield = graph.getBodyBlock().getTerminator();
    unsigned position = llvm::find(yield->getOperands(), save.getResult()) -
                        yield->operand_begin();
    FailureOr<json::Object> dtensor = tensor(&op, graph.getResult(position));
    if (failed(dtensor))
      return failure();
    out["op_type"] = "tb_output_op";
    out["dtensor"] = std::move(*dtensor);
    out["output_map"] = mapOf(save.getOmap());
  } else if (auto accum = dyn_cast<block::ForloopAccumOp>(op)) {
    std::optional<std::string> type =
        json_format::getAccumOpType(accum.getKind());
    if (!type || accum.getEps().convertToDouble() != 0.0)
      return op.emitOpError("has no equivalent in the µGraph JSON format");
    if (std::optional<int64_t> size = accum.getSize()) {
      if (reductionDimx && *reductionDimx != *size)
        return op.emitOpError("reduces to ")
               << *size << " but another accumulator of the graph to "
               << *reductionDimx
               << ": the format has one reduction_dimx per graph";
      reductionDimx = *size;
    }
    out["op_type"] = *type;
  } else {
    std::optional<std::string> type = json_format::getComputeOpType("tb", &op);
    auto norm = dyn_cast<block::RmsNormOp>(op);
    if (!type || (norm && (norm.getEps().convertToDouble() != 0.0 ||
                           norm.getSize() !=
                               norm.getInput().getType().getShape().back())))
      return op.emitOpError("has no equivalent in the µGraph JSON format");
    out["op_type"] = *type;
  }
  if ((!isa<block::InputLoaderOp>(op) &&
       failed(appendTensors(inputs, &op, op.getOperands()))) ||
      (!isa<block::OutputSaverOp>(op) &&
       failed(appendTensors(outputs, &op, op.getResults()))))
    return failure();
  out["input_tensors"] = std::move(inputs);
  out["output_tensors"] = std::move(outputs);
  return out;
}

FailureOr<json::Object> Exporter::exportGraphDef(kernel::GraphDefOp op) {
  if (op.getCluster())
    return op.emitOpError(
        "has a cluster, which the µGraph JSON format cannot express");
  json::Array operators;
  std::optional<int64_t> reductionDimx;
  for (Operation &inner : op.getBodyBlock().without_terminator()) {
    FailureOr<json::Object> o = exportBlockOp(inner, op, reductionDimx);
    if (failed(o))
      return failure();
    operators.push_back(std::move(*o));
  }
  json::Object bgraph{{"graph_level", "thread_block_graph"},
                      {"grid_dim", xyz(op.getGrid())},
                      {"block_dim", xyz(op.getBlock())},
                      {"forloop_range", op.getForloop()},
                      {"reduction_dimx", reductionDimx.value_or(64)},
                      {"smem_offset", 0},
                      {"operators", std::move(operators)}};
  json::Array inputs, outputs;
  if (failed(appendTensors(inputs, op, op.getInputs())) ||
      failed(appendTensors(outputs, op, op.getResults())))
    return failure();
  return json::Object{{"op_type", "kn_customized_op"},
                      {"bgraph", std::move(bgraph)},
                      {"input_tensors", std::move(inputs)},
                      {"output_tensors", std::move(outputs)}};
}

LogicalResult Exporter::exportFunc(func::FuncOp func, json::Array &graphs) {
  json::Array ops;
  json::Object noMap{{"x", -1}, {"y", -1}, {"z", -1}};
  for (BlockArgument arg : func.getArguments()) {
    SmallVector<int64_t> strides = json_format::rowMajorStrides(
        cast<ShapedType>(arg.getType()).getShape());
    if (auto given = func.getArgAttrOfType<DenseI64ArrayAttr>(
            arg.getArgNumber(), "mirage.strides"))
      strides.assign(given.asArrayRef().begin(), given.asArrayRef().end());
    json::Array outputs;
    if (failed(appendTensors(outputs, func, ValueRange(arg))))
      return failure();
    ops.push_back(json::Object{{"op_type", "kn_input_op"},
                               {"input_map", json::Object(noMap)},
                               {"input_strides", json::Array(strides)},
                               {"input_tensors", json::Array()},
                               {"output_tensors", std::move(outputs)}});
  }
  for (Operation &op : func.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands()) {
        json::Array inputs;
        if (failed(appendTensors(inputs, ret, ValueRange(v))))
          return failure();
        ops.push_back(json::Object{
            {"op_type", "kn_output_op"},
            {"output_map", json::Object(noMap)},
            {"output_strides", json::Array(json_format::rowMajorStrides(
                                   cast<ShapedType>(v.getType()).getShape()))},
            {"input_tensors", std::move(inputs)},
            {"output_tensors", json::Array()}});
      }
      continue;
    }
    if (auto def = dyn_cast<kernel::GraphDefOp>(op)) {
      FailureOr<json::Object> o = exportGraphDef(def);
      if (failed(o))
        return failure();
      ops.push_back(std::move(*o));
      continue;
    }
    std::optional<std::string> type =
        op.getDialect() && op.getDialect()->getNamespace() == "mirage_kernel"
            ? json_format::getComputeOpType("kn", &op)
            : std::nullopt;
    auto norm = dyn_cast<kernel::RmsNormOp>(op);
    if (!type || (norm && (norm.getEps().convertToDouble() != 0.0 ||
                           norm.getSize() !=
                               norm.getInput().getType().getShape().back())))
      return op.emitOpError("has no equivalent in the µGraph JSON format");
    json::Array inputs, outputs;
    if (failed(appendTensors(inputs, &op, op.getOperands())) ||
        failed(appendTensors(outputs, &op, op.getResults())))
      return failure();
    ops.push_back(json::Object{{"op_type", *type},
                               {"input_tensors", std::move(inputs)},
                               {"output_tensors", std::move(outputs)}});
  }
  graphs.push_back(std::move(ops));
  return success();
}

} // namespace

LogicalResult mlir::mirage::exportMirageJSON(ModuleOp module,
                                             raw_ostream &output) {
  json::Array graphs;
  Exporter exporter;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (failed(exporter.exportFunc(func, graphs)))
      return failure();
  }
  output << llvm::formatv("{0:2}", json::Value(std::move(graphs))) << "\n";
  return success();
}
