//===- Materialize.cpp - Compact programs back to IR ----------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Materialize.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::mirage;
using sem::Graph;
using sem::Node;
using sem::OpKind;

namespace {

Type toMlirElementType(MLIRContext *context, sem::ElementType type) {
  switch (type) {
  case sem::ElementType::F16:
    return Float16Type::get(context);
  case sem::ElementType::BF16:
    return BFloat16Type::get(context);
  case sem::ElementType::F32:
    return Float32Type::get(context);
  }
  llvm_unreachable("unknown element type");
}

block::AccumKind getAccumKind(sem::AccumKind kind) {
  switch (kind) {
  case sem::AccumKind::Sum:
    return block::AccumKind::Sum;
  case sem::AccumKind::SumLast:
    return block::AccumKind::SumLast;
  case sem::AccumKind::SumLastTo:
    return block::AccumKind::SumLastTo;
  case sem::AccumKind::RmsLast:
    return block::AccumKind::RmsLast;
  case sem::AccumKind::Max:
    return block::AccumKind::Max;
  }
  llvm_unreachable("unknown accumulator kind");
}

/// Creates the op of `dialect` (`mirage_block` or `mirage_kernel`, whose ops
/// share mnemonics and attributes) for `node`, an elementwise op, matmul,
/// reduction, reduction_max or rms_norm, on `operands` with result type
/// `type`; null for other ops.
Operation *createComputeOp(const Node &node, ValueRange operands, Type type,
                           OpBuilder &builder, Location loc,
                           StringRef dialect = "mirage_block") {
  if (!sem::isUnary(node.kind) && !sem::isBinary(node.kind) &&
      node.kind != OpKind::Matmul && node.kind != OpKind::Reduction &&
      node.kind != OpKind::ReductionMax && node.kind != OpKind::RmsNorm)
    return nullptr;
  OperationState state(loc, (dialect + "." + sem::getOpName(node.kind)).str());
  state.addOperands(operands);
  state.addTypes(type);
  if (node.kind == OpKind::Reduction || node.kind == OpKind::ReductionMax)
    state.addAttribute("dim", builder.getI64IntegerAttr(node.dim));
  if (node.kind == OpKind::Reduction)
    state.addAttribute("size", builder.getI64IntegerAttr(node.size));
  if (node.kind == OpKind::RmsNorm) {
    state.addAttribute("size", builder.getI64IntegerAttr(node.size));
    state.addAttribute("eps", builder.getF32FloatAttr(node.scalar));
  }
  if (node.kind == sem::toOpKind(ElementwiseKind::MulScalar))
    state.addAttribute("value", builder.getF32FloatAttr(node.scalar));
  return builder.create(state);
}

/// Builds thread graph `node`'s body as block-level elementwise ops on
/// `operands`, each of the thread graph's result type (its members all have
/// that type: mirage-form-thread-graphs fuses them back); returns the
/// value of its result.
FailureOr<Value> buildThreadGraph(const Node &node, const Graph &body,
                                  ValueRange operands, Type type,
                                  OpBuilder &builder, Location loc) {
  SmallVector<Value> values(body.values.size());
  for (auto [operand, value] : llvm::zip(operands, body.inputs))
    values[value] = operand;
  for (const Node &inner : body.nodes) {
    SmallVector<Value, 2> innerOperands;
    for (int32_t operand : inner.operands)
      innerOperands.push_back(values[operand]);
    if (!sem::isUnary(inner.kind) && !sem::isBinary(inner.kind))
      return emitError(loc) << "cannot materialize a thread-level "
                            << sem::getOpName(inner.kind);
    values[inner.results.front()] =
        createComputeOp(inner, innerOperands, type, builder, loc)->getResult(0);
  }
  if (body.outputs.size() != 1 || node.results.size() != 1)
    return emitError(loc) << "cannot materialize a thread graph of "
                          << body.outputs.size() << " results";
  return values[body.outputs.front()];
}

/// Builds the body of a graph_def of `program`.
LogicalResult buildBody(const sem::Program &program, const Graph &body,
                        OpBuilder &builder, Location loc, Block &block) {
  MLIRContext *context = builder.getContext();
  SmallVector<Value> values(body.values.size());
  for (auto [arg, value] : llvm::zip(block.getArguments(), body.inputs))
    values[value] = arg;
  auto tileType = [&](int32_t value) {
    const sem::ValueType &type = body.values[value];
    return block::STensorType::get(
        type.shape, toMlirElementType(context, type.elementType));
  };
  auto gridMap = [&](const Node &node) {
    return block::GridMapAttr::get(context, node.map[0], node.map[1],
                                   node.map[2]);
  };
  SmallVector<Value> outputs;
  for (const Node &node : body.nodes) {
    SmallVector<Value, 2> operands;
    for (int32_t operand : node.operands)
      operands.push_back(values[operand]);
    int32_t result = node.results.front();
    Value value;
    switch (node.kind) {
    case OpKind::InputLoader:
      value = block::InputLoaderOp::create(builder, loc, tileType(result),
                                           operands[0], gridMap(node),
                                           builder.getI64IntegerAttr(node.dim));
      break;
    case OpKind::OutputSaver: {
      const sem::ValueType &type = body.values[result];
      value = block::OutputSaverOp::create(
          builder, loc,
          RankedTensorType::get(type.shape,
                                toMlirElementType(context, type.elementType)),
          operands[0], gridMap(node));
      outputs.push_back(value);
      break;
    }
    case OpKind::ForloopAccum:
      value = block::ForloopAccumOp::create(
          builder, loc, tileType(result), operands[0], getAccumKind(node.accum),
          node.accum == sem::AccumKind::SumLastTo
              ? builder.getI64IntegerAttr(node.size)
              : IntegerAttr(),
          llvm::APFloat(static_cast<float>(node.scalar)));
      break;
    case OpKind::ClusterReduce:
      value = block::ClusterReduceOp::create(builder, loc, operands[0]);
      break;
    case OpKind::ClusterReduceScatter:
      value = block::ClusterReduceScatterOp::create(
          builder, loc, tileType(result), operands[0],
          builder.getI64IntegerAttr(node.dim));
      break;
    case OpKind::ThreadGraph: {
      FailureOr<Value> built =
          buildThreadGraph(node, program.graphs[node.body], operands,
                           tileType(result), builder, loc);
      if (failed(built))
        return failure();
      value = *built;
      break;
    }
    default: {
      Operation *op =
          createComputeOp(node, operands, tileType(result), builder, loc);
      if (!op)
        return emitError(loc) << "cannot materialize a block-level "
                              << sem::getOpName(node.kind);
      value = op->getResult(0);
      break;
    }
    }
    values[result] = value;
  }
  block::YieldOp::create(builder, loc, outputs);
  return success();
}

} // namespace

static bool hasMatmul(const Graph &body) {
  return llvm::any_of(body.nodes, [](const sem::Node &node) {
    return node.kind == OpKind::Matmul;
  });
}

int64_t search::getTileThreads(const Graph &body, int64_t elementsPerThread) {
  // Every value a block holds: the inputs and saved outputs are whole
  // tensors.
  int64_t largest = 1;
  for (const sem::Node &node : body.nodes)
    if (node.kind != OpKind::OutputSaver)
      for (int32_t result : node.results)
        largest = std::max(largest, body.values[result].getNumElements());
  int64_t wanted =
      llvm::PowerOf2Ceil(llvm::divideCeil(largest, elementsPerThread));
  return std::clamp(wanted, kMinBlockThreads, kMaxBlockThreads);
}

int64_t search::getBlockThreads(const Graph &body, int32_t requested) {
  if (requested > 0)
    return requested;
  if (body.threads > 0)
    return body.threads;
  if (hasMatmul(body))
    return kMinBlockThreads;
  return getTileThreads(body, kElementsPerThread);
}

std::optional<sem::Program>
search::getWideBlockVariant(const sem::Program &program) {
  sem::Program variant = program;
  bool changed = false;
  for (const sem::Node &node : program.getKernelGraph().nodes) {
    if (node.kind != OpKind::GraphDef)
      continue;
    Graph &body = variant.graphs[node.body];
    if (body.threads == 0 && hasMatmul(body)) {
      body.threads = 2 * kMinBlockThreads;
      changed = true;
    }
  }
  if (!changed)
    return std::nullopt;
  return variant;
}

std::optional<sem::Program>
search::getAsyncCopyVariant(const sem::Program &program,
                            const ProgramFacts &facts) {
  sem::Program variant = program;
  bool changed = false;
  for (const sem::Node &node : program.getKernelGraph().nodes) {
    if (node.kind != OpKind::GraphDef || node.body >= int32_t(facts.size()) ||
        !facts[node.body] || !facts[node.body]->tensorCopies)
      continue;
    variant.graphs[node.body].asyncCopies = true;
    changed = true;
  }
  if (!changed)
    return std::nullopt;
  return variant;
}

FailureOr<SmallVector<Value>>
search::materializeProgram(const sem::Program &program, OpBuilder &builder,
                           Location loc, ValueRange inputs, int32_t threads) {
  const Graph &kernel = program.getKernelGraph();
  MLIRContext *context = builder.getContext();
  SmallVector<Value> values(kernel.values.size());
  for (auto [input, value] : llvm::zip(inputs, kernel.inputs))
    values[value] = input;
  for (const Node &node : kernel.nodes) {
    SmallVector<Value> operands;
    SmallVector<Type> resultTypes;
    for (int32_t operand : node.operands)
      operands.push_back(values[operand]);
    for (int32_t result : node.results) {
      const sem::ValueType &type = kernel.values[result];
      resultTypes.push_back(RankedTensorType::get(
          type.shape, toMlirElementType(context, type.elementType)));
    }
    if (node.kind != OpKind::GraphDef) {
      // A predefined kernel op (a library GEMM's matmul after a kernel).
      Operation *op = resultTypes.size() == 1
                          ? createComputeOp(node, operands, resultTypes[0],
                                            builder, loc, "mirage_kernel")
                          : nullptr;
      if (!op)
        return emitError(loc) << "cannot materialize a kernel-level "
                              << sem::getOpName(node.kind);
      values[node.results.front()] = op->getResult(0);
      continue;
    }
    const Graph &body = program.graphs[node.body];
    auto dims = [&](std::array<int64_t, 3> d) {
      return builder.getDenseI32ArrayAttr(
          {int32_t(d[0]), int32_t(d[1]), int32_t(d[2])});
    };
    auto graph = kernel::GraphDefOp::create(
        builder, loc, resultTypes, operands, dims(body.grid),
        builder.getDenseI32ArrayAttr(
            {int32_t(getBlockThreads(body, threads)), 1, 1}),
        builder.getI64IntegerAttr(body.forloop),
        body.getClusterSize() == 1 ? DenseI32ArrayAttr() : dims(body.cluster),
        /*non_portable_cluster=*/nullptr,
        body.asyncCopies ? builder.getUnitAttr() : UnitAttr());
    Block *block = new Block();
    graph.getBody().push_back(block);
    for (Value operand : operands)
      block->addArgument(operand.getType(), loc);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    if (failed(buildBody(program, body, builder, loc, *block)))
      return failure();
    for (auto [result, value] : llvm::zip(graph.getResults(), node.results))
      values[value] = result;
  }
  SmallVector<Value> outputs;
  for (int32_t value : kernel.outputs)
    outputs.push_back(values[value]);
  return outputs;
}

FunctionType search::getFunctionType(const sem::Program &program,
                                     MLIRContext *context) {
  const Graph &kernel = program.getKernelGraph();
  auto types = [&](ArrayRef<int32_t> values) {
    SmallVector<Type> result;
    for (int32_t value : values) {
      const sem::ValueType &type = kernel.values[value];
      result.push_back(RankedTensorType::get(
          type.shape, toMlirElementType(context, type.elementType)));
    }
    return result;
  };
  return FunctionType::get(context, types(kernel.inputs),
                           types(kernel.outputs));
}
