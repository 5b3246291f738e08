//===- ExpandToBlocks.cpp - mirage-kernel-expand-to-blocks ----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Kernel/Transforms/Passes.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::mirage::kernel {
#define GEN_PASS_DEF_EXPANDTOBLOCKSPASS
#include "Mirage/Dialect/Kernel/Transforms/Passes.h.inc"
} // namespace mlir::mirage::kernel

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// Replaces the predefined kernel op `op` by a one-block graph_def that runs
/// the block op of the same mnemonic on whole tiles.
void expand(Operation *op, int32_t threads) {
  OpBuilder builder(op);
  Location loc = op->getLoc();
  auto graph = kernel::GraphDefOp::create(
      builder, loc, op->getResultTypes(), op->getOperands(),
      builder.getDenseI32ArrayAttr({1, 1, 1}),
      builder.getDenseI32ArrayAttr({threads, 1, 1}),
      builder.getI64IntegerAttr(1), /*cluster=*/nullptr,
      /*non_portable_cluster=*/nullptr);
  Block *body = new Block();
  graph.getBody().push_back(body);
  builder.setInsertionPointToStart(body);

  auto whole = block::GridMapAttr::get(builder.getContext(), -1, -1, -1);
  auto tileOf = [](Type tensor) {
    auto shaped = cast<ShapedType>(tensor);
    return block::STensorType::get(shaped.getShape(), shaped.getElementType());
  };
  SmallVector<Value> tiles;
  for (Value operand : op->getOperands()) {
    Value arg = body->addArgument(operand.getType(), loc);
    tiles.push_back(block::InputLoaderOp::create(
        builder, loc, tileOf(operand.getType()), arg, whole,
        builder.getI64IntegerAttr(-1)));
  }
  // Kernel and block ops share mnemonics and attribute names.
  OperationState state(loc, ("mirage_block." + op->getName().stripDialect()).str());
  state.addOperands(tiles);
  for (Type type : op->getResultTypes())
    state.addTypes(tileOf(type));
  state.addAttributes(op->getAttrs());
  Operation *compute = builder.create(state);
  SmallVector<Value> saved;
  for (auto [tile, type] :
       llvm::zip(compute->getResults(), op->getResultTypes()))
    saved.push_back(
        block::OutputSaverOp::create(builder, loc, type, tile, whole));
  block::YieldOp::create(builder, loc, saved);
  op->replaceAllUsesWith(graph.getResults());
  op->erase();
}

struct ExpandToBlocksPass
    : kernel::impl::ExpandToBlocksPassBase<ExpandToBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    if (threads < 1 || threads > 1024) {
      getOperation().emitError("threads must be in [1, 1024], got ")
          << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    SmallVector<Operation *> ops;
    for (Operation &op : getOperation().getBody().getOps())
      if (op.getDialect() && isa<kernel::MirageKernelDialect>(op.getDialect()) &&
          !isa<kernel::GraphDefOp>(op))
        ops.push_back(&op);
    for (Operation *op : ops) {
      if (isa<kernel::ChunkOp, kernel::AllReduceOp>(op)) {
        op->emitOpError("has no block-level form to expand into yet");
        return signalPassFailure();
      }
      expand(op, threads);
    }
  }
};

} // namespace
