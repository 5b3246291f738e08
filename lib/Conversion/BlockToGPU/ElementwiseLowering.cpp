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
  emitElementwiseRuns(shape, operands, out,
                      [&](ArrayRef<Value> values) -> SmallVector<Value, 2> {
                        return {emitElementwise(emitter.getBuilder(),
                                                emitter.getLoc(), kind, values,
                                                scalar)};
                      });
}

void GraphDefLowering::emitElementwiseRuns(
    ArrayRef<int64_t> shape, ArrayRef<Tile> operands, ArrayRef<Tile> outs,
    function_ref<SmallVector<Value, 2>(ArrayRef<Value> values)> compute) {
  SmallVector<Type, 4> types;
  for (const Tile &tile : llvm::concat<const Tile>(operands, outs))
    types.push_back(tile.getStorageType());
  int64_t width = getRunWidth(shape, types);
  emitter.forEachRun(shape, width, [&](ValueRange c) {
    SmallVector<SmallVector<Value, 8>, 4> runs;
    for (const Tile &operand : operands)
      runs.push_back(emitter.loadBroadcastRun(operand, shape, c, width));
    SmallVector<SmallVector<Value, 8>, 2> results(outs.size());
    for (int64_t l = 0; l < width; ++l) {
      SmallVector<Value, 4> values;
      for (ArrayRef<Value> run : runs)
        values.push_back(run[l]);
      for (auto [k, value] : llvm::enumerate(compute(values)))
        results[k].push_back(value);
    }
    for (auto [out, run] : llvm::zip(outs, results))
      emitter.storeVector(out, c, run);
  });
}

Value GraphDefLowering::emitUnary(Operation *op, Value operand) {
  double scalar = 0.0;
  if (auto mulScalar = dyn_cast<block::MulScalarOp>(op))
    scalar = mulScalar.getValue().convertToDouble();
  return emitElementwise(emitter.getBuilder(), emitter.getLoc(),
                         *getElementwiseKind(op), ValueRange{operand}, scalar);
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
  // Per element: the scalars of the body, in f32, rounded to their type
  // after every op.
  emitElementwiseRuns(
      shape, operands, outs,
      [&](ArrayRef<Value> values) -> SmallVector<Value, 2> {
        DenseMap<Value, Value> scalars;
        for (auto [arg, value] : llvm::zip(body.getArguments(), values))
          scalars[arg] = value;
        for (Operation &inner : body.without_terminator()) {
          SmallVector<Value, 2> innerValues;
          for (Value v : inner.getOperands())
            innerValues.push_back(scalars.lookup(v));
          auto factor = inner.getAttrOfType<FloatAttr>("value");
          Value result =
              emitElementwise(emitter.getBuilder(), emitter.getLoc(),
                              *getElementwiseKind(&inner), innerValues,
                              factor ? factor.getValueAsDouble() : 0.0);
          scalars[inner.getResult(0)] =
              emitter.roundTo(result, inner.getResult(0).getType());
        }
        SmallVector<Value, 2> yielded;
        for (Value v : body.getTerminator()->getOperands())
          yielded.push_back(scalars.lookup(v));
        return yielded;
      });
  return success();
}

void lowering::populateElementwiseLowerings(BlockLowerings &lowerings) {
  lowerings.add<block::MulScalarOp>([](GraphDefLowering &l, Operation *op) {
    l.lowerElementwise(
        op, cast<block::MulScalarOp>(op).getValue().convertToDouble());
    return success();
  });
  lowerings.addElementwise([](GraphDefLowering &l, Operation *op) {
    l.lowerElementwise(op, 0.0);
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
