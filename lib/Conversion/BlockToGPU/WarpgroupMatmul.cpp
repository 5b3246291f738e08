//===- WarpgroupMatmul.cpp - wgmma matmuls of a block ---------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16` (PTX ISA,
// "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"; `.bf16.bf16`
// alike) reads A (64x16) and B (16xN) from shared memory through 64-bit
// matrix descriptors. Both operands are kept K-major without swizzling: a
// core matrix is 8 rows of 8 16-bit elements (16 bytes) stored as 128
// contiguous bytes, core matrices adjacent along the contracting dimension
// are the leading byte offset (128) apart and those adjacent along the rows
// the stride byte offset (depth * 16) apart.
// The accumulator fragment of lane `l` of warp `w` of the warpgroup,
// g = l / 4 and t = l % 4: {d[4j], d[4j+1]} = D[16w + g][8j + 2t ..],
// {d[4j+2], d[4j+3]} = D[16w + g + 8][8j + 2t ..].
//
//===----------------------------------------------------------------------===//

#include "WarpgroupMatmul.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// The bytes of one 8x8 core matrix of 16-bit elements.
constexpr int64_t kCoreBytes = 128;

/// The PTX type of `wgmma` operands of `elementType`
/// (isTensorCoreElementType).
NVVM::WGMMATypes getWgmmaType(Type elementType) {
  assert(isTensorCoreElementType(elementType) && "no tensor-core type");
  return elementType.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
}

/// `tile` with its last two dimensions exchanged.
Tile transposeLastTwo(Tile tile) {
  size_t rank = tile.shape.size();
  std::swap(tile.shape[rank - 2], tile.shape[rank - 1]);
  std::swap(tile.strides[rank - 2], tile.strides[rank - 1]);
  if (tile.blockExtent != 0 && tile.blockedDim + 2 >= rank)
    tile.blockedDim = 2 * rank - 3 - tile.blockedDim;
  return tile;
}

/// The emission of one warpgroup matmul: this thread's coordinates in its
/// warpgroup, the K-major copies of the operands, the `wgmma` steps of an
/// item and the stores of its sums.
class WarpgroupItems : IndexArithmetic {
public:
  WarpgroupItems(KernelEmitter &emitter, const WarpgroupPlan &plan)
      : IndexArithmetic(emitter), plan(plan) {
    Value threadId = emitter.getThreadId();
    warpgroup = div(threadId, kWarpgroupSize);
    Value lane = rem(threadId, kWarpSize);
    warpInGroup = rem(div(threadId, kWarpSize), 4);
    group = div(lane, 4);
    pairColumn = mul(rem(lane, 4), 2);
  }

  /// Copies `lhs` and `rhs` into the K-major operand buffers, makes the
  /// copies visible to `wgmma` and synchronises the block.
  void copyOperands(const Tile &lhs, const Tile &rhs);
  /// `sums` plus the item's product (columns / 2 f32 values).
  SmallVector<Value> multiply(Value item, ValueRange sums);
  /// Stores the item's `sums`, rounded to the storage type of `out`.
  void store(Value item, ValueRange sums, const Tile &out);
  /// Emits `body(item)` for this warpgroup's item of round `round`
  /// (emitItemOfRound).
  SmallVector<Value> forRound(int64_t round, ValueRange fallback,
                              function_ref<SmallVector<Value>(Value)> body) {
    return emitItemOfRound(emitter, warpgroup, plan.warpgroups, plan.items,
                           round, fallback, body);
  }

private:
  /// Copies `source` (`[batch..., rows, depth]`) into a new K-major buffer
  /// of `paddedRows` rows at its storage type, zeros past `rows`; returns
  /// the buffer.
  Tile copyKMajor(const Tile &source, int64_t paddedRows);
  /// The descriptor of the K-major matrix at shared address `address` (an
  /// i64).
  Value getDescriptor(Value address);
  /// The linear batch index, 64-row tile and column chunk of `item`.
  std::tuple<Value, Value, Value> decode(Value item);

  const WarpgroupPlan &plan;
  Value warpgroup, warpInGroup, group, pairColumn;
  /// The K-major operand buffers (`[batch..., rows / 8, depth / 8, 8, 8]`).
  Tile packedA, packedB;
};

Tile WarpgroupItems::copyKMajor(const Tile &source, int64_t paddedRows) {
  size_t rank = source.shape.size();
  int64_t rows = source.shape[rank - 2];
  int64_t chunks = plan.depth / kCoreColumns;
  Type elementType = source.getStorageType();
  Tile packed =
      emitter.allocateShared(plan.getPackedShape(paddedRows), elementType);
  // Neighbouring threads read neighbouring elements of the source: along
  // the contracting dimension when it is contiguous, else along the rows.
  bool depthContiguous = source.strides.back() == 1;
  SmallVector<int64_t, 4> loopShape(plan.batchShape.begin(),
                                    plan.batchShape.end());
  if (depthContiguous)
    loopShape.append({paddedRows, chunks});
  else
    loopShape.append({chunks, paddedRows});
  Value zeros = arith::ConstantOp::create(
      builder, loc,
      builder.getZeroAttr(VectorType::get({kCoreColumns}, elementType)));
  emitter.forEachElement(
      loopShape,
      [&](ValueRange c) {
        SmallVector<Value, 4> batch(c.drop_back(2));
        Value row = depthContiguous ? c[rank - 2] : c[rank - 1];
        Value chunk = depthContiguous ? c[rank - 1] : c[rank - 2];
        // Padding rows read a row that exists and take zeros instead.
        Value sourceRow =
            paddedRows == rows
                ? row
                : arith::MinUIOp::create(builder, loc, row, index(rows - 1));
        SmallVector<Value, 4> sc(batch);
        sc.append({sourceRow, mul(chunk, kCoreColumns)});
        Value values = emitter.loadPacked(source, sc, kCoreColumns);
        if (paddedRows != rows)
          values = arith::SelectOp::create(builder, loc, less(row, rows),
                                           values, zeros);
        SmallVector<Value, 6> pc(batch.begin(), batch.end());
        pc.append({div(row, kCoreRows), chunk, rem(row, kCoreRows), index(0)});
        emitter.storePacked(packed, pc, values);
      },
      /*synchronize=*/false);
  return packed;
}

void WarpgroupItems::copyOperands(const Tile &lhs, const Tile &rhs) {
  Tile rhsRows = transposeLastTwo(rhs);
  packedA = copyKMajor(plan.swapped ? rhsRows : lhs, plan.paddedRowsA);
  packedB = copyKMajor(plan.swapped ? lhs : rhsRows, plan.paddedRowsB);
  // The copies are generic-proxy writes that wgmma reads through the async
  // proxy.
  NVVM::FenceProxyOp::create(
      builder, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(builder.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  emitter.barrier();
}

Value WarpgroupItems::getDescriptor(Value address) {
  Type i64 = builder.getI64Type();
  auto constant = [&](int64_t value) {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getIntegerAttr(i64, value));
  };
  int64_t leadingOffset = kCoreBytes, strideOffset = plan.depth * 2 * kCoreRows;
  Value start = arith::ShRUIOp::create(
      builder, loc,
      arith::AndIOp::create(builder, loc, address, constant(0x3FFFF)),
      constant(4));
  return arith::OrIOp::create(
      builder, loc, start,
      constant(((leadingOffset >> 4) << 16) | ((strideOffset >> 4) << 32)));
}

std::tuple<Value, Value, Value> WarpgroupItems::decode(Value item) {
  int64_t rowTiles = plan.paddedRowsA / kWarpgroupTileRows;
  Value chunk = rem(item, plan.chunks);
  Value tile = div(item, plan.chunks);
  return {div(tile, rowTiles), rem(tile, rowTiles), chunk};
}

SmallVector<Value> WarpgroupItems::multiply(Value item, ValueRange sums) {
  auto [batch, rowTile, chunk] = decode(item);
  Type i64 = builder.getI64Type();
  auto toI64 = [&](Value value) {
    return arith::IndexCastOp::create(builder, loc, i64, value).getResult();
  };
  // Byte offsets of the item's first core matrices: row groups of 8 rows
  // are depth * 16 bytes apart.
  int64_t rowGroupBytes = plan.depth * 2 * kCoreRows;
  Value offsetA = mul(add(mul(batch, plan.paddedRowsA / kCoreRows),
                          mul(rowTile, kWarpgroupTileRows / kCoreRows)),
                      rowGroupBytes);
  Value offsetB = mul(add(mul(batch, plan.paddedRowsB / kCoreRows),
                          mul(chunk, plan.columns / kCoreRows)),
                      rowGroupBytes);
  Value startA = arith::AddIOp::create(
      builder, loc, emitter.getSharedAddress(packedA), toI64(offsetA));
  Value startB = arith::AddIOp::create(
      builder, loc, emitter.getSharedAddress(packedB), toI64(offsetB));

  NVVM::WGMMATypes operandType = getWgmmaType(packedA.getStorageType());
  Type f32 = builder.getF32Type();
  auto sumsType = LLVM::LLVMStructType::getLiteral(
      builder.getContext(), SmallVector<Type>(sums.size(), f32));
  Value accumulator = LLVM::PoisonOp::create(builder, loc, sumsType);
  for (auto [position, sum] : llvm::enumerate(sums))
    accumulator =
        LLVM::InsertValueOp::create(builder, loc, accumulator, sum, position);
  NVVM::WgmmaFenceAlignedOp::create(builder, loc);
  // One step per 16 elements of the contracting dimension: two core
  // matrices (256 bytes) further along both operands.
  auto loop = scf::ForOp::create(
      builder, loc, index(0), index(plan.depth / kWarpgroupDepthStep), index(1),
      ValueRange{accumulator},
      [&](OpBuilder &nested, Location, Value step, ValueRange carried) {
        OpBuilder::InsertionGuard inner(builder);
        builder.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
        Value stepBytes = toI64(mul(step, 2 * kCoreBytes));
        Value a = getDescriptor(
            arith::AddIOp::create(builder, loc, startA, stepBytes));
        Value b = getDescriptor(
            arith::AddIOp::create(builder, loc, startB, stepBytes));
        auto mma = NVVM::WgmmaMmaAsyncOp::create(
            builder, loc, sumsType, carried[0], a, b,
            NVVM::MMAShapeAttr::get(builder.getContext(), kWarpgroupTileRows,
                                    plan.columns, kWarpgroupDepthStep),
            operandType, operandType, NVVM::WGMMATypes::f32,
            NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
            NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row, NVVM::MMALayout::col,
            /*satfinite=*/nullptr);
        scf::YieldOp::create(builder, loc, mma.getResult());
      });
  NVVM::WgmmaGroupSyncAlignedOp::create(builder, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(builder, loc, 0);
  SmallVector<Value> next;
  for (int64_t position = 0; position < int64_t(sums.size()); ++position)
    next.push_back(LLVM::ExtractValueOp::create(builder, loc, loop.getResult(0),
                                                position));
  return next;
}

void WarpgroupItems::store(Value item, ValueRange sums, const Tile &out) {
  auto [batch, rowTile, chunk] = decode(item);
  // The result as the instruction computes it: [batch..., rowsA, rowsB].
  Tile result = plan.swapped ? transposeLastTwo(out) : out;
  SmallVector<Value, 4> batchCoords;
  if (!plan.batchShape.empty())
    batchCoords = emitter.delinearize(batch, plan.batchShape);
  Value firstRow =
      add(add(mul(rowTile, kWarpgroupTileRows), mul(warpInGroup, 16)), group);
  Value firstColumn = add(mul(chunk, plan.columns), pairColumn);
  // Whole pairs of columns exist or not together when rowsB is even.
  bool pairs = plan.rowsB % 2 == 0;
  for (int64_t j = 0; j < plan.columns / kWarpgroupColumnStep; ++j) {
    for (int64_t half = 0; half < 2; ++half) {
      Value row = add(firstRow, half * 8);
      Value column = add(firstColumn, j * kWarpgroupColumnStep);
      ValueRange pair = sums.slice(4 * j + 2 * half, 2);
      for (int64_t l = 0; l < (pairs ? 1 : 2); ++l) {
        Value col = add(column, l);
        Value inside;
        auto conjoin = [&](Value condition) {
          inside = inside
                       ? arith::AndIOp::create(builder, loc, inside, condition)
                       : condition;
        };
        if (plan.paddedRowsA != plan.rowsA)
          conjoin(less(row, plan.rowsA));
        if (plan.paddedRowsB != plan.rowsB)
          conjoin(less(col, plan.rowsB));
        OpBuilder::InsertionGuard guard(builder);
        if (inside) {
          auto guarded = scf::IfOp::create(builder, loc, inside);
          builder.setInsertionPoint(guarded.thenBlock()->getTerminator());
        }
        SmallVector<Value, 4> c(batchCoords);
        c.append({row, col});
        if (pairs)
          emitter.storeVector(result, c, pair);
        else
          emitter.store(result, c, pair[l]);
      }
    }
  }
}

} // namespace

void mlir::mirage::emitWarpgroupMatmul(KernelEmitter &emitter, const Tile &lhs,
                                       const Tile &rhs, const Tile &out) {
  WarpgroupAccumulator sum(lhs.shape.back(), out.shape,
                           emitter.getNumThreads());
  SmallVector<Value> zeros(sum.getNumRegisters(), emitter.f32(0.0));
  sum.finish(emitter, sum.accumulate(emitter, lhs, rhs, zeros), out);
}

SmallVector<Value> WarpgroupAccumulator::accumulate(KernelEmitter &emitter,
                                                    const Tile &lhs,
                                                    const Tile &rhs,
                                                    ValueRange registers) {
  WarpgroupItems items(emitter, plan);
  items.copyOperands(lhs, rhs);
  int64_t perItem = plan.columns / 2;
  SmallVector<Value> next;
  for (int64_t j = 0; j < plan.itemsPerWarpgroup; ++j) {
    ValueRange sums = registers.slice(j * perItem, perItem);
    llvm::append_range(next, items.forRound(j, sums, [&](Value item) {
      return items.multiply(item, sums);
    }));
  }
  return next;
}

void WarpgroupAccumulator::finish(KernelEmitter &emitter, ValueRange registers,
                                  const Tile &out) {
  WarpgroupItems items(emitter, plan);
  int64_t perItem = plan.columns / 2;
  for (int64_t j = 0; j < plan.itemsPerWarpgroup; ++j) {
    ValueRange sums = registers.slice(j * perItem, perItem);
    items.forRound(j, {}, [&](Value item) {
      items.store(item, sums, out);
      return SmallVector<Value>();
    });
  }
  emitter.barrier();
}
