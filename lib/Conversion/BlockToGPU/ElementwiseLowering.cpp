//===- ElementwiseLowering.cpp - Elementwise ops, concat and thread graphs ===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Elementwise work goes by runs of consecutive elements (one vector access
// per operand and result); a thread graph computes its whole body per
// element.
//
//===----------------------------------------------------------------------===//

#include "GraphDefLowering.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::lowering;

void GraphDefLowering::lowerElementwise(Operation *op, double scalar) {
  SmallVector<Tile> operands;
  for (Value operand : op->getOperands())
    operands.push_back(tiles[operand]);
  Value result = op->getResult(0);
  ArrayRef<int64_t> shape = getShape(result);
  Tile out = getResultTile(op, result);
  ElementwiseKind kind = *getElementwiseKind(op);
  emitElementwiseRuns(
      shape, operands, out, [&](ArrayRef<SmallVector<Value, 8>> runs) {
        SmallVector<Value, 8> results;
        for (int64_t lane = 0, e = runs.front().size(); lane < e; ++lane)
          results.push_back(emitElementwise(
              emitter.getBuilder(), emitter.getLoc(), kind,
              llvm::map_to_vector(runs, [&](auto &run) { return run[lane]; }),
              scalar));
        return SmallVector<SmallVector<Value, 8>, 2>{results};
      });
}

void GraphDefLowering::emitElementwiseRuns(
    ArrayRef<int64_t> shape, ArrayRef<Tile> operands, ArrayRef<Tile> outs,
    function_ref<SmallVector<SmallVector<Value, 8>, 2>(
        ArrayRef<SmallVector<Value, 8>> runs)>
        compute) {
  SmallVector<Type, 4> types;
  for (const Tile &tile : llvm::concat<const Tile>(operands, outs))
    types.push_back(tile.getStorageType());
  int64_t width = getRunWidth(shape, types);
  emitter.forEachRun(shape, width, [&](ValueRange c) {
    SmallVector<SmallVector<Value, 8>, 4> runs;
    for (const Tile &operand : operands)
      runs.push_back(emitter.loadBroadcastRun(operand, shape, c, width));
    for (auto [out, run] : llvm::zip_equal(outs, compute(runs)))
      emitter.storeVector(out, c, run);
  });
}

Value GraphDefLowering::emitUnary(Operation *op, Value operand) {
  return emitElementwise(emitter.getBuilder(), emitter.getLoc(),
                         *getElementwiseKind(op), ValueRange{operand},
                         getElementwiseScalar(op));
}

void GraphDefLowering::lowerConcat(block::ConcatOp op) {
  Tile lhs = tiles[op.getLhs()], rhs = tiles[op.getRhs()];
  int64_t dim = op.getDim(), split = lhs.shape[dim];
  Tile out = allocateResult(op.getResult());
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  emitter.forEachElement(out.shape, [&](ValueRange c) {
    Value inLhs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        c[dim], emitter.index(split));
    auto select = scf::IfOp::create(b, loc, b.getF32Type(), inLhs,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(select.thenBlock());
      scf::YieldOp::create(b, loc, emitter.load(lhs, c));
      b.setInsertionPointToStart(select.elseBlock());
      SmallVector<Value, 4> rc(c);
      rc[dim] = arith::SubIOp::create(b, loc, c[dim], emitter.index(split));
      scf::YieldOp::create(b, loc, emitter.load(rhs, rc));
    }
    emitter.store(out, c, select.getResult(0));
  });
}

LogicalResult GraphDefLowering::lowerThreadGraph(block::ThreadGraphOp op) {
  SmallVector<Tile> operands;
  for (Value operand : op.getInputs())
    operands.push_back(tiles[operand]);
  ArrayRef<int64_t> shape = getShape(op.getResult(0));
  SmallVector<Tile> outs;
  for (Value result : op.getResults())
    outs.push_back(getResultTile(op, result));
  Block &body = op.getBody().front();
  for (Operation &inner : body.without_terminator())
    if (!getElementwiseKind(&inner))
      return inner.emitOpError("has no GPU lowering");
  // Per run: the values of the body, in f32, rounded to their type after
  // every op (the run's elements two at a time).
  emitElementwiseRuns(
      shape, operands, outs, [&](ArrayRef<SmallVector<Value, 8>> runs) {
        DenseMap<Value, SmallVector<Value, 8>> values;
        for (auto [arg, run] : llvm::zip_equal(body.getArguments(), runs))
          values[arg] = run;
        for (Operation &inner : body.without_terminator()) {
          auto factor = inner.getAttrOfType<FloatAttr>("value");
          SmallVector<Value, 8> results;
          for (int64_t lane = 0, e = runs.front().size(); lane < e; ++lane)
            results.push_back(emitElementwise(
                emitter.getBuilder(), emitter.getLoc(),
                *getElementwiseKind(&inner),
                llvm::map_to_vector(
                    inner.getOperands(),
                    [&](Value v) { return values.lookup(v)[lane]; }),
                factor ? factor.getValueAsDouble() : 0.0));
          values[inner.getResult(0)] = SmallVector<Value, 8>(
              emitter.roundTo(results, inner.getResult(0).getType()));
        }
        SmallVector<SmallVector<Value, 8>, 2> yielded;
        for (Value v : body.getTerminator()->getOperands())
          yielded.push_back(values.lookup(v));
        return yielded;
      });
  return success();
}

void lowering::populateElementwiseLowerings(BlockLowerings &lowerings) {
  lowerings.addElementwise([](GraphDefLowering &l, Operation *op) {
    l.lowerElementwise(op, getElementwiseScalar(op));
    return success();
  });
  lowerings.add<block::ConcatOp>([](GraphDefLowering &l, Operation *op) {
    l.lowerConcat(cast<block::ConcatOp>(op));
    return success();
  });
  lowerings.add<block::ThreadGraphOp>([](GraphDefLowering &l, Operation *op) {
    return l.lowerThreadGraph(cast<block::ThreadGraphOp>(op));
  });
}
