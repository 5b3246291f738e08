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

/// Emits the fragment loads and the `mma.sync` steps of one warp.
class WarpMatmul {
public:
  WarpMatmul(KernelEmitter &emitter, const Tile &lhs, const Tile &rhs)
      : emitter(emitter), builder(emitter.getBuilder()),
        loc(emitter.getLoc()), lhs(lhs), rhs(rhs),
        rows(lhs.shape[lhs.shape.size() - 2]) {}

  /// Emits the loop of the warp of thread `threadId` over its (result tile,
  /// contracting slice) items for a result of `shape`, the contracting
  /// dimension cut into `slices`: stores each item's f32 sums into `out`,
  /// the result itself (one slice) or the partial sums `[slices, shape...]`.
  void run(Value threadId, ArrayRef<int64_t> shape, int64_t slices,
           const Tile &out);

private:
  Value index(int64_t value) { return emitter.index(value); }
  Value add(Value x, Value y) { return arith::AddIOp::create(builder, loc, x, y); }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, index(y)); }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(builder, loc, x, index(y));
  }
  /// True when every row of the upper (rows 0-7) or lower (rows 8-15) half
  /// of every row tile is inside the result.
  bool isAlwaysInside(bool lowerHalf) const {
    int64_t tail = rows % kTileM;
    return tail == 0 || (!lowerHalf && tail >= kTileM / 2);
  }
  /// `{lo, hi}` as a vector<2xf16>.
  Value pack(Value lo, Value hi);
  /// The A register of row `row` and columns `column`, `column + 1` of lhs
  /// (zeros for a row past the end); `lowerHalf`: `row` is in rows 8-15 of
  /// its tile.
  Value loadLhsPair(ValueRange batch, Value row, bool lowerHalf, Value column);
  /// The B register of rows `row`, `row + 1` and column `column` of rhs.
  Value loadRhsPair(ValueRange batch, Value row, Value column);
  /// Adds the product of the 16-column slice of lhs from `k` and the
  /// 16-row slice of rhs from `k` to `sums` (c0..c3).
  SmallVector<Value, 4> step(ValueRange batch, Value k, ValueRange sums);

  KernelEmitter &emitter;
  OpBuilder &builder;
  Location loc;
  const Tile &lhs, &rhs;
  int64_t rows;
  /// This lane's fragment coordinates: g, 2t, and the tile's first row and
  /// column.
  Value group, pairColumn, tileRow, tileColumn;
};

Value WarpMatmul::pack(Value lo, Value hi) {
  Value vector = LLVM::PoisonOp::create(
      builder, loc, VectorType::get({2}, builder.getF16Type()));
  for (auto [position, element] : llvm::enumerate(ValueRange{lo, hi}))
    vector = LLVM::InsertElementOp::create(
        builder, loc, vector, element,
        arith::ConstantOp::create(builder, loc,
                                  builder.getI32IntegerAttr(position)));
  return vector;
}

Value WarpMatmul::loadLhsPair(ValueRange batch, Value row, bool lowerHalf,
                              Value column) {
  SmallVector<Value, 4> c(batch);
  if (isAlwaysInside(lowerHalf)) {
    c.append({row, column});
    return emitter.loadPacked(lhs, c, 2);
  }
  Value zeros = arith::ConstantOp::create(
      builder, loc,
      builder.getZeroAttr(VectorType::get({2}, builder.getF16Type())));
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

Value WarpMatmul::loadRhsPair(ValueRange batch, Value row, Value column) {
  SmallVector<Value, 4> c(batch);
  c.append({row, column});
  Value lo = emitter.loadStored(rhs, c);
  c[c.size() - 2] = add(row, 1);
  return pack(lo, emitter.loadStored(rhs, c));
}

SmallVector<Value, 4> WarpMatmul::step(ValueRange batch, Value k,
                                       ValueRange sums) {
  Value upperRow = add(tileRow, group);
  Value lowerRow = add(upperRow, 8);
  Value column = add(k, pairColumn);
  Value highColumn = add(column, 8);
  SmallVector<Value, 4> a = {loadLhsPair(batch, upperRow, false, column),
                             loadLhsPair(batch, lowerRow, true, column),
                             loadLhsPair(batch, upperRow, false, highColumn),
                             loadLhsPair(batch, lowerRow, true, highColumn)};
  Value rhsColumn = add(tileColumn, group);
  SmallVector<Value, 2> b = {loadRhsPair(batch, column, rhsColumn),
                             loadRhsPair(batch, highColumn, rhsColumn)};
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

void WarpMatmul::run(Value threadId, ArrayRef<int64_t> shape, int64_t slices,
                     const Tile &out) {
  SmallVector<int64_t, 4> tileGrid = getTileGrid(shape);
  int64_t tiles = getNumElements(tileGrid);
  int64_t warps = emitter.getNumThreads() / kWarpSize;
  Value lane = arith::RemUIOp::create(builder, loc, threadId, index(kWarpSize));
  Value warp = arith::DivUIOp::create(builder, loc, threadId, index(kWarpSize));
  group = arith::DivUIOp::create(builder, loc, lane, index(4));
  pairColumn =
      mul(arith::RemUIOp::create(builder, loc, lane, index(4)).getResult(), 2);
  int64_t depth = lhs.shape.back() / slices;
  int64_t steps = kMaxStepsPerIteration;
  while ((depth / kTileK) % steps != 0)
    steps /= 2;
  // Work item i: tile i % tiles over slice i / tiles of the contracting
  // dimension.
  auto items = scf::ForOp::create(builder, loc, warp, index(tiles * slices),
                                  index(warps));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(items.getBody()->getTerminator());
  Value item = items.getInductionVar();
  Value slice = arith::DivUIOp::create(builder, loc, item, index(tiles));
  SmallVector<Value, 4> coords = emitter.delinearize(
      arith::RemUIOp::create(builder, loc, item, index(tiles)), tileGrid);
  ValueRange batch = ValueRange(coords).drop_back(2);
  tileRow = mul(coords[coords.size() - 2], kTileM);
  tileColumn = mul(coords.back(), kTileN);
  Value first = mul(slice, depth);
  SmallVector<Value, 4> zeros(4, emitter.f32(0.0));
  auto sums = scf::ForOp::create(
      builder, loc, first, add(first, depth), index(steps * kTileK), zeros,
      [&](OpBuilder &nested, Location, Value k, ValueRange carried) {
        OpBuilder::InsertionGuard inner(builder);
        builder.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
        SmallVector<Value, 4> partial(carried);
        for (int64_t s = 0; s < steps; ++s)
          partial = step(batch, add(k, s * kTileK), partial);
        scf::YieldOp::create(builder, loc, partial);
      });
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
    ValueRange pair = sums.getResults().slice(2 * half, 2);
    if (isAlwaysInside(half == 1)) {
      emitter.storeVector(out, c, pair);
      continue;
    }
    Value inside = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                         row, index(rows));
    auto guarded = scf::IfOp::create(builder, loc, inside);
    OpBuilder::InsertionGuard store(builder);
    builder.setInsertionPoint(guarded.thenBlock()->getTerminator());
    emitter.storeVector(out, c, pair);
  }
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

} // namespace

bool mlir::mirage::canUseTensorCores(const Tile &lhs, const Tile &rhs,
                                     ArrayRef<int64_t> shape,
                                     int64_t numThreads) {
  return lhs.getStorageType().isF16() && rhs.getStorageType().isF16() &&
         lhs.shape.back() % kTileK == 0 && shape.back() % kTileN == 0 &&
         shape[shape.size() - 2] >= kTileM / 2 && numThreads % kWarpSize == 0;
}

void mlir::mirage::emitTensorCoreMatmul(KernelEmitter &emitter, const Tile &lhs,
                                        const Tile &rhs, const Tile &out) {
  int64_t slices = getSlices(getNumElements(getTileGrid(out.shape)),
                             emitter.getNumThreads() / kWarpSize,
                             lhs.shape.back());
  WarpMatmul matmul(emitter, lhs, rhs);
  if (slices == 1) {
    matmul.run(emitter.getThreadId(), out.shape, 1, out);
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
  matmul.run(emitter.getThreadId(), out.shape, slices, partials);
  emitter.barrier();
  emitter.forEachElement(out.shape, [&](ValueRange c) {
    Value sum;
    for (int64_t slice = 0; slice < slices; ++slice) {
      SmallVector<Value, 5> pc = {emitter.index(slice)};
      llvm::append_range(pc, c);
      Value partial = emitter.load(partials, pc);
      sum = sum ? arith::AddFOp::create(builder, loc, sum, partial) : partial;
    }
    emitter.store(out, c, sum);
  });
}
