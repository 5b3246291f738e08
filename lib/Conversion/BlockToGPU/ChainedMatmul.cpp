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
                                   bool rowSums)
    : ChainShape(intermediateShape, columns, numThreads, rowSums),
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
             ValueRange registers);
  /// The lhs fragments of the strip of `round`, one per step of `depth`.
  SmallVector<SmallVector<Value, 4>> loadLhs(const Tile &lhs, int64_t round);
  void finishProduct(ValueRange registers, const Tile &out);
  void finishRowSums(ValueRange registers, const Tile &out);

private:
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
  /// The registers of round `round`'s product tiles and row sums.
  int64_t getProductBase(int64_t round) const {
    return round * chain.getProductRegisters();
  }
  int64_t getRowSumBase(int64_t round) const {
    return chain.stripsPerWarp * chain.getProductRegisters() + 2 * round;
  }
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
  stripGrid.push_back(rows / kTileM);
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

SmallVector<Value> ChainEmitter::accumulate(
    const Tile &lhs, const Tile &rhs, const Tile &productRhs,
    function_ref<SmallVector<Value>(ValueRange)> intermediate,
    ValueRange registers) {
  SmallVector<Value> next(registers);
  auto narrow = [&](Value value) -> Value {
    return arith::TruncFOp::create(builder, loc, chain.intermediateType, value);
  };
  auto addF = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(builder, loc, x, y);
  };
  SmallVector<Value, 4> zeros(4, emitter.f32(0.0));
  for (int64_t round = 0; round < chain.stripsPerWarp; ++round) {
    Strip strip = getStrip(round);
    // The lhs fragments of the strip's rows of A, for every step of `depth`.
    SmallVector<SmallVector<Value, 4>> lhsSteps =
        chain.lhsFragments.empty() ? loadLhs(lhs, round)
                                   : chain.lhsFragments[round];
    Value firstKey = mul(strip.slice, keysPerSlice);
    for (int64_t step = 0; step < keysPerSlice; step += kTileK) {
      Value key = add(firstKey, step);
      // E's two 8-column tiles from `key`: c0..c3 of each, their B
      // fragments loaded together.
      first.setTile(strip.batch, strip.firstRow, key);
      SmallVector<SmallVector<Value, 4>, 2> e(2, zeros);
      for (auto [k, a] : llvm::enumerate(lhsSteps)) {
        SmallVector<Value, 4> b = first.loadRhsTiles(rhs, index(k * kTileK));
        for (int64_t half = 0; half < 2; ++half)
          e[half] = first.mma(a, ArrayRef(b).slice(2 * half, 2), e[half]);
      }
      for (SmallVector<Value, 4> &sums : e)
        sums.assign(intermediate(sums));
      // Rows g (c0, c1) and g + 8 (c2, c3) of both tiles into the row sums.
      if (chain.rowSums) {
        for (int64_t half = 0; half < 2; ++half) {
          Value &rowSum = next[getRowSumBase(round) + half];
          int64_t c = 2 * half;
          rowSum = addF(rowSum, addF(addF(e[0][c], e[0][c + 1]),
                                     addF(e[1][c], e[1][c + 1])));
        }
      }
      // The tiles' accumulator fragments are the lhs fragment of E's step.
      SmallVector<Value, 4> a;
      for (int64_t tile = 0; tile < 2; ++tile)
        for (int64_t half = 0; half < 2; ++half)
          a.push_back(second.pack(narrow(e[tile][2 * half]),
                                  narrow(e[tile][2 * half + 1])));
      // The product's column tiles, two at a time (B fragments of both in
      // one load), the last alone if their count is odd.
      for (int64_t column = 0; column < columnTiles; column += 2) {
        second.setTile(strip.batch, strip.firstRow, index(column * kTileN));
        int64_t count = std::min<int64_t>(2, columnTiles - column);
        SmallVector<Value, 4> b =
            count == 2 ? second.loadRhsTiles(productRhs, key)
                       : SmallVector<Value, 4>(second.loadRhs(productRhs, key));
        for (int64_t tile = 0; tile < count; ++tile) {
          auto sums = MutableArrayRef<Value>(next).slice(
              getProductBase(round) + 4 * (column + tile), 4);
          SmallVector<Value, 4> updated =
              second.mma(a, ArrayRef(b).slice(2 * tile, 2), sums);
          llvm::copy(updated, sums.begin());
        }
      }
    }
  }
  return next;
}

void ChainEmitter::finishProduct(ValueRange registers, const Tile &out) {
  int64_t tiles = chain.strips * columnTiles;
  storeResults(emitter, second, out, [&](auto store) {
    for (int64_t round = 0; round < chain.stripsPerWarp; ++round) {
      Strip strip = getStrip(round);
      Value firstItem =
          add(mul(strip.slice, tiles), mul(strip.index, columnTiles));
      for (int64_t column = 0; column < columnTiles; ++column)
        store(add(firstItem, column),
              registers.slice(getProductBase(round) + 4 * column, 4));
    }
  });
}

void ChainEmitter::finishRowSums(ValueRange registers, const Tile &out) {
  // With slices, each warp's partial sums, added in slice order below.
  std::optional<Tile> partials;
  if (chain.slices != 1) {
    SmallVector<int64_t, 4> partialShape = {chain.slices};
    llvm::append_range(partialShape, out.shape);
    partials = emitter.allocateShared(partialShape, builder.getF32Type());
  }
  for (int64_t round = 0; round < chain.stripsPerWarp; ++round) {
    Strip strip = getStrip(round);
    SmallVector<Value, 2> sums;
    for (int64_t half = 0; half < 2; ++half)
      sums.push_back(emitter.warpSum(registers[getRowSumBase(round) + half],
                                     /*lanes=*/4));
    ifQuadLeader([&] {
      for (int64_t half = 0; half < 2; ++half) {
        SmallVector<Value, 5> c;
        if (partials)
          c.push_back(strip.slice);
        llvm::append_range(c, strip.batch);
        c.append({add(add(strip.firstRow, group), half * 8), index(0)});
        emitter.store(partials ? *partials : out, c, sums[half]);
      }
    });
  }
  emitter.barrier();
  if (!partials)
    return;
  emitter.forEachElement(out.shape, [&](ValueRange c) {
    Value sum;
    for (int64_t slice = 0; slice < chain.slices; ++slice) {
      SmallVector<Value, 5> pc = {index(slice)};
      llvm::append_range(pc, c);
      Value partial = emitter.load(*partials, pc);
      sum = sum ? arith::AddFOp::create(builder, loc, sum, partial) : partial;
    }
    emitter.store(out, c, sum);
  });
}

SmallVector<Value> ChainedMatmulSum::accumulate(
    KernelEmitter &emitter, const Tile &lhs, const Tile &rhs,
    const Tile &productRhs,
    function_ref<SmallVector<Value>(ValueRange sums)> intermediate,
    ValueRange registers) const {
  return ChainEmitter(emitter, *this)
      .accumulate(lhs, rhs, productRhs, intermediate, registers);
}

void ChainedMatmulSum::preloadLhs(KernelEmitter &emitter, const Tile &lhs) {
  ChainEmitter chain(emitter, *this);
  lhsFragments.clear();
  for (int64_t round = 0; round < stripsPerWarp; ++round)
    lhsFragments.push_back(chain.loadLhs(lhs, round));
}

void ChainedMatmulSum::finishProduct(KernelEmitter &emitter,
                                     ValueRange registers,
                                     const Tile &out) const {
  ChainEmitter(emitter, *this).finishProduct(registers, out);
}

void ChainedMatmulSum::finishRowSums(KernelEmitter &emitter,
                                     ValueRange registers,
                                     const Tile &out) const {
  assert(rowSums && "the chain keeps no row sums");
  ChainEmitter(emitter, *this).finishRowSums(registers, out);
}
