//===- TensorCoreMatmul.cpp - mma.sync matmuls of a block -----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The fragments of `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`
// (PTX ISA, "Matrix Fragments for mma.m16n8k16"), for lane `l` of a warp,
// g = l / 4 and t = l % 4:
//   A (16x16, row): {a0,a1} = A[g][2t..2t+1], {a2,a3} = A[g+8][2t..2t+1],
//                   {a4,a5} = A[g][2t+8..], {a6,a7} = A[g+8][2t+8..];
//   B (16x8, col):  {b0,b1} = B[2t..2t+1][g], {b2,b3} = B[2t+8..2t+9][g];
//   C (16x8, f32):  {c0,c1} = C[g][2t..2t+1], {c2,c3} = C[g+8][2t..2t+1].
//
//===----------------------------------------------------------------------===//

#include "TensorCoreMatmul.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// The shape of one `mma.sync`.
constexpr int64_t kTileM = 16, kTileN = 8, kTileK = 16;
/// The most 16-element steps of the contracting dimension one iteration of a
/// warp's loop takes (unrolled, so that their loads are in flight together).
constexpr int64_t kMaxStepsPerIteration = 4;

/// The grid of 16x8 result tiles: batch dimensions, row tiles, column tiles.
SmallVector<int64_t, 4> getTileGrid(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> grid(shape.drop_back(2));
  grid.push_back(llvm::divideCeil(shape[shape.size() - 2], kTileM));
  grid.push_back(shape.back() / kTileN);
  return grid;
}

int64_t getNumElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

/// How many slices of the contracting dimension the warps split between
/// them: 1 when every warp has a tile, else the most (a power of two) that
/// keeps every warp to at most one (tile, slice) item and divides the
/// 16-element steps.
int64_t getSlices(int64_t tiles, int64_t warps, int64_t depth) {
  int64_t slices = 1;
  while (tiles * slices * 2 <= warps && (depth / kTileK) % (slices * 2) == 0)
    slices *= 2;
  return slices;
}

/// The work of the warps on a result of `shape`: item `i` is the 16x8 tile
/// `i % tiles` (column tiles fastest) over slice `i / tiles` of the
/// contracting dimension, and warp `w` takes items `w`, `w + warps`, ....
/// Emits this lane's fragment coordinates and the `mma.sync` steps of an
/// item.
class WarpItems : IndexArithmetic {
public:
  WarpItems(KernelEmitter &emitter, ArrayRef<int64_t> shape, int64_t depth)
      : IndexArithmetic(emitter), shape(shape), tileGrid(getTileGrid(shape)),
        tiles(getNumElements(tileGrid)),
        warps(emitter.getNumThreads() / kWarpSize),
        slices(getSlices(tiles, warps, depth)), depth(depth / slices),
        rows(shape[shape.size() - 2]) {
    Value threadId = emitter.getThreadId();
    lane = rem(threadId, kWarpSize);
    warp = div(threadId, kWarpSize);
    group = div(lane, 4);
    pairColumn = mul(rem(lane, 4), 2);
  }

  int64_t getNumItems() const { return tiles * slices; }
  int64_t getNumSlices() const { return slices; }
  int64_t getNumWarps() const { return warps; }
  /// This warp's first item.
  Value getWarp() const { return warp; }
  /// Emits `body(item)` for this warp's item of round `round`
  /// (emitItemOfRound).
  SmallVector<Value> forRound(int64_t round, ValueRange fallback,
                              function_ref<SmallVector<Value>(Value)> body) {
    return emitItemOfRound(emitter, warp, warps, getNumItems(), round,
                           fallback, body);
  }

  /// `sums` (c0..c3) plus the item's product of lhs and rhs over its slice.
  SmallVector<Value, 4> accumulate(Value item, const Tile &lhs,
                                   const Tile &rhs, ValueRange sums);
  /// Stores the item's f32 `sums`, rounded to the storage type of `out`,
  /// into `out`: the result itself (one slice) or the partial sums
  /// `[slices, shape...]`.
  void store(Value item, ValueRange sums, const Tile &out);
  /// Emits a loop running `body` on every item of this warp.
  void forEachItem(function_ref<void(Value item)> body);

private:
  /// Sets slice, batch, tileRow and tileColumn for `item`.
  void decode(Value item);
  /// True when every row of the upper (rows 0-7) or lower (rows 8-15) half
  /// of every row tile is inside the result.
  bool isAlwaysInside(bool lowerHalf) const {
    int64_t tail = rows % kTileM;
    return tail == 0 || (!lowerHalf && tail >= kTileM / 2);
  }
  /// `{lo, hi}` as a vector<2xf16>.
  Value pack(Value lo, Value hi);
  /// A register of zeros, for rows past the end.
  Value zeroPair() {
    return arith::ConstantOp::create(
        builder, loc,
        builder.getZeroAttr(VectorType::get({2}, builder.getF16Type())));
  }
  /// The A register of row `row` and columns `column`, `column + 1` of lhs
  /// (zeros for a row past the end); `lowerHalf`: `row` is in rows 8-15 of
  /// its tile.
  Value loadLhsPair(const Tile &lhs, Value row, bool lowerHalf, Value column);
  /// The B register of rows `row`, `row + 1` and column `column` of rhs.
  Value loadRhsPair(const Tile &rhs, Value row, Value column);
  /// Adds the product of the 16-column slice of lhs from `k` and the
  /// 16-row slice of rhs from `k` to `sums` (c0..c3).
  SmallVector<Value, 4> step(const Tile &lhs, const Tile &rhs, Value k,
                             ValueRange sums);

  SmallVector<int64_t, 4> shape, tileGrid;
  int64_t tiles, warps, slices, depth, rows;
  /// Whether ldmatrix can read the fragments of `tile`: rows of 8 elements
  /// at 16-byte aligned addresses in shared memory.
  static bool canLoadMatrices(const Tile &tile) {
    return tile.isShared() && getVectorWidth(tile) % 8 == 0;
  }
  /// `ldmatrix` of `count` 8x8 matrices (transposed if `transpose`), lane l
  /// addressing row `row` at column `column` of `tile`; the i32 registers
  /// as vector<2xf16>.
  SmallVector<Value, 4> loadMatrices(const Tile &tile, Value row, Value column,
                                     int32_t count, bool transpose);
  /// The A registers of the 16x16 lhs slice from `k`: a0..a3 of the PTX ISA's
  /// fragment layout, zeros for rows past the end.
  SmallVector<Value, 4> loadLhs(const Tile &lhs, Value k);
  /// The B registers of the 16x8 rhs slice from `k`.
  SmallVector<Value, 2> loadRhs(const Tile &rhs, Value k);

  /// This lane's fragment coordinates: lane, warp, g and 2t.
  Value lane, warp, group, pairColumn;
  /// The decoded item: its slice, batch coordinates, first row and column.
  Value slice, tileRow, tileColumn;
  SmallVector<Value, 2> batch;
};

Value WarpItems::pack(Value lo, Value hi) {
  Value vector = LLVM::PoisonOp::create(
      builder, loc, VectorType::get({2}, builder.getF16Type()));
  for (auto [position, element] : llvm::enumerate(ValueRange{lo, hi}))
    vector = LLVM::InsertElementOp::create(
        builder, loc, vector, element,
        arith::ConstantOp::create(builder, loc,
                                  builder.getI32IntegerAttr(position)));
  return vector;
}

Value WarpItems::loadLhsPair(const Tile &lhs, Value row, bool lowerHalf,
                             Value column) {
  SmallVector<Value, 4> c(batch.begin(), batch.end());
  if (isAlwaysInside(lowerHalf)) {
    c.append({row, column});
    return emitter.loadPacked(lhs, c, 2);
  }
  Value zeros = zeroPair();
  // Rows 8-15 of the only row tile of 8 rows are all past the end.
  if (lowerHalf && rows <= kTileM / 2)
    return zeros;
  // Other rows past the end load a row that exists, so that no load leaves
  // the tile, and take zeros instead.
  Value inside = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                       row, index(rows));
  Value clamped = arith::MinUIOp::create(builder, loc, row, index(rows - 1));
  c.append({clamped, column});
  return arith::SelectOp::create(builder, loc, inside,
                                 emitter.loadPacked(lhs, c, 2), zeros);
}

Value WarpItems::loadRhsPair(const Tile &rhs, Value row, Value column) {
  SmallVector<Value, 4> c(batch.begin(), batch.end());
  c.append({row, column});
  Value lo = emitter.loadStored(rhs, c);
  c[c.size() - 2] = add(row, 1);
  return pack(lo, emitter.loadStored(rhs, c));
}

SmallVector<Value, 4> WarpItems::loadMatrices(const Tile &tile, Value row,
                                              Value column, int32_t count,
                                              bool transpose) {
  SmallVector<Value, 4> c(batch.begin(), batch.end());
  c.append({row, column});
  Type i32 = builder.getI32Type();
  Type resultType =
      count == 1 ? i32
                 : LLVM::LLVMStructType::getLiteral(
                       builder.getContext(), SmallVector<Type>(count, i32));
  Value loaded = NVVM::LdMatrixOp::create(
      builder, loc, resultType, emitter.getElementPointer(tile, c), count,
      transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(builder.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
  auto pairType = VectorType::get({2}, builder.getF16Type());
  SmallVector<Value, 4> registers;
  for (int32_t i = 0; i < count; ++i) {
    Value word = count == 1 ? loaded
                            : LLVM::ExtractValueOp::create(builder, loc,
                                                           loaded, i)
                                  .getResult();
    registers.push_back(LLVM::BitcastOp::create(builder, loc, pairType, word));
  }
  return registers;
}

SmallVector<Value, 4> WarpItems::loadLhs(const Tile &lhs, Value k) {
  Value upperRow = add(tileRow, group);
  Value lowerRow = add(upperRow, 8);
  if (!canLoadMatrices(lhs)) {
    Value column = add(k, pairColumn);
    Value highColumn = add(column, 8);
    return {loadLhsPair(lhs, upperRow, false, column),
            loadLhsPair(lhs, lowerRow, true, column),
            loadLhsPair(lhs, upperRow, false, highColumn),
            loadLhsPair(lhs, lowerRow, true, highColumn)};
  }
  // Lanes 0-15 address rows 0-15 of the slice at column k, lanes 16-31 the
  // same rows at k + 8: matrices (rows 0-7, 8-15) x (columns k, k + 8) are
  // a0..a3. A row past the end is read clamped, then zeroed by the lanes
  // holding it.
  Value row = add(tileRow, rem(lane, 16));
  if (!isAlwaysInside(false) || !isAlwaysInside(true))
    row = arith::MinUIOp::create(builder, loc, row, index(rows - 1));
  SmallVector<Value, 4> a =
      loadMatrices(lhs, row, add(k, mul(div(lane, 16), 8)), 4, false);
  for (size_t i = 0; i < a.size(); ++i) {
    bool lowerHalf = i % 2 == 1;
    if (isAlwaysInside(lowerHalf))
      continue;
    Value inside = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult,
        lowerHalf ? lowerRow : upperRow, index(rows));
    a[i] = arith::SelectOp::create(builder, loc, inside, a[i], zeroPair());
  }
  return a;
}

SmallVector<Value, 2> WarpItems::loadRhs(const Tile &rhs, Value k) {
  if (!canLoadMatrices(rhs)) {
    Value column = add(k, pairColumn);
    Value rhsColumn = add(tileColumn, group);
    return {loadRhsPair(rhs, column, rhsColumn),
            loadRhsPair(rhs, add(column, 8), rhsColumn)};
  }
  // Lanes 0-15 address rows k..k+15 at the tile's first column; transposed,
  // the two 8x8 matrices are b0, b1 (lanes 16-31 address valid rows too,
  // unused).
  SmallVector<Value, 4> b =
      loadMatrices(rhs, add(k, rem(lane, 16)), tileColumn, 2, true);
  return {b[0], b[1]};
}

SmallVector<Value, 4> WarpItems::step(const Tile &lhs, const Tile &rhs,
                                      Value k, ValueRange sums) {
  SmallVector<Value, 4> a = loadLhs(lhs, k);
  SmallVector<Value, 2> b = loadRhs(rhs, k);
  Type f32 = builder.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(builder.getContext(),
                                                     {f32, f32, f32, f32});
  auto mma = NVVM::MmaOp::create(
      builder, loc, resultType, a, b, sums, {kTileM, kTileN, kTileK},
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array{NVVM::MMATypes::f16, NVVM::MMATypes::f16},
      std::array{NVVM::MMALayout::row, NVVM::MMALayout::col});
  SmallVector<Value, 4> next;
  for (int64_t i = 0; i < 4; ++i)
    next.push_back(LLVM::ExtractValueOp::create(builder, loc, mma, i));
  return next;
}

void WarpItems::decode(Value item) {
  slice = arith::DivUIOp::create(builder, loc, item, index(tiles));
  SmallVector<Value, 4> coords = emitter.delinearize(
      arith::RemUIOp::create(builder, loc, item, index(tiles)), tileGrid);
  batch.assign(coords.begin(), coords.end() - 2);
  tileRow = mul(coords[coords.size() - 2], kTileM);
  tileColumn = mul(coords.back(), kTileN);
}

SmallVector<Value, 4> WarpItems::accumulate(Value item, const Tile &lhs,
                                            const Tile &rhs, ValueRange sums) {
  decode(item);
  int64_t steps = kMaxStepsPerIteration;
  while ((depth / kTileK) % steps != 0)
    steps /= 2;
  Value first = mul(slice, depth);
  auto loop = scf::ForOp::create(
      builder, loc, first, add(first, depth), index(steps * kTileK), sums,
      [&](OpBuilder &nested, Location, Value k, ValueRange carried) {
        OpBuilder::InsertionGuard inner(builder);
        builder.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
        SmallVector<Value, 4> partial(carried);
        for (int64_t s = 0; s < steps; ++s)
          partial = step(lhs, rhs, add(k, s * kTileK), partial);
        scf::YieldOp::create(builder, loc, partial);
      });
  return SmallVector<Value, 4>(loop.getResults());
}

void WarpItems::store(Value item, ValueRange sums, const Tile &out) {
  decode(item);
  // {c0, c1} in row g, {c2, c3} in row g + 8; rows past the end are dropped.
  Value column = add(tileColumn, pairColumn);
  for (int64_t half = 0; half < 2; ++half) {
    if (half == 1 && rows <= kTileM / 2)
      break;
    Value row = add(add(tileRow, group), half * 8);
    SmallVector<Value, 4> c;
    if (slices != 1)
      c.push_back(slice);
    llvm::append_range(c, batch);
    c.append({row, column});
    ValueRange pair = sums.slice(2 * half, 2);
    if (isAlwaysInside(half == 1)) {
      emitter.storeVector(out, c, pair);
      continue;
    }
    Value inside = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                         row, index(rows));
    auto guarded = scf::IfOp::create(builder, loc, inside);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(guarded.thenBlock()->getTerminator());
    emitter.storeVector(out, c, pair);
  }
}

void WarpItems::forEachItem(function_ref<void(Value item)> body) {
  auto loop = scf::ForOp::create(builder, loc, warp, index(getNumItems()),
                                 index(warps));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

/// Writes the f32 sums of every item into `out`, mapped by `epilogue` (if
/// given) and rounded to its storage type, adding the slices' partial sums
/// in slice order through shared memory when the warps split the
/// contracting dimension; then synchronises the block.
/// `forEachItemSums(store)` emits the sums of each of this warp's items and
/// calls `store(item, sums)` on them.
void storeResults(KernelEmitter &emitter, WarpItems &items, const Tile &out,
                  function_ref<void(function_ref<void(Value, ValueRange)>)>
                      forEachItemSums,
                  function_ref<Value(Value sum)> epilogue = nullptr) {
  auto finish = [&](Value sum) { return epilogue ? epilogue(sum) : sum; };
  int64_t slices = items.getNumSlices();
  if (slices == 1) {
    forEachItemSums([&](Value item, ValueRange sums) {
      SmallVector<Value, 4> results = llvm::map_to_vector(sums, finish);
      items.store(item, results, out);
    });
    emitter.barrier();
    return;
  }
  // Each warp's partial sums, then one thread per element adds them in
  // slice order.
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  SmallVector<int64_t, 4> partialShape = {slices};
  llvm::append_range(partialShape, out.shape);
  Tile partials = emitter.allocateShared(partialShape, builder.getF32Type());
  forEachItemSums([&](Value item, ValueRange sums) {
    items.store(item, sums, partials);
  });
  emitter.barrier();
  emitter.forEachElement(out.shape, [&](ValueRange c) {
    Value sum;
    for (int64_t slice = 0; slice < slices; ++slice) {
      SmallVector<Value, 5> pc = {emitter.index(slice)};
      llvm::append_range(pc, c);
      Value partial = emitter.load(partials, pc);
      sum = sum ? arith::AddFOp::create(builder, loc, sum, partial) : partial;
    }
    emitter.store(out, c, finish(sum));
  });
}

} // namespace

bool mlir::mirage::canUseTensorCores(Type lhsType, Type rhsType, int64_t depth,
                                     ArrayRef<int64_t> shape,
                                     int64_t numThreads) {
  return lhsType.isF16() && rhsType.isF16() && depth % kTileK == 0 &&
         shape.back() % kTileN == 0 && numThreads % kWarpSize == 0;
}

void mlir::mirage::emitTensorCoreMatmul(
    KernelEmitter &emitter, const Tile &lhs, const Tile &rhs, const Tile &out,
    function_ref<Value(Value sum)> epilogue) {
  WarpItems items(emitter, out.shape, lhs.shape.back());
  SmallVector<Value, 4> zeros(4, emitter.f32(0.0));
  storeResults(
      emitter, items, out,
      [&](auto store) {
        items.forEachItem([&](Value item) {
          store(item, items.accumulate(item, lhs, rhs, zeros));
        });
      },
      epilogue);
}

//===----------------------------------------------------------------------===//
// TensorCoreAccumulator
//===----------------------------------------------------------------------===//

TensorCoreAccumulator::TensorCoreAccumulator(int64_t depth,
                                             ArrayRef<int64_t> shape,
                                             int64_t numThreads)
    : depth(depth), shape(shape) {
  int64_t warps = numThreads / kWarpSize;
  int64_t tiles = getNumElements(getTileGrid(shape));
  itemsPerWarp =
      llvm::divideCeil(tiles * getSlices(tiles, warps, depth), warps);
}

SmallVector<Value> TensorCoreAccumulator::accumulate(KernelEmitter &emitter,
                                                     const Tile &lhs,
                                                     const Tile &rhs,
                                                     ValueRange registers) {
  WarpItems items(emitter, shape, depth);
  SmallVector<Value> next;
  for (int64_t j = 0; j < itemsPerWarp; ++j) {
    ValueRange sums = registers.slice(4 * j, 4);
    llvm::append_range(next, items.forRound(j, sums, [&](Value item) {
      return SmallVector<Value>(items.accumulate(item, lhs, rhs, sums));
    }));
  }
  return next;
}

void TensorCoreAccumulator::finish(KernelEmitter &emitter, ValueRange registers,
                                   const Tile &out) {
  WarpItems items(emitter, shape, depth);
  storeResults(emitter, items, out, [&](auto store) {
    for (int64_t j = 0; j < itemsPerWarp; ++j) {
      ValueRange sums = registers.slice(4 * j, 4);
      items.forRound(j, {}, [&](Value item) {
        store(item, sums);
        return SmallVector<Value>();
      });
    }
  });
}
