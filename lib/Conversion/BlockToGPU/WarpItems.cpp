//===- WarpItems.cpp - The mma.sync work of a block's warps ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "WarpItems.h"

#include "MatmulAccumulator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mirage;

/// The most 16-element steps of the contracting dimension one iteration of a
/// warp's loop takes (unrolled, so that their loads are in flight together).
static constexpr int64_t kMaxStepsPerIteration = 4;

/// The type of a register of two elements of `elementType`, as fragments are
/// loaded, selected and packed: `vector<2 x elementType>`.
static VectorType getPairType(Type elementType) {
  return VectorType::get({2}, elementType);
}

namespace {
/// How `mma.sync` takes a register of two elements of a tensor-core element
/// type (isTensorCoreElementType): the PTX type of the elements and the type
/// of the register in NVVM's op.
struct MmaOperandType {
  NVVM::MMATypes ptxType;
  Type registerType;
};
} // namespace

static MmaOperandType getMmaOperandType(Type elementType) {
  assert(isTensorCoreElementType(elementType) && "no tensor-core type");
  // NVVM takes f16 pairs as they are and bf16 pairs as i32.
  if (elementType.isBF16())
    return {NVVM::MMATypes::bf16,
            IntegerType::get(elementType.getContext(), 32)};
  return {NVVM::MMATypes::f16, getPairType(elementType)};
}

WarpItems::WarpItems(KernelEmitter &emitter, ArrayRef<int64_t> shape,
                     int64_t depth, int64_t slices)
    : IndexArithmetic(emitter), shape(shape), tileGrid(getTileGrid(shape)),
      tiles(getNumElements(tileGrid)),
      warps(emitter.getNumThreads() / kWarpSize),
      slices(slices ? slices : getSlices(tiles, warps, depth)),
      depth(depth / this->slices), rows(shape[shape.size() - 2]) {
  Value threadId = emitter.getThreadId();
  lane = rem(threadId, kWarpSize);
  warp = div(threadId, kWarpSize);
  group = div(lane, 4);
  pairColumn = mul(rem(lane, 4), 2);
}

SmallVector<Value>
WarpItems::forRound(int64_t round, ValueRange fallback,
                    function_ref<SmallVector<Value>(Value)> body) {
  return emitItemOfRound(emitter, warp, warps, getNumItems(), round, fallback,
                         body);
}

void WarpItems::setTile(ValueRange batch, Value tileRow, Value tileColumn) {
  this->batch.assign(batch.begin(), batch.end());
  this->tileRow = tileRow;
  this->tileColumn = tileColumn;
}

Value WarpItems::zeroPair(Type elementType) {
  return arith::ConstantOp::create(
      builder, loc, builder.getZeroAttr(getPairType(elementType)));
}

bool WarpItems::canLoadMatrices(const Tile &tile) {
  return tile.isShared() && getVectorWidth(tile) % 8 == 0;
}

Value WarpItems::pack(Value lo, Value hi) {
  Value vector =
      LLVM::PoisonOp::create(builder, loc, getPairType(lo.getType()));
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
  // Rows 8-15 of the only row tile of 8 rows are all past the end.
  if (lowerHalf && rows <= kTileM / 2)
    return zeroPair(lhs.getStorageType());
  // Other rows past the end load the last row, so that no load leaves the
  // tile: they only make product rows past the end, which nothing reads.
  Value clamped = arith::MinUIOp::create(builder, loc, row, index(rows - 1));
  c.append({clamped, column});
  return emitter.loadPacked(lhs, c, 2);
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
  VectorType pairType = getPairType(tile.getStorageType());
  SmallVector<Value, 4> registers;
  for (int32_t i = 0; i < count; ++i) {
    Value word =
        count == 1
            ? loaded
            : LLVM::ExtractValueOp::create(builder, loc, loaded, i).getResult();
    registers.push_back(LLVM::BitcastOp::create(builder, loc, pairType, word));
  }
  return registers;
}

SmallVector<Value, 4> WarpItems::loadLhs(const Tile &lhs, Value k) {
  if (!canLoadMatrices(lhs)) {
    Value upperRow = add(tileRow, group);
    Value lowerRow = add(upperRow, 8);
    Value column = add(k, pairColumn);
    Value highColumn = add(column, 8);
    return {loadLhsPair(lhs, upperRow, false, column),
            loadLhsPair(lhs, lowerRow, true, column),
            loadLhsPair(lhs, upperRow, false, highColumn),
            loadLhsPair(lhs, lowerRow, true, highColumn)};
  }
  // Lanes 0-15 address rows 0-15 of the slice at column k, lanes 16-31 the
  // same rows at k + 8: matrices (rows 0-7, 8-15) x (columns k, k + 8) are
  // a0..a3. A row past the end is read clamped: its product rows are
  // dropped.
  Value row = add(tileRow, rem(lane, 16));
  if (!isAlwaysInside(false) || !isAlwaysInside(true))
    row = arith::MinUIOp::create(builder, loc, row, index(rows - 1));
  return loadMatrices(lhs, row, add(k, mul(div(lane, 16), 8)), 4, false);
}

SmallVector<Value, 2> WarpItems::loadRhsPairs(const Tile &rhs, Value k,
                                              Value column) {
  Value row = add(k, pairColumn);
  Value rhsColumn = add(column, group);
  return {loadRhsPair(rhs, row, rhsColumn),
          loadRhsPair(rhs, add(row, 8), rhsColumn)};
}

SmallVector<Value, 2> WarpItems::loadRhs(const Tile &rhs, Value k) {
  if (!canLoadMatrices(rhs))
    return loadRhsPairs(rhs, k, tileColumn);
  // Lanes 0-15 address rows k..k+15 at the tile's first column; transposed,
  // the two 8x8 matrices are b0, b1 (lanes 16-31 address valid rows too,
  // unused).
  SmallVector<Value, 4> b =
      loadMatrices(rhs, add(k, rem(lane, 16)), tileColumn, 2, true);
  return {b[0], b[1]};
}

SmallVector<Value, 4> WarpItems::loadRhsTiles(const Tile &rhs, Value k) {
  if (!canLoadMatrices(rhs)) {
    SmallVector<Value, 4> b = loadRhsPairs(rhs, k, tileColumn);
    llvm::append_range(b, loadRhsPairs(rhs, k, add(tileColumn, kTileN)));
    return b;
  }
  // Lanes 0-15 address rows k..k+15 at the tile's first column, lanes 16-31
  // the same rows 8 columns on; transposed, the four 8x8 matrices are b0, b1
  // of the first tile, then of the second.
  return loadMatrices(rhs, add(k, rem(lane, 16)),
                      add(tileColumn, mul(div(lane, 16), kTileN)), 4, true);
}

SmallVector<Value, 4> WarpItems::step(const Tile &lhs, const Tile &rhs, Value k,
                                      ValueRange sums) {
  return mma(loadLhs(lhs, k), loadRhs(rhs, k), sums);
}

SmallVector<Value, 4> WarpItems::mma(ValueRange a, ValueRange b,
                                     ValueRange sums) {
  Type f32 = builder.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(builder.getContext(),
                                                     {f32, f32, f32, f32});
  MmaOperandType operandType =
      getMmaOperandType(cast<VectorType>(a.front().getType()).getElementType());
  auto toOperands = [&](ValueRange pairs) {
    return llvm::map_to_vector(pairs, [&](Value pair) -> Value {
      if (pair.getType() == operandType.registerType)
        return pair;
      return LLVM::BitcastOp::create(builder, loc, operandType.registerType,
                                     pair);
    });
  };
  auto mma = NVVM::MmaOp::create(
      builder, loc, resultType, toOperands(a), toOperands(b), sums,
      {kTileM, kTileN, kTileK},
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array{operandType.ptxType, operandType.ptxType},
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

SmallVector<Value, 4>
WarpItems::scaleRows(Value item, ValueRange sums,
                     function_ref<Value(ValueRange batch, Value row)> factor) {
  decode(item);
  SmallVector<Value, 4> scaled;
  for (int64_t half = 0; half < 2; ++half) {
    Value row = add(add(tileRow, group), half * 8);
    if (!isAlwaysInside(half == 1))
      row = arith::MinUIOp::create(builder, loc, row, index(rows - 1));
    Value f = factor(batch, row);
    for (int64_t i = 0; i < 2; ++i)
      scaled.push_back(
          arith::MulFOp::create(builder, loc, sums[2 * half + i], f));
  }
  return scaled;
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
    Value inside = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, row, index(rows));
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

void mlir::mirage::storeResults(
    KernelEmitter &emitter, WarpItems &items, const Tile &out,
    function_ref<void(function_ref<void(Value, ValueRange)>)> forEachItemSums,
    function_ref<SmallVector<Value>(ValueRange sums)> epilogue) {
  auto finish = [&](ValueRange sums) {
    return epilogue ? epilogue(sums) : SmallVector<Value>(sums);
  };
  int64_t slices = items.getNumSlices();
  if (slices == 1) {
    forEachItemSums([&](Value item, ValueRange sums) {
      items.store(item, finish(sums), out);
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
  forEachItemSums(
      [&](Value item, ValueRange sums) { items.store(item, sums, partials); });
  emitter.barrier();
  emitter.forEachElement(out.shape, [&](ValueRange c) {
    Value sum;
    for (int64_t slice = 0; slice < slices; ++slice) {
      SmallVector<Value, 5> pc = {emitter.index(slice)};
      llvm::append_range(pc, c);
      Value partial = emitter.load(partials, pc);
      sum = sum ? arith::AddFOp::create(builder, loc, sum, partial) : partial;
    }
    emitter.store(out, c, finish(sum).front());
  });
}
