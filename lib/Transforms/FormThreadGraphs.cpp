//===- FormThreadGraphs.cpp - mirage-form-thread-graphs -------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/Passes.h"
#include "Mirage/Transforms/ThreadGraphs.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Block/IR/LoopPhase.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Dialect/Thread/IR/ThreadOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_FORMTHREADGRAPHSPASS
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// The scalar op computing one element of elementwise block op `op`: the
/// mirage_thread op of the same ElementwiseKind (every kind has one), or
/// nothing for other ops.
std::optional<OperationName> getScalarForm(Operation *op) {
  std::optional<ElementwiseKind> kind = getElementwiseKind(op);
  if (!kind || !isa<block::MirageBlockDialect>(op->getDialect()))
    return std::nullopt;
  return OperationName(
      ("mirage_thread." + stringifyElementwiseKind(*kind)).str(),
      op->getContext());
}

/// Replaces the tree `members` (topological order, root last) by one
/// thread_graph.
void fuse(ArrayRef<Operation *> members) {
  Operation *root = members.back();
  llvm::SmallPtrSet<Operation *, 8> inside(members.begin(), members.end());
  llvm::SetVector<Value> inputs;
  for (Operation *op : members)
    for (Value operand : op->getOperands())
      if (!inside.contains(operand.getDefiningOp()))
        inputs.insert(operand);

  OpBuilder builder(root);
  auto graph = block::ThreadGraphOp::create(
      builder, root->getLoc(), root->getResultTypes(), inputs.getArrayRef());
  Block *body = builder.createBlock(&graph.getBody());
  IRMapping scalars;
  for (Value input : inputs)
    scalars.map(input, body->addArgument(
                           cast<ShapedType>(input.getType()).getElementType(),
                           input.getLoc()));
  Type elementType =
      cast<ShapedType>(root->getResult(0).getType()).getElementType();
  for (Operation *op : members) {
    OperationState state(op->getLoc(), *getScalarForm(op));
    for (Value operand : op->getOperands())
      state.operands.push_back(scalars.lookup(operand));
    state.types.push_back(elementType);
    state.attributes = op->getAttrDictionary();
    scalars.map(op->getResult(0), builder.create(state)->getResult(0));
  }
  thread::YieldOp::create(builder, root->getLoc(),
                          scalars.lookup(root->getResult(0)));

  root->getResult(0).replaceAllUsesWith(graph.getResult(0));
  for (Operation *op : llvm::reverse(members))
    op->erase();
}

/// Forms the thread graphs of one graph_def body.
int64_t formInGraphDef(kernel::GraphDefOp graphDef) {
  Block &body = graphDef.getBody().front();
  FailureOr<block::LoopPhaseMap> phases =
      block::analyzeLoopPhases(body, graphDef.getForloop());
  if (failed(phases))
    return 0;
  // Each tree by its root, its members in program order.
  llvm::MapVector<Operation *, SmallVector<Operation *>> trees;
  for (Operation &op : body) {
    // A running maximum's shift stays a `sub`: thread graphs read no
    // accumulator in the loop.
    if (!getScalarForm(&op) ||
        block::isRunningMaxRead(
            &op, (*phases).lookup(op.getOperand(0).getDefiningOp())))
      continue;
    SmallVector<Operation *> members;
    for (Value operand : op.getOperands()) {
      Operation *producer = operand.getDefiningOp();
      auto tree = producer ? trees.find(producer) : trees.end();
      if (tree == trees.end() || !operand.hasOneUse() ||
          operand.getType() != op.getResult(0).getType() ||
          (*phases)[producer] != (*phases)[&op])
        continue;
      llvm::append_range(members, tree->second);
      trees.erase(tree);
    }
    members.push_back(&op);
    trees.insert({&op, std::move(members)});
  }
  int64_t formed = 0;
  for (auto &[root, members] : trees)
    if (members.size() > 1) {
      fuse(members);
      ++formed;
    }
  return formed;
}

struct FormThreadGraphsPass
    : mirage::impl::FormThreadGraphsPassBase<FormThreadGraphsPass> {
  void runOnOperation() override { mirage::formThreadGraphs(getOperation()); }
};

} // namespace

int64_t mlir::mirage::formThreadGraphs(Operation *root) {
  SmallVector<kernel::GraphDefOp> graphDefs;
  root->walk([&](kernel::GraphDefOp op) { graphDefs.push_back(op); });
  int64_t formed = 0;
  for (kernel::GraphDefOp graphDef : graphDefs)
    formed += formInGraphDef(graphDef);
  return formed;
}
