//===- ChainedMatmul.cpp - Two matmuls chained in registers ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ChainedMatmul.h"
#include "WarpItems.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mirage;

ChainedMatmulSum::ChainedMatmulSum(ArrayRef<int64_t> intermediateShape,
                                   Type intermediateType, int64_t depth,
                                   int64_t columns, int64_t numThreads,
                                   bool rowSums, bool runningMax)
    : ChainShape(intermediateShape, columns, numThreads, rowSums, runningMax),
      intermediateShape(intermediateShape), intermediateType(intermediateType),
      depth(depth) {}

namespace mlir::mirage {

/// Emits the code of a ChainedMatmulSum: this lane's strips and fragments.
class ChainEmitter : IndexArithmetic {
public:
  ChainEmitter(KernelEmitter &emitter, const ChainedMatmulSum &chain)
      : IndexArithmetic(emitter), chain(chain), shape(chain.intermediateShape),
        batchShape(shape.begin(), shape.end() - 2),
        rows(shape[shape.size() - 2]), keys(shape.back()),
        keysPerSlice(keys / chain.slices), columnTiles(chain.columns / kTileN),
        first(emitter, shape, chain.depth, 1),
        second(emitter, getProductShape(), keys, chain.slices) {
    Value lane = rem(emitter.getThreadId(), kWarpSize);
    group = div(lane, 4);
    isQuadLeader = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         rem(lane, 4), index(0));
  }

  SmallVector<Value>
  accumulate(const Tile &lhs, const Tile &rhs, const Tile &productRhs,
             function_ref<SmallVector<Value>(ValueRange)> intermediate,
             function_ref<SmallVector<Value>(ValueRange, ValueRange)> shift,
             ValueRange registers);
  /// The lhs fragments of the strip of `round`, one per step of `depth`.
  SmallVector<SmallVector<Value, 4>> loadLhs(const Tile &lhs, int64_t round);
  void finishMaxima(ValueRange registers, const Tile &out);
  void finishProduct(ValueRange registers, const Tile &out, const Tile *maxima);
  void finishRowSums(ValueRange registers, const Tile &out, const Tile *maxima);

private:
  /// The f32 values of E's (or T's) two 8-column tiles from `key` (c0..c3
  /// of each).
  using TilePair = SmallVector<SmallVector<Value, 4>, 2>;
  /// One strip of this warp: its batch coordinates, first row and slice.
  struct Strip {
    SmallVector<Value, 2> batch;
    Value firstRow, slice;
    /// Its index among the block's strips.
    Value index;
  };
  SmallVector<int64_t, 4> getProductShape() const {
    SmallVector<int64_t, 4> productShape(batchShape);
    productShape.append({rows, chain.columns});
    return productShape;
  }
  /// This warp's strip of round `round`.
  Strip getStrip(int64_t round);
  /// E's (or T's) tiles at `key` of `strip`: `intermediate` of the sums
  /// of the lhs fragments `lhsSteps` by `rhs`.
  TilePair
  computeTiles(const Strip &strip, ArrayRef<SmallVector<Value, 4>> lhsSteps,
               const Tile &rhs, Value key,
               function_ref<SmallVector<Value>(ValueRange)> intermediate);
  /// Adds E's tiles `e` at `key` into the row sums of round `round` and,
  /// as the lhs fragment of one step by `productRhs`, into its product.
  void addStep(int64_t round, const Strip &strip, const Tile &productRhs,
               Value key, const TilePair &e, MutableArrayRef<Value> registers);
  /// Multiplies the product and row sums of round `round` by `factors`
  /// (rows g and g + 8).
  void scaleRound(int64_t round, ArrayRef<Value> factors,
                  MutableArrayRef<Value> registers);
  /// The registers with each round's sums rescaled from its slice's maxima
  /// to the block's, `maxima` (unchanged with one slice or no maxima).
  SmallVector<Value> rescaleToBlock(ValueRange registers, const Tile *maxima);
  /// Row `g + 8 * half` of `strip`, which is past E's last row in a strip
  /// of fewer than 16 rows.
  Value getRow(const Strip &strip, int64_t half) {
    return add(add(strip.firstRow, group), half * 8);
  }
  /// The coordinates of row `row` of `strip` in a tile of rows (batch
  /// dimensions, rows, 1), after `slice` if given.
  SmallVector<Value, 5> rowCoordinates(const Strip &strip, Value row,
                                       Value slice = Value());
  /// Writes, by each quad's first lane, the values of each round's rows
  /// (`valuesOf(round, half)`) into `out` (batch dimensions, rows, 1), or
  /// with several slices each slice's into partials that one thread per
  /// row then combines in slice order; then synchronises the block.
  void storeRows(function_ref<Value(int64_t round, int64_t half)> valuesOf,
                 const Tile &out, KernelEmitter::Combine combine);
  /// Emits `body` where this lane is the first of its quad (the 4 lanes that
  /// hold one row's columns).
  void ifQuadLeader(function_ref<void()> body);

  const ChainedMatmulSum &chain;
  SmallVector<int64_t, 4> shape, batchShape;
  int64_t rows, keys, keysPerSlice, columnTiles;
  /// The fragments of `A x B` and of `E x C`.
  WarpItems first, second;
  /// g of the fragment layouts, and whether this lane's t is 0.
  Value group, isQuadLeader;
};

} // namespace mlir::mirage

ChainEmitter::Strip ChainEmitter::getStrip(int64_t round) {
  Value pair = add(first.getWarp(), round * chain.warps);
  Strip strip;
  strip.index = chain.slices == 1 ? pair : rem(pair, chain.strips);
  strip.slice = chain.slices == 1 ? index(0) : div(pair, chain.strips);
  SmallVector<int64_t, 4> stripGrid(batchShape);
  stripGrid.push_back(llvm::divideCeil(rows, kTileM));
  SmallVector<Value, 4> coords = emitter.delinearize(strip.index, stripGrid);
  strip.batch.assign(coords.begin(), coords.end() - 1);
  strip.firstRow = mul(coords.back(), kTileM);
  return strip;
}

SmallVector<SmallVector<Value, 4>> ChainEmitter::loadLhs(const Tile &lhs,
                                                         int64_t round) {
  Strip strip = getStrip(round);
  first.setTile(strip.batch, strip.firstRow, Value());
  SmallVector<SmallVector<Value, 4>> steps;
  for (int64_t k = 0; k < chain.depth; k += kTileK)
    steps.push_back(first.loadLhs(lhs, index(k)));
  return steps;
}

void ChainEmitter::ifQuadLeader(function_ref<void()> body) {
  auto guarded = scf::IfOp::create(builder, loc, isQuadLeader);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(guarded.thenBlock()->getTerminator());
  body();
}

ChainEmitter::TilePair ChainEmitter::computeTiles(
    const Strip &strip, ArrayRef<SmallVector<Value, 4>> lhsSteps,
    const Tile &rhs, Value key,
    function_ref<SmallVector<Value>(ValueRange)> intermediate) {
  // E's two 8-column tiles from `key`: c0..c3 of each, their B fragments
  // loaded together.
  first.setTile(strip.batch, strip.firstRow, key);
  TilePair e(2, SmallVector<Value, 4>(4, emitter.f32(0.0)));
  for (auto [k, a] : llvm::enumerate(lhsSteps)) {
    SmallVector<Value, 4> b = first.loadRhsTiles(rhs, index(k * kTileK));
    for (int64_t half = 0; half < 2; ++half)
      e[half] = first.mma(a, ArrayRef(b).slice(2 * half, 2), e[half]);
  }
  for (SmallVector<Value, 4> &sums : e)
    sums.assign(intermediate(sums));
  return e;
}

void ChainEmitter::addStep(int64_t round, const Strip &strip,
                           const Tile &productRhs, Value key, const TilePair &e,
                           MutableArrayRef<Value> registers) {
  auto addF = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(builder, loc, x, y);
  };
  // Rows g (c0, c1) and g + 8 (c2, c3) of both tiles into the row sums.
  if (chain.rowSums) {
    for (int64_t half = 0; half < 2; ++half) {
      Value &rowSum = registers[chain.getRowSumBase(round) + half];
      int64_t c = 2 * half;
      rowSum = addF(
          rowSum, addF(addF(e[0][c], e[0][c + 1]), addF(e[1][c], e[1][c + 1])));
    }
  }
  // The tiles' accumulator fragments are the lhs fragment of E's step.
  auto narrow = [&](Value value) -> Value {
    return arith::TruncFOp::create(builder, loc, chain.intermediateType, value);
  };
  SmallVector<Value, 4> a;
  for (int64_t tile = 0; tile < 2; ++tile)
    for (int64_t half = 0; half < 2; ++half)
      a.push_back(second.pack(narrow(e[tile][2 * half]),
                              narrow(e[tile][2 * half + 1])));
  // The product's column tiles, two at a time (B fragments of both in one
  // load), the last alone if their count is odd.
  for (int64_t column = 0; column < columnTiles; column += 2) {
    second.setTile(strip.batch, strip.firstRow, index(column * kTileN));
    int64_t count = std::min<int64_t>(2, columnTiles - column);
    SmallVector<Value, 4> b =
        count == 2 ? second.loadRhsTiles(productRhs, key)
                   : SmallVector<Value, 4>(second.loadRhs(productRhs, key));
    for (int64_t tile = 0; tile < count; ++tile) {
      auto sums =
          registers.slice(chain.getProductBase(round) + 4 * (column + tile), 4);
      SmallVector<Value, 4> updated =
          second.mma(a, ArrayRef(b).slice(2 * tile, 2), sums);
      llvm::copy(updated, sums.begin());
    }
  }
}

void ChainEmitter::scaleRound(int64_t round, ArrayRef<Value> factors,
                              MutableArrayRef<Value> registers) {
  auto scale = [&](Value &value, int64_t half) {
    value = arith::MulFOp::create(builder, loc, value, factors[half]);
  };
  for (int64_t column = 0; column < columnTiles; ++column)
    for (int64_t c = 0; c < 4; ++c)
      scale(registers[chain.getProductBase(round) + 4 * column + c], c / 2);
  if (chain.rowSums)
    for (int64_t half = 0; half < 2; ++half)
      scale(registers[chain.getRowSumBase(round) + half], half);
}

SmallVector<Value> ChainEmitter::accumulate(
    const Tile &lhs, const Tile &rhs, const Tile &productRhs,
    function_ref<SmallVector<Value>(ValueRange)> intermediate,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> shift,
    ValueRange registers) {
  SmallVector<Value> next(registers);
  for (int64_t round = 0; round < chain.stripsPerWarp; ++round) {
    Strip strip = getStrip(round);
    // The lhs fragments of the strip's rows of A, for every step of `depth`.
    SmallVector<SmallVector<Value, 4>> lhsSteps =
        chain.lhsFragments.empty() ? loadLhs(lhs, round)
                                   : chain.lhsFragments[round];
    Value firstKey = mul(strip.slice, keysPerSlice);
    if (!shift) {
      for (int64_t step = 0; step < keysPerSlice; step += kTileK) {
        Value key = add(firstKey, step);
        addStep(round, strip, productRhs, key,
                computeTiles(strip, lhsSteps, rhs, key, intermediate), next);
      }
      continue;
    }
    // Every score of the slice first: the maxima rise to their rows'.
    SmallVector<TilePair> scores;
    for (int64_t step = 0; step < keysPerSlice; step += kTileK)
      scores.push_back(computeTiles(strip, lhsSteps, rhs, add(firstKey, step),
                                    intermediate));
    SmallVector<Value, 2> maxima, factors;
    for (int64_t half = 0; half < 2; ++half) {
      SmallVector<Value> row;
      for (const TilePair &tiles : scores)
        for (const SmallVector<Value, 4> &tile : tiles)
          row.append({tile[2 * half], tile[2 * half + 1]});
      Value rowMax = emitter.warpCombine(
          emitter.combinePairwise(row, KernelEmitter::Combine::Max),
          /*lanes=*/4, KernelEmitter::Combine::Max);
      Value &max = next[chain.getMaxBase(round) + half];
      Value old = max;
      max = arith::MaximumFOp::create(builder, loc, old, rowMax);
      // exp(-inf) is 0: the first iteration scales the zero sums by 0.
      factors.push_back(emitExpOfDifference(builder, loc, old, max));
      maxima.push_back(max);
    }
    scaleRound(round, factors, next);
    SmallVector<Value, 4> rowMaxima = {maxima[0], maxima[0], maxima[1],
                                       maxima[1]};
    for (auto [i, tiles] : llvm::enumerate(scores)) {
      for (SmallVector<Value, 4> &tile : tiles)
        tile.assign(shift(tile, rowMaxima));
      addStep(round, strip, productRhs, add(firstKey, int64_t(i) * kTileK),
              tiles, next);
    }
  }
  return next;
}

SmallVector<Value, 5> ChainEmitter::rowCoordinates(const Strip &strip,
                                                   Value row, Value slice) {
  SmallVector<Value, 5> c;
  if (slice)
    c.push_back(slice);
  llvm::append_range(c, strip.batch);
  c.append({row, index(0)});
  return c;
}

SmallVector<Value> ChainEmitter::rescaleToBlock(ValueRange registers,
                                                const Tile *maxima) {
  SmallVector<Value> scaled(registers);
  if (!maxima || chain.slices == 1)
    return scaled;
  for (int64_t round = 0; round < chain.stripsPerWarp; ++round) {
    Strip strip = getStrip(round);
    SmallVector<Value, 2> factors;
    for (int64_t half = 0; half < 2; ++half) {
      // In a strip of fewer than 16 rows, a row past the end takes the
      // last row's factor (its sums are dropped).
      Value row = getRow(strip, half);
      if (rows % kTileM != 0)
        row = arith::MinUIOp::create(builder, loc, row, index(rows - 1));
      factors.push_back(emitExpOfDifference(
          builder, loc, scaled[chain.getMaxBase(round) + half],
          emitter.load(*maxima, rowCoordinates(strip, row))));
    }
    scaleRound(round, factors, scaled);
  }
  return scaled;
}

void ChainEmitter::finishProduct(ValueRange registers, const Tile &out,
                                 const Tile *maxima) {
  SmallVector<Value> sums = rescaleToBlock(registers, maxima);
  int64_t tiles = chain.strips * columnTiles;
  storeResults(emitter, second, out, [&](auto store) {
    for (int64_t round = 0; round < chain.stripsPerWarp; ++round) {
      Strip strip = getStrip(round);
      Value firstItem =
          add(mul(strip.slice, tiles), mul(strip.index, columnTiles));
      for (int64_t column = 0; column < columnTiles; ++column)
        store(
            add(firstItem, column),
            ArrayRef(sums).slice(chain.getProductBase(round) + 4 * column, 4));
    }
  });
}

void ChainEmitter::storeRows(
    function_ref<Value(int64_t round, int64_t half)> valuesOf, const Tile &out,
    KernelEmitter::Combine combine) {
  // With slices, each warp's partial values, combined in slice order below.
  std::optional<Tile> partials;
  if (chain.slices != 1) {
    SmallVector<int64_t, 4> partialShape = {chain.slices};
    llvm::append_range(partialShape, out.shape);
    partials = emitter.allocateShared(partialShape, builder.getF32Type());
  }
  for (int64_t round = 0; round < chain.stripsPerWarp; ++round) {
    Strip strip = getStrip(round);
    SmallVector<Value, 2> values = {valuesOf(round, 0), valuesOf(round, 1)};
    ifQuadLeader([&] {
      for (int64_t half = 0; half < 2; ++half) {
        Value row = getRow(strip, half);
        // Rows past the end of a strip of fewer than 16 rows are dropped.
        std::optional<OpBuilder::InsertionGuard> guard;
        if (rows % kTileM != 0) {
          Value inside = arith::CmpIOp::create(
              builder, loc, arith::CmpIPredicate::ult, row, index(rows));
          auto guarded = scf::IfOp::create(builder, loc, inside);
          guard.emplace(builder);
          builder.setInsertionPoint(guarded.thenBlock()->getTerminator());
        }
        emitter.store(
            partials ? *partials : out,
            rowCoordinates(strip, row, partials ? strip.slice : Value()),
            values[half]);
      }
    });
  }
  emitter.barrier();
  if (!partials)
    return;
  emitter.forEachElement(out.shape, [&](ValueRange c) {
    Value result;
    for (int64_t slice = 0; slice < chain.slices; ++slice) {
      SmallVector<Value, 5> pc = {index(slice)};
      llvm::append_range(pc, c);
      Value partial = emitter.load(*partials, pc);
      result = result ? emitter.combine(result, partial, combine) : partial;
    }
    emitter.store(out, c, result);
  });
  emitter.barrier();
}

void ChainEmitter::finishMaxima(ValueRange registers, const Tile &out) {
  storeRows(
      [&](int64_t round, int64_t half) {
        return registers[chain.getMaxBase(round) + half];
      },
      out, KernelEmitter::Combine::Max);
}

void ChainEmitter::finishRowSums(ValueRange registers, const Tile &out,
                                 const Tile *maxima) {
  SmallVector<Value> sums = rescaleToBlock(registers, maxima);
  storeRows(
      [&](int64_t round, int64_t half) {
        return emitter.warpSum(sums[chain.getRowSumBase(round) + half],
                               /*lanes=*/4);
      },
      out, KernelEmitter::Combine::Add);
}

SmallVector<Value>
ChainedMatmulSum::getInitialRegisters(KernelEmitter &emitter) const {
  SmallVector<Value> registers(getNumRegisters(), emitter.f32(0.0));
  if (runningMax)
    std::fill_n(registers.begin() + getMaxBase(0), 2 * stripsPerWarp,
                emitter.f32(-std::numeric_limits<double>::infinity()));
  return registers;
}

SmallVector<Value> ChainedMatmulSum::accumulate(
    KernelEmitter &emitter, const Tile &lhs, const Tile &rhs,
    const Tile &productRhs,
    function_ref<SmallVector<Value>(ValueRange sums)> intermediate,
    function_ref<SmallVector<Value>(ValueRange scores, ValueRange maxima)>
        shift,
    ValueRange registers) const {
  assert(bool(shift) == runningMax && "a running maximum needs its shift");
  return ChainEmitter(emitter, *this)
      .accumulate(lhs, rhs, productRhs, intermediate, shift, registers);
}

void ChainedMatmulSum::preloadLhs(KernelEmitter &emitter, const Tile &lhs) {
  ChainEmitter chain(emitter, *this);
  lhsFragments.clear();
  for (int64_t round = 0; round < stripsPerWarp; ++round)
    lhsFragments.push_back(chain.loadLhs(lhs, round));
}

void ChainedMatmulSum::finishMaxima(KernelEmitter &emitter,
                                    ValueRange registers,
                                    const Tile &out) const {
  assert(runningMax && "the chain keeps no maxima");
  ChainEmitter(emitter, *this).finishMaxima(registers, out);
}

void ChainedMatmulSum::finishProduct(KernelEmitter &emitter,
                                     ValueRange registers, const Tile &out,
                                     const Tile *maxima) const {
  ChainEmitter(emitter, *this).finishProduct(registers, out, maxima);
}

void ChainedMatmulSum::finishRowSums(KernelEmitter &emitter,
                                     ValueRange registers, const Tile &out,
                                     const Tile *maxima) const {
  assert(rowSums && "the chain keeps no row sums");
  ChainEmitter(emitter, *this).finishRowSums(registers, out, maxima);
}
