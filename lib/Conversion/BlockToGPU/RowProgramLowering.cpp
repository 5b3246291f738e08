//===- RowProgramLowering.cpp - Bodies of rows held in registers ----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A row program (KernelSchedule::rowProgram) runs the whole body of its
// graph_def in registers: each thread holds the same runs of its row in
// every row-shaped tile and its row's value of every per-row tile, so a
// softmax reads its input once, keeps its exponentials, and synchronises
// once per sum or maximum (rows wider than a warp) or never.
//
//===----------------------------------------------------------------------===//

#include "GraphDefLowering.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::lowering;

namespace {

/// Emits the ops of a row program on this thread's registers.
class RowProgramEmitter : IndexArithmetic {
public:
  /// Rows of `shape` split over the threads as `rows` says.
  RowProgramEmitter(KernelEmitter &emitter, const RegisterRows &rows,
                    ArrayRef<int64_t> shape)
      : IndexArithmetic(emitter), rows(rows), shape(shape) {
    Value thread = emitter.getThreadId();
    lane = rem(thread, rows.lanes);
    row = div(thread, rows.lanes);
    perRowShape.assign(shape.begin(), shape.end());
    perRowShape.back() = 1;
  }

  /// The first element of this thread's run `j` (run `lane + j * lanes` of
  /// its row).
  SmallVector<Value, 4> getRunStart(int64_t j) {
    Value run = add(lane, j * rows.lanes);
    Value first = add(mul(row, shape.back()), mul(run, rows.width));
    return emitter.delinearize(first, shape);
  }
  /// This thread's runs of `tile`, one after the other.
  SmallVector<Value> load(const Tile &tile) {
    SmallVector<Value> values;
    for (int64_t j = 0; j < rows.runsPerThread; ++j)
      llvm::append_range(values,
                         emitter.loadVector(tile, getRunStart(j), rows.width));
    return values;
  }
  /// Stores this thread's runs `values` into `tile`.
  void store(const Tile &tile, ArrayRef<Value> values) {
    for (int64_t j = 0; j < rows.runsPerThread; ++j)
      emitter.storeVector(tile, getRunStart(j),
                          values.slice(j * rows.width, rows.width));
  }
  /// Stores the row's value `value` into `tile` (R-shaped) from its first
  /// thread.
  void storeRowValue(const Tile &tile, Value value) {
    auto first = scf::IfOp::create(
        builder, loc,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, lane,
                              index(0)));
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(first.thenBlock()->getTerminator());
    emitter.store(tile, emitter.delinearize(row, perRowShape), value);
  }
  /// The sum (or with `combine` Max, the maximum) of the row whose runs this
  /// thread holds `values` of, in every thread of the row; `partials` holds
  /// one f32 per warp when a row spans several warps.
  Value combineRow(ArrayRef<Value> values, const Tile *partials,
                   KernelEmitter::Combine combine) {
    return emitter.groupCombine(emitter.combinePairwise(values, combine),
                                rows.lanes, partials, combine);
  }

private:
  const RegisterRows &rows;
  ArrayRef<int64_t> shape;
  SmallVector<int64_t, 4> perRowShape;
  Value lane, row;
};

} // namespace

void GraphDefLowering::lowerRowProgram(const RegisterRows &rows) {
  Block &body = graph.getBodyBlock();
  ArrayRef<int64_t> shape =
      getShape((*body.getOps<block::InputLoaderOp>().begin()).getResult());
  RowProgramEmitter program(emitter, rows, shape);
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  // The values of row-shaped tiles (this thread's runs) and of per-row ones.
  DenseMap<Value, SmallVector<Value>> held;
  DenseMap<Value, Value> perRow;
  for (Operation &op : body.without_terminator()) {
    if (auto loader = dyn_cast<block::InputLoaderOp>(op)) {
      held[loader.getResult()] = program.load(getLoaderTile(loader, Value()));
    } else if (auto saver = dyn_cast<block::OutputSaverOp>(op)) {
      Tile out = getSavedTile(saver);
      if (held.contains(saver.getInput()))
        program.store(out, held[saver.getInput()]);
      else
        program.storeRowValue(out, perRow.lookup(saver.getInput()));
    } else if (isa<block::ReductionOp, block::ReductionMaxOp>(op)) {
      std::optional<Tile> partials;
      if (rows.lanes > kWarpSize)
        partials = emitter.allocateShared({emitter.getNumThreads() / kWarpSize},
                                          b.getF32Type());
      Value row = program.combineRow(
          held[op.getOperand(0)], partials ? &*partials : nullptr,
          isa<block::ReductionMaxOp>(op) ? KernelEmitter::Combine::Max
                                         : KernelEmitter::Combine::Add);
      perRow[op.getResult(0)] =
          emitter.roundTo(row, getElementType(op.getResult(0)));
    } else {
      // Elementwise: per-row operands broadcast along the row.
      double scalar = getElementwiseScalar(&op);
      ElementwiseKind kind = *getElementwiseKind(&op);
      Value result = op.getResult(0);
      Type type = getElementType(result);
      bool perRowResult = llvm::none_of(
          op.getOperands(), [&](Value v) { return held.contains(v); });
      // A row divided by its row's value is multiplied by the value's
      // reciprocal, taken once: div.approx.f32 is that product (within 2
      // ulp either way), at one reciprocal per row instead of one per
      // element, which share the special-function unit with exp's ex2.
      DenseMap<Value, Value> rowOperands;
      if (kind == ElementwiseKind::Div && !perRowResult &&
          !held.contains(op.getOperand(1))) {
        rowOperands[op.getOperand(1)] = emitDivide(
            b, loc, emitter.f32(1.0), perRow.lookup(op.getOperand(1)));
        kind = ElementwiseKind::Mul;
      }
      auto operandAt = [&](Value operand, int64_t i) {
        if (Value row = rowOperands.lookup(operand))
          return row;
        auto values = held.find(operand);
        return values == held.end() ? perRow.lookup(operand)
                                    : values->second[i];
      };
      SmallVector<Value> values;
      for (int64_t i = 0,
                   e = perRowResult ? 1 : rows.runsPerThread * rows.width;
           i < e; ++i)
        values.push_back(emitElementwise(
            b, loc, kind,
            llvm::map_to_vector(op.getOperands(),
                                [&](Value v) { return operandAt(v, i); }),
            scalar));
      if (perRowResult)
        perRow[result] = emitter.roundTo(values.front(), type);
      else
        held[result] = emitter.roundTo(values, type);
    }
  }
}
