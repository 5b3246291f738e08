//===- Import.cpp - Build the compact form of MLIR programs ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Import.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Dialect/Thread/IR/ThreadOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::sem;

namespace {

/// The op kind of a Mirage op: its ElementwiseKind, shared by the three
/// dialects, or the kind of its class.
std::optional<OpKind> getOpKind(Operation *op) {
  if (std::optional<ElementwiseKind> fn = getElementwiseKind(op))
    return toOpKind(*fn);
  auto kind = [](OpKind k) { return [k](Operation *) { return k; }; };
  return llvm::TypeSwitch<Operation *, std::optional<OpKind>>(op)
      .Case<kernel::MatmulOp, block::MatmulOp>(kind(OpKind::Matmul))
      .Case<kernel::ReductionOp, block::ReductionOp>(kind(OpKind::Reduction))
      .Case<kernel::ReductionMaxOp, block::ReductionMaxOp>(
          kind(OpKind::ReductionMax))
      .Case<kernel::RmsNormOp, block::RmsNormOp>(kind(OpKind::RmsNorm))
      .Case<kernel::ConcatOp, block::ConcatOp>(kind(OpKind::Concat))
      .Case<kernel::ChunkOp>(kind(OpKind::Chunk))
      .Case<kernel::GraphDefOp>(kind(OpKind::GraphDef))
      .Case<block::InputLoaderOp>(kind(OpKind::InputLoader))
      .Case<block::OutputSaverOp>(kind(OpKind::OutputSaver))
      .Case<block::ForloopAccumOp>(kind(OpKind::ForloopAccum))
      .Case<block::ThreadGraphOp>(kind(OpKind::ThreadGraph))
      .Case<block::ClusterReduceOp>(kind(OpKind::ClusterReduce))
      .Case<block::ClusterGatherOp>(kind(OpKind::ClusterGather))
      .Case<block::ClusterReduceScatterOp>(kind(OpKind::ClusterReduceScatter))
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace

ValueType mlir::mirage::sem::getValueType(Type type) {
  ValueType result;
  Type element = type;
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    result.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
    element = shaped.getElementType();
  }
  result.elementType = element.isF16()    ? ElementType::F16
                       : element.isBF16() ? ElementType::BF16
                                          : ElementType::F32;
  return result;
}

namespace {

std::array<int32_t, 3> getMap(block::GridMapAttr map) {
  return {map.getX(), map.getY(), map.getZ()};
}

class ProgramBuilder {
public:
  /// Appends the graph of `block` to the program; returns its index.
  FailureOr<int32_t> addGraph(Block &block);

  Program program;

private:
  LogicalResult addNode(Operation *op, Graph &graph,
                        llvm::DenseMap<Value, int32_t> &ids);
};

FailureOr<int32_t> ProgramBuilder::addGraph(Block &block) {
  int32_t index = program.graphs.size();
  program.graphs.emplace_back();
  Graph graph;
  llvm::DenseMap<Value, int32_t> ids;
  auto define = [&](Value value) {
    ids[value] = graph.values.size();
    graph.values.push_back(getValueType(value.getType()));
    return ids[value];
  };
  for (BlockArgument arg : block.getArguments())
    graph.inputs.push_back(define(arg));
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      for (Value operand : op.getOperands())
        graph.outputs.push_back(ids.lookup(operand));
      continue;
    }
    for (Value result : op.getResults())
      define(result);
    if (failed(addNode(&op, graph, ids)))
      return failure();
  }
  program.graphs[index] = std::move(graph);
  return index;
}

LogicalResult ProgramBuilder::addNode(Operation *op, Graph &graph,
                                      llvm::DenseMap<Value, int32_t> &ids) {
  std::optional<OpKind> kind = getOpKind(op);
  if (!kind)
    return op->emitOpError() << "has no Mirage semantics";
  Node node;
  node.kind = *kind;
  for (Value operand : op->getOperands())
    node.operands.push_back(ids.lookup(operand));
  for (Value result : op->getResults())
    node.results.push_back(ids.lookup(result));

  LogicalResult status =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](kernel::GraphDefOp def) -> LogicalResult {
            FailureOr<int32_t> body = addGraph(def.getBodyBlock());
            if (failed(body))
              return failure();
            node.body = *body;
            Graph &bodyGraph = program.graphs[*body];
            for (int axis = 0; axis < 3; ++axis) {
              bodyGraph.grid[axis] = def.getGrid()[axis];
              if (def.getCluster())
                bodyGraph.cluster[axis] = (*def.getCluster())[axis];
            }
            bodyGraph.forloop = def.getForloop();
            bodyGraph.threads = def.getBlock()[0];
            bodyGraph.asyncCopies = def.getAsyncCopies();
            return success();
          })
          .Case([&](block::ThreadGraphOp tg) -> LogicalResult {
            FailureOr<int32_t> body = addGraph(tg.getBody().front());
            if (failed(body))
              return failure();
            node.body = *body;
            return success();
          })
          .Case([&](block::InputLoaderOp load) {
            node.map = getMap(load.getImap());
            node.dim = load.getFmap();
            return success();
          })
          .Case([&](block::OutputSaverOp save) {
            node.map = getMap(save.getOmap());
            return success();
          })
          .Case([&](block::ForloopAccumOp accum) {
            node.accum =
                *getAccumKind(block::stringifyAccumKind(accum.getKind()));
            node.size = accum.getSize().value_or(1);
            node.scalar = accum.getEps().convertToDouble();
            return success();
          })
          .Case<kernel::ReductionOp, block::ReductionOp>([&](auto red) {
            node.dim = red.getDim();
            node.size = red.getSize();
            return success();
          })
          .Case<kernel::RmsNormOp, block::RmsNormOp>([&](auto norm) {
            node.size = norm.getSize();
            node.scalar = norm.getEps().convertToDouble();
            return success();
          })
          .Case<kernel::ConcatOp, block::ConcatOp, block::ClusterGatherOp,
                block::ClusterReduceScatterOp, kernel::ReductionMaxOp,
                block::ReductionMaxOp>([&](auto cat) {
            node.dim = cat.getDim();
            return success();
          })
          .Case([&](kernel::ChunkOp chunk) {
            node.dim = chunk.getDim();
            node.size = chunk.getParts();
            return success();
          })
          .Case<kernel::MulScalarOp, block::MulScalarOp, thread::MulScalarOp>(
              [&](auto scale) {
                node.scalar = scale.getValue().convertToDouble();
                return success();
              })
          .Default([](Operation *) { return success(); });
  if (failed(status))
    return failure();
  graph.nodes.push_back(std::move(node));
  return success();
}

} // namespace

FailureOr<Program> mlir::mirage::sem::buildProgram(func::FuncOp func) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return func.emitOpError()
           << "must have a body of one block to be evaluated";
  for (Type type : func.getFunctionType().getInputs())
    if (!isa<RankedTensorType>(type) ||
        !cast<ShapedType>(type).hasStaticShape())
      return func.emitOpError() << "argument type " << type
                                << " is not a statically shaped tensor";
  for (Operation &op : func.getBody().front())
    if (isa<kernel::AllReduceOp>(op))
      return op.emitOpError()
             << "is a multi-GPU op, which the single-GPU semantics lacks";
  ProgramBuilder builder;
  if (failed(builder.addGraph(func.getBody().front())))
    return failure();
  return std::move(builder.program);
}
