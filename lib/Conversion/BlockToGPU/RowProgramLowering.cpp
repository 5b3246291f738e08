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
// once per sum, maximum or rms_norm (rows wider than a warp) or never. A row
// program's for-loop is unrolled and its sums stay in registers: a split
// µGraph's combining kernel loops over the parts without a barrier.
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

  /// Whether `value` is R-shaped: one value per row.
  bool isPerRow(Value value) const {
    return getShape(value) == ArrayRef<int64_t>(perRowShape);
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
  /// The row's value of `tile` (R-shaped), in every thread of the row.
  Value loadRowValue(const Tile &tile) {
    return emitter.load(tile, emitter.delinearize(row, perRowShape));
  }
  /// The whole row of `tile` (a W tile: R's shape with a longer last
  /// dimension), in every thread of the row.
  SmallVector<Value> loadWholeRow(const Tile &tile) {
    SmallVector<Value> values;
    SmallVector<Value, 4> coords = emitter.delinearize(row, perRowShape);
    for (int64_t i = 0; i < tile.shape.back(); ++i) {
      coords.back() = index(i);
      values.push_back(emitter.load(tile, coords));
    }
    return values;
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
  // Threads past the rows' (RegisterRows::lanes fewer than the block's
  // threads per row) skip the program.
  OpBuilder::InsertionGuard guard(b);
  int64_t active = rows.lanes * (getNumElements(shape) / shape.back());
  if (active < emitter.getNumThreads()) {
    auto inRows = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                              emitter.getThreadId(), emitter.index(active)));
    b.setInsertionPoint(inRows.thenBlock()->getTerminator());
  }
  // The values of row-shaped tiles (this thread's runs) and of per-row ones;
  // a W tile's whole row is held like an S tile's runs.
  DenseMap<Value, SmallVector<Value>> held;
  DenseMap<Value, Value> perRow;
  // Elementwise: per-row operands broadcast along the row.
  auto emitElementwiseOp = [&](Operation &op) {
    double scalar = getElementwiseScalar(&op);
    ElementwiseKind kind = *getElementwiseKind(&op);
    Value result = op.getResult(0);
    // A thread graph's ops compute scalars.
    Type type = isa<FloatType>(result.getType()) ? result.getType()
                                                 : getElementType(result);
    bool perRowResult = llvm::none_of(
        op.getOperands(), [&](Value v) { return held.contains(v); });
    // A row divided by its row's value is multiplied by the value's
    // reciprocal, taken once: div.approx.f32 is that product (within 2
    // ulp either way), at one reciprocal per row instead of one per
    // element, which share the special-function unit with exp's ex2.
    DenseMap<Value, Value> rowOperands;
    if (kind == ElementwiseKind::Div && !perRowResult &&
        !held.contains(op.getOperand(1))) {
      rowOperands[op.getOperand(1)] =
          emitDivide(b, loc, emitter.f32(1.0), perRow.lookup(op.getOperand(1)));
      kind = ElementwiseKind::Mul;
    }
    auto operandAt = [&](Value operand, int64_t i) {
      if (Value row = rowOperands.lookup(operand))
        return row;
      auto values = held.find(operand);
      return values == held.end() ? perRow.lookup(operand) : values->second[i];
    };
    SmallVector<Value> values;
    for (int64_t i = 0, e = perRowResult ? 1 : rows.runsPerThread * rows.width;
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
  };
  // The sum (or maximum) of the row whose runs this thread holds `values`
  // of; a row wider than a warp adds one f32 per warp in shared memory.
  auto combineRow = [&](ArrayRef<Value> values,
                        KernelEmitter::Combine combine) {
    std::optional<Tile> partials;
    if (rows.lanes > kWarpSize)
      partials = emitter.allocateShared({emitter.getNumThreads() / kWarpSize},
                                        b.getF32Type());
    return program.combineRow(values, partials ? &*partials : nullptr, combine);
  };
  // Binds `to` to the values of `from`.
  auto alias = [&](Value to, Value from) {
    if (auto values = held.find(from); values != held.end())
      held[to] = values->second;
    else
      perRow[to] = perRow.lookup(from);
  };
  auto emit = [&](Operation &op, Value iteration) {
    if (auto loader = dyn_cast<block::InputLoaderOp>(op)) {
      Tile tile = getLoaderTile(loader, iteration);
      Value result = loader.getResult();
      if (getShape(result) == shape)
        held[result] = program.load(tile);
      else if (program.isPerRow(result))
        perRow[result] = program.loadRowValue(tile);
      else
        held[result] = program.loadWholeRow(tile);
    } else if (auto saver = dyn_cast<block::OutputSaverOp>(op)) {
      Tile out = getSavedTile(saver);
      if (held.contains(saver.getInput()))
        program.store(out, held[saver.getInput()]);
      else
        program.storeRowValue(out, perRow.lookup(saver.getInput()));
    } else if (isa<block::ReductionOp, block::ReductionMaxOp>(op)) {
      auto combine = isa<block::ReductionMaxOp>(op)
                         ? KernelEmitter::Combine::Max
                         : KernelEmitter::Combine::Add;
      ArrayRef<Value> values = held[op.getOperand(0)];
      // A W row is whole in this thread.
      Value row = getShape(op.getOperand(0)) != shape
                      ? emitter.combinePairwise(values, combine)
                      : combineRow(values, combine);
      perRow[op.getResult(0)] =
          emitter.roundTo(row, getElementType(op.getResult(0)));
    } else if (auto norm = dyn_cast<block::RmsNormOp>(op)) {
      // A row divided by the root mean square of its elements (its squares
      // added as a row's sum).
      ArrayRef<Value> values = held[norm.getInput()];
      SmallVector<Value> squares;
      for (Value x : values)
        squares.push_back(arith::MulFOp::create(b, loc, x, x));
      Value factor = emitRmsFactor(
          b, loc, combineRow(squares, KernelEmitter::Combine::Add),
          norm.getSize(), norm.getEps().convertToDouble());
      SmallVector<Value> results;
      for (Value x : values)
        results.push_back(arith::MulFOp::create(b, loc, x, factor));
      held[norm.getResult()] =
          emitter.roundTo(results, getElementType(norm.getResult()));
    } else if (auto threads = dyn_cast<block::ThreadGraphOp>(op)) {
      Block &inner = threads.getBody().front();
      for (auto [argument, input] :
           llvm::zip_equal(inner.getArguments(), threads.getInputs()))
        alias(argument, input);
      for (Operation &innerOp : inner.without_terminator())
        emitElementwiseOp(innerOp);
      for (auto [result, yielded] : llvm::zip_equal(
               threads.getResults(), inner.getTerminator()->getOperands()))
        alias(result, yielded);
    } else {
      emitElementwiseOp(op);
    }
  };
  auto phaseOf = [&](Operation &op) { return schedule.phases.lookup(&op); };
  int64_t forloop = graph.getForloop();
  if (forloop == 1) {
    // Every load first, so that all are in flight at once.
    for (auto loader : body.getOps<block::InputLoaderOp>())
      emit(*loader, Value());
    for (Operation &op : body.without_terminator())
      if (!isa<block::InputLoaderOp>(op))
        emit(op, Value());
    return;
  }
  // The loop-invariant ops once, the loop's per iteration (unrolled), each
  // iteration's values added to the f32 sums, then the ops after the loop.
  auto accums = llvm::to_vector(body.getOps<block::ForloopAccumOp>());
  for (Operation &op : body.without_terminator())
    if (!isa<block::ForloopAccumOp>(op) && phaseOf(op) == LoopPhase::Invariant)
      emit(op, Value());
  DenseMap<Operation *, SmallVector<Value>> sums;
  for (int64_t i = 0; i < forloop; ++i) {
    for (Operation &op : body.without_terminator())
      if (!isa<block::ForloopAccumOp>(op) && phaseOf(op) == LoopPhase::InLoop)
        emit(op, emitter.index(i));
    for (block::ForloopAccumOp accum : accums) {
      Value input = accum.getInput();
      SmallVector<Value> values = held.contains(input)
                                      ? held[input]
                                      : SmallVector<Value>{perRow[input]};
      SmallVector<Value> &sum = sums[accum];
      if (sum.empty()) {
        sum = values;
        continue;
      }
      for (auto [total, value] : llvm::zip_equal(sum, values))
        total = arith::AddFOp::create(b, loc, total, value);
    }
  }
  for (block::ForloopAccumOp accum : accums) {
    Type type = getElementType(accum.getResult());
    SmallVector<Value> values = emitter.roundTo(sums[accum], type);
    if (held.contains(accum.getInput()))
      held[accum.getResult()] = values;
    else
      perRow[accum.getResult()] = values.front();
  }
  for (Operation &op : body.without_terminator())
    if (!isa<block::ForloopAccumOp>(op) && phaseOf(op) == LoopPhase::PostLoop)
      emit(op, Value());
}
