//===- KernelEmitter.cpp - Building blocks of generated kernels -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::mirage;

KernelEmitter::KernelEmitter(gpu::GPUFuncOp kernel, ArrayRef<int32_t> blockDims)
    : builder(kernel.getContext()), entryBuilder(kernel.getContext()),
      loc(kernel.getLoc()) {
  Block &entry = kernel.getBody().front();
  builder.setInsertionPointToStart(&entry);
  numThreads = int64_t(blockDims[0]) * blockDims[1] * blockDims[2];
  // Linear thread id: x fastest.
  Value tx = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value ty = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::y);
  Value tz = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::z);
  Value yz = arith::AddIOp::create(
      builder, loc, ty,
      arith::MulIOp::create(builder, loc, tz, index(blockDims[1])));
  threadId = arith::AddIOp::create(
      builder, loc, tx,
      arith::MulIOp::create(builder, loc, yz, index(blockDims[0])));
  for (gpu::Dimension dim :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    blockIds.push_back(gpu::BlockIdOp::create(builder, loc, dim));
  auto workgroup = gpu::AddressSpaceAttr::get(builder.getContext(),
                                              gpu::AddressSpace::Workgroup);
  sharedBase = gpu::DynamicSharedMemoryOp::create(
      builder, loc,
      MemRefType::get({ShapedType::kDynamic}, builder.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  // Views are created before the first op of the body proper, so that they
  // dominate every use.
  entryBuilder.setInsertionPoint(index(0).getDefiningOp());
}

Value KernelEmitter::index(int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

Value KernelEmitter::f32(double value) {
  return arith::ConstantOp::create(builder, loc,
                                   builder.getF32FloatAttr(value));
}

void KernelEmitter::forEachElement(ArrayRef<int64_t> shape,
                                   function_ref<void(ValueRange)> body,
                                   bool synchronize) {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  SmallVector<int64_t, 4> dims(shape);
  // Thread t takes elements t + r * numThreads for rounds r < rounds,
  // kElementUnroll rounds per iteration of the loop (fewer in the last), so
  // that independent rounds' loads are in flight together.
  int64_t rounds = llvm::divideCeil(count, numThreads);
  int64_t unroll = std::min(rounds, kElementUnroll);
  bool guarded = count % numThreads != 0 || rounds % unroll != 0;
  auto emitRounds = [&](Value first) {
    for (int64_t u = 0; u < unroll; ++u) {
      Value round = u == 0
                        ? first
                        : arith::AddIOp::create(builder, loc, first, index(u))
                              .getResult();
      Value linear = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, round, index(numThreads)),
          threadId);
      if (!guarded) {
        body(delinearize(linear, dims));
        continue;
      }
      Value inside = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, linear, index(count));
      auto ifOp = scf::IfOp::create(builder, loc, inside);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      body(delinearize(linear, dims));
    }
  };
  if (unroll == rounds) {
    emitRounds(index(0));
  } else {
    scf::ForOp::create(
        builder, loc, index(0), index(rounds), index(unroll), ValueRange(),
        [&](OpBuilder &nested, Location, Value first, ValueRange) {
          OpBuilder::InsertionGuard guard(builder);
          builder.setInsertionPoint(nested.getInsertionBlock(),
                                    nested.getInsertionPoint());
          emitRounds(first);
          scf::YieldOp::create(builder, loc);
        });
  }
  if (synchronize)
    barrier();
}

void KernelEmitter::forEachRun(ArrayRef<int64_t> shape, int64_t width,
                               function_ref<void(ValueRange)> body,
                               bool synchronize) {
  SmallVector<int64_t, 4> runs(shape);
  runs.back() /= width;
  forEachElement(
      runs,
      [&](ValueRange run) {
        SmallVector<Value, 4> first(run);
        if (width != 1)
          first.back() =
              arith::MulIOp::create(builder, loc, first.back(), index(width));
        body(first);
      },
      synchronize);
}

Value KernelEmitter::combine(Value a, Value b, Combine combine) {
  if (combine == Combine::Max)
    return arith::MaximumFOp::create(builder, loc, a, b);
  return arith::AddFOp::create(builder, loc, a, b);
}

Value KernelEmitter::identity(Combine combine) {
  return f32(combine == Combine::Max ? -std::numeric_limits<double>::infinity()
                                     : 0.0);
}

SmallVector<Value, 8>
KernelEmitter::sequentialSum(int64_t count, int64_t width,
                             function_ref<SmallVector<Value, 8>(Value)> terms,
                             Combine combine) {
  int64_t unroll = count % kSumUnroll == 0 ? kSumUnroll : 1;
  // Partial u of sum l is carried at u * width + l.
  SmallVector<Value, 32> inits(unroll * width, identity(combine));
  auto loop = scf::ForOp::create(
      builder, loc, index(0), index(count), index(unroll), inits,
      [&](OpBuilder &nested, Location, Value i, ValueRange carried) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
        SmallVector<Value, 32> next;
        for (int64_t u = 0; u < unroll; ++u) {
          Value position =
              u == 0 ? i : arith::AddIOp::create(builder, loc, i, index(u));
          for (auto [l, term] : llvm::enumerate(terms(position)))
            next.push_back(
                this->combine(carried[u * width + l], term, combine));
        }
        scf::YieldOp::create(builder, loc, next);
      });
  // ((p0 + p1) + (p2 + p3)) per sum: a fixed order, so results are
  // deterministic.
  SmallVector<Value, 8> sums;
  for (int64_t l = 0; l < width; ++l) {
    SmallVector<Value, 4> partials;
    for (int64_t u = 0; u < unroll; ++u)
      partials.push_back(loop.getResult(u * width + l));
    sums.push_back(combinePairwise(partials, combine));
  }
  return sums;
}

Value KernelEmitter::combinePairwise(ArrayRef<Value> values, Combine combine) {
  SmallVector<Value, 8> level(values);
  while (level.size() > 1) {
    SmallVector<Value, 8> next;
    for (size_t p = 0; p + 1 < level.size(); p += 2)
      next.push_back(this->combine(level[p], level[p + 1], combine));
    if (level.size() % 2 != 0)
      next.push_back(level.back());
    level = std::move(next);
  }
  return level.front();
}

Value KernelEmitter::warpCombine(Value value, int64_t lanes, Combine combine) {
  for (int32_t offset = lanes / 2; offset >= 1; offset /= 2) {
    Value other = gpu::ShuffleOp::create(builder, loc, value, offset, kWarpSize,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    value = this->combine(value, other, combine);
  }
  return value;
}

Value KernelEmitter::groupCombine(Value value, int64_t lanes,
                                  const Tile *partials, Combine combine) {
  Value sum = warpCombine(value, std::min(lanes, kWarpSize), combine);
  if (lanes <= kWarpSize)
    return sum;
  assert(partials && "a group wider than a warp adds through shared memory");
  Value leader = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(builder, loc, threadId, index(kWarpSize)),
      index(0));
  auto store = scf::IfOp::create(builder, loc, leader);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(store.thenBlock()->getTerminator());
    this->store(
        *partials,
        {arith::DivUIOp::create(builder, loc, threadId, index(kWarpSize))},
        sum);
  }
  barrier();
  int64_t warps = lanes / kWarpSize;
  Value firstWarp = arith::MulIOp::create(
      builder, loc,
      arith::DivUIOp::create(builder, loc, threadId, index(lanes)),
      index(warps));
  SmallVector<Value> sums;
  for (int64_t w = 0; w < warps; ++w)
    sums.push_back(
        load(*partials,
             {w == 0 ? firstWarp
                     : arith::AddIOp::create(builder, loc, firstWarp, index(w))
                           .getResult()}));
  return combinePairwise(sums, combine);
}

void KernelEmitter::barrier() { gpu::BarrierOp::create(builder, loc); }

SmallVector<Value, 4> KernelEmitter::delinearize(Value linear,
                                                 ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides = getContiguousStrides(shape);
  SmallVector<Value, 4> coords;
  for (auto [k, extent] : llvm::enumerate(shape)) {
    Value c = linear;
    if (strides[k] != 1)
      c = arith::DivUIOp::create(builder, loc, c, index(strides[k]));
    if (k != 0)
      c = arith::RemUIOp::create(builder, loc, c, index(extent));
    coords.push_back(c);
  }
  return coords;
}

Value KernelEmitter::linearize(const Tile &tile, ValueRange coords) {
  // The swizzle permutes 16-byte chunks within each period of swizzle / 16
  // lines of 128 bytes. An offset that is a multiple of the period (a
  // pipeline stage's) commutes with it, so it is added after the position
  // within the tile is swizzled: that position is then the same in every
  // iteration of a loop over stages and is computed once, before it.
  bool offsetAfterSwizzle =
      tile.swizzle != 0 && tile.offset &&
      tile.offsetAlignment * tile.getElementBytes() % (tile.swizzle * 8) == 0;
  Value position = offsetAfterSwizzle ? Value() : tile.offset;
  auto add = [&](Value term) {
    position =
        position ? arith::AddIOp::create(builder, loc, position, term) : term;
  };
  for (auto [k, coord, stride] : llvm::enumerate(coords, tile.strides)) {
    Value c = coord;
    if (tile.blockExtent != 0 && k == tile.blockedDim) {
      add(arith::MulIOp::create(
          builder, loc,
          arith::DivUIOp::create(builder, loc, c, index(tile.blockExtent)),
          index(tile.blockStride)));
      c = arith::RemUIOp::create(builder, loc, c, index(tile.blockExtent));
    }
    add(stride == 1 ? c
                    : arith::MulIOp::create(builder, loc, c, index(stride))
                          .getResult());
  }
  if (!position)
    position = index(0);
  if (tile.swizzle == 0)
    return position;
  // position ^ ((line % (swizzle / 16)) * chunk), in elements.
  int64_t elementBytes = tile.getElementBytes();
  int64_t chunk = kMaxVectorBytes / elementBytes;
  Value line = arith::ShRUIOp::create(builder, loc, position,
                                      index(llvm::Log2_64(128 / elementBytes)));
  Value permuted = arith::MulIOp::create(
      builder, loc,
      arith::AndIOp::create(builder, loc, line,
                            index(tile.swizzle / kMaxVectorBytes - 1)),
      index(chunk));
  Value swizzled = arith::XOrIOp::create(builder, loc, position, permuted);
  return offsetAfterSwizzle
             ? arith::AddIOp::create(builder, loc, tile.offset, swizzled)
             : swizzled;
}

Value KernelEmitter::loadStored(const Tile &tile, ValueRange coords) {
  return memref::LoadOp::create(builder, loc, tile.buffer,
                                ValueRange{linearize(tile, coords)});
}

Value KernelEmitter::loadPacked(const Tile &tile, ValueRange coords,
                                int64_t width) {
  Type type = tile.getStorageType();
  auto vectorType = VectorType::get({width}, type);
  if (getVectorWidth(tile) % width == 0)
    return LLVM::LoadOp::create(builder, loc, vectorType,
                                getElementPointer(tile, coords),
                                width * type.getIntOrFloatBitWidth() / 8);
  Value vector = LLVM::PoisonOp::create(builder, loc, vectorType);
  SmallVector<Value, 4> c(coords);
  for (int64_t l = 0; l < width; ++l) {
    if (l != 0)
      c.back() = arith::AddIOp::create(builder, loc, coords.back(), index(l));
    vector = LLVM::InsertElementOp::create(
        builder, loc, vector, loadStored(tile, c),
        arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(l)));
  }
  return vector;
}

Value KernelEmitter::load(const Tile &tile, ValueRange coords) {
  Value value = loadStored(tile, coords);
  if (value.getType().isF32())
    return value;
  return arith::ExtFOp::create(builder, loc, builder.getF32Type(), value);
}

SmallVector<Value, 8> KernelEmitter::loadBroadcastRun(const Tile &tile,
                                                      ArrayRef<int64_t> shape,
                                                      ValueRange coords,
                                                      int64_t width) {
  SmallVector<Value, 4> own(coords);
  for (auto [k, extent] : llvm::enumerate(tile.shape))
    if (extent != shape[k])
      own[k] = index(0);
  if (tile.shape.back() == shape.back())
    return loadVector(tile, own, width);
  return SmallVector<Value, 8>(width, load(tile, own));
}

Value KernelEmitter::getElementPointer(const Tile &tile, ValueRange coords) {
  MLIRContext *ctx = builder.getContext();
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, tile.buffer);
  Value base;
  if (tile.isShared()) {
    base = LLVM::IntToPtrOp::create(
        builder, loc, LLVM::LLVMPointerType::get(ctx, 3),
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), address)
            .getResult());
  } else {
    // A generic address of global memory, cast to the global address space
    // so that the access is an ld/st.global.
    Value generic = LLVM::IntToPtrOp::create(
        builder, loc, LLVM::LLVMPointerType::get(ctx),
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), address)
            .getResult());
    base = LLVM::AddrSpaceCastOp::create(
        builder, loc, LLVM::LLVMPointerType::get(ctx, 1), generic);
  }
  Value position = arith::IndexCastOp::create(
      builder, loc, builder.getI64Type(), linearize(tile, coords));
  return LLVM::GEPOp::create(builder, loc, base.getType(),
                             tile.getStorageType(), base, ValueRange{position});
}

SmallVector<Value, 8>
KernelEmitter::loadVector(const Tile &tile, ValueRange coords, int64_t width) {
  int64_t chunk = std::min(width, getVectorWidth(tile));
  if (chunk == 1) {
    SmallVector<Value, 8> values;
    SmallVector<Value, 4> c(coords);
    for (int64_t l = 0; l < width; ++l) {
      if (l != 0)
        c.back() = arith::AddIOp::create(builder, loc, coords.back(), index(l));
      values.push_back(load(tile, c));
    }
    return values;
  }
  Type type = tile.getStorageType();
  auto vectorType = VectorType::get({chunk}, type);
  int64_t alignment = chunk * type.getIntOrFloatBitWidth() / 8;
  SmallVector<Value, 8> values;
  SmallVector<Value, 4> c(coords);
  for (int64_t first = 0; first < width; first += chunk) {
    if (first != 0)
      c.back() =
          arith::AddIOp::create(builder, loc, coords.back(), index(first));
    Value vector = LLVM::LoadOp::create(builder, loc, vectorType,
                                        getElementPointer(tile, c), alignment);
    for (int64_t l = 0; l < chunk; ++l) {
      Value element = LLVM::ExtractElementOp::create(
          builder, loc, vector,
          arith::ConstantOp::create(builder, loc,
                                    builder.getI32IntegerAttr(l)));
      values.push_back(type.isF32()
                           ? element
                           : arith::ExtFOp::create(
                                 builder, loc, builder.getF32Type(), element)
                                 .getResult());
    }
  }
  return values;
}

void KernelEmitter::storePacked(const Tile &tile, ValueRange coords,
                                Value vector) {
  auto vectorType = cast<VectorType>(vector.getType());
  int64_t width = vectorType.getNumElements();
  if (getVectorWidth(tile) % width == 0) {
    LLVM::StoreOp::create(
        builder, loc, vector, getElementPointer(tile, coords),
        width * vectorType.getElementType().getIntOrFloatBitWidth() / 8);
    return;
  }
  SmallVector<Value, 4> c(coords);
  for (int64_t l = 0; l < width; ++l) {
    if (l != 0)
      c.back() = arith::AddIOp::create(builder, loc, coords.back(), index(l));
    Value element = LLVM::ExtractElementOp::create(
        builder, loc, vector,
        arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(l)));
    LLVM::StoreOp::create(builder, loc, element, getElementPointer(tile, c));
  }
}

void KernelEmitter::storeVector(const Tile &tile, ValueRange coords,
                                ValueRange values) {
  int64_t width = values.size();
  int64_t chunk = std::min(width, getVectorWidth(tile));
  SmallVector<Value, 4> c(coords);
  if (chunk == 1) {
    for (auto [l, value] : llvm::enumerate(values)) {
      if (l != 0)
        c.back() = arith::AddIOp::create(builder, loc, coords.back(), index(l));
      store(tile, c, value);
    }
    return;
  }
  Type type = tile.getStorageType();
  auto vectorType = VectorType::get({chunk}, type);
  int64_t alignment = chunk * type.getIntOrFloatBitWidth() / 8;
  for (int64_t first = 0; first < width; first += chunk) {
    Value vector = LLVM::PoisonOp::create(builder, loc, vectorType);
    for (int64_t l = 0; l < chunk; ++l) {
      Value element = values[first + l];
      if (!type.isF32())
        element = arith::TruncFOp::create(builder, loc, type, element);
      vector = LLVM::InsertElementOp::create(
          builder, loc, vector, element,
          arith::ConstantOp::create(builder, loc,
                                    builder.getI32IntegerAttr(l)));
    }
    if (first != 0)
      c.back() =
          arith::AddIOp::create(builder, loc, coords.back(), index(first));
    LLVM::StoreOp::create(builder, loc, vector, getElementPointer(tile, c),
                          alignment);
  }
}

void KernelEmitter::copyAsync(const Tile &from, const Tile &to) {
  forEachRun(
      from.shape, getVectorWidth(from),
      [&](ValueRange c) {
        NVVM::CpAsyncOp::create(builder, loc, getElementPointer(to, c),
                                getElementPointer(from, c), kMaxVectorBytes,
                                NVVM::LoadCacheModifierKind::CG,
                                /*cpSize=*/Value());
      },
      /*synchronize=*/false);
}

void KernelEmitter::addToOffset(Tile &tile, Value term, int64_t factor) {
  if (factor != 1)
    term = arith::MulIOp::create(builder, loc, term, index(factor));
  tile.offset = tile.offset
                    ? arith::AddIOp::create(builder, loc, tile.offset, term)
                    : term;
  tile.offsetAlignment = std::gcd(tile.offsetAlignment, factor);
}

void KernelEmitter::store(const Tile &tile, ValueRange coords, Value value) {
  Type type = tile.getStorageType();
  if (!type.isF32())
    value = arith::TruncFOp::create(builder, loc, type, value);
  memref::StoreOp::create(builder, loc, value, tile.buffer,
                          ValueRange{linearize(tile, coords)});
}

Value KernelEmitter::roundTo(Value value, Type type) {
  if (type.isF32())
    return value;
  Value narrow = arith::TruncFOp::create(builder, loc, type, value);
  return arith::ExtFOp::create(builder, loc, builder.getF32Type(), narrow);
}

SmallVector<Value> KernelEmitter::roundTo(ValueRange values, Type type) {
  if (type.isF32())
    return SmallVector<Value>(values);
  SmallVector<Value> rounded;
  size_t pairs = values.size() / 2;
  auto pairType = VectorType::get({2}, type);
  for (size_t pair = 0; pair < pairs; ++pair) {
    Value lo = values[2 * pair], hi = values[2 * pair + 1];
    Value packed =
        type.isF16()
            ? NVVM::ConvertF32x2ToF16x2Op::create(builder, loc, pairType, hi,
                                                  lo, Value(),
                                                  NVVM::FPRoundingMode::RN)
                  .getResult()
            : NVVM::ConvertF32x2ToBF16x2Op::create(builder, loc, pairType, hi,
                                                   lo, Value(),
                                                   NVVM::FPRoundingMode::RN)
                  .getResult();
    for (int64_t position = 0; position < 2; ++position) {
      Value element = LLVM::ExtractElementOp::create(
          builder, loc, packed,
          arith::ConstantOp::create(builder, loc,
                                    builder.getI32IntegerAttr(position)));
      rounded.push_back(
          arith::ExtFOp::create(builder, loc, builder.getF32Type(), element));
    }
  }
  if (values.size() % 2)
    rounded.push_back(roundTo(values.back(), type));
  return rounded;
}

Value KernelEmitter::getSharedAddress(const Tile &tile) {
  assert(tile.isShared() && "not a shared-memory tile");
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, tile.buffer);
  if (tile.offset)
    address = arith::AddIOp::create(
        builder, loc, address,
        arith::MulIOp::create(
            builder, loc, tile.offset,
            index(tile.getStorageType().getIntOrFloatBitWidth() / 8)));
  return arith::IndexCastOp::create(builder, loc, builder.getI64Type(),
                                    address);
}

void KernelEmitter::copyTensor(Value descriptor, ValueRange coordinates,
                               const Tile &to, ValueRange at, Value barrier) {
  // The shared::cluster form (PTX 8.0) with this block's own address; the
  // shared::cta one needs PTX 8.6.
  Value destination = LLVM::AddrSpaceCastOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext(), 7),
      getElementPointer(to, at));
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      builder, loc, destination, descriptor, coordinates, barrier,
      /*im2colOffsets=*/ValueRange(), /*multicastMask=*/Value(),
      /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
      /*group=*/nullptr, /*predicate=*/Value());
}

Tile KernelEmitter::allocateShared(ArrayRef<int64_t> shape, Type type,
                                   int64_t alignment, int64_t swizzle) {
  if (swizzle != 0)
    alignment = std::max(alignment, kSwizzleAlignment);
  int64_t count = getNumElements(shape);
  int64_t bytes = count * type.getIntOrFloatBitWidth() / 8;
  int64_t offset = 0;
  if (nextBuffer < sharedPlan.size() && sharedPlan[nextBuffer].bytes == bytes &&
      sharedPlan[nextBuffer].alignment == alignment)
    offset = sharedPlan[nextBuffer++].offset;
  else
    deviatedFromPlan = true;
  auto memrefType =
      MemRefType::get({count}, type, MemRefLayoutAttrInterface(),
                      cast<MemRefType>(sharedBase.getType()).getMemorySpace());
  Value byteOffset = arith::ConstantIndexOp::create(entryBuilder, loc, offset);
  Value view = memref::ViewOp::create(entryBuilder, loc, memrefType, sharedBase,
                                      byteOffset, ValueRange());
  Tile tile;
  tile.shape.assign(shape.begin(), shape.end());
  tile.strides = getContiguousStrides(shape);
  tile.storageType = type;
  tile.shared = true;
  tile.swizzle = swizzle;
  tile.buffer = view;
  return tile;
}

Value mlir::mirage::emitDivide(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::DivFOp::create(b, loc, x, y, arith::FastMathFlags::afn);
}

Value mlir::mirage::emitExpOfDifference(OpBuilder &b, Location loc, Value x,
                                        Value y) {
  return emitElementwise(b, loc, ElementwiseKind::Exp,
                         {arith::SubFOp::create(b, loc, x, y)},
                         /*scalar=*/0.0);
}

Value mlir::mirage::emitRmsFactor(OpBuilder &b, Location loc, Value sum,
                                  int64_t size, double eps) {
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  Value mean = emitDivide(b, loc, sum, constant(double(size)));
  if (eps != 0.0)
    mean = arith::AddFOp::create(b, loc, mean, constant(eps));
  return emitDivide(b, loc, constant(1.0), math::SqrtOp::create(b, loc, mean));
}

Value mlir::mirage::emitElementwise(OpBuilder &b, Location loc,
                                    ElementwiseKind kind, ValueRange operands,
                                    double scalar) {
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  Value x = operands[0];
  Value y = operands.size() > 1 ? operands[1] : Value();
  // exp(v) = 2^(v log2 e): the chip's ex2.approx after one multiply, where
  // libdevice's expf first reduces the range in several instructions.
  auto exp = [&](Value v) -> Value {
    return math::Exp2Op::create(
        b, loc,
        arith::MulFOp::create(b, loc, v, constant(llvm::numbers::log2e)));
  };
  switch (kind) {
  case ElementwiseKind::Exp:
    return exp(x);
  case ElementwiseKind::Square:
    return arith::MulFOp::create(b, loc, x, x);
  case ElementwiseKind::Sqrt:
    return math::SqrtOp::create(b, loc, x);
  case ElementwiseKind::Rsqrt:
    return emitDivide(b, loc, constant(1.0), math::SqrtOp::create(b, loc, x));
  case ElementwiseKind::Silu: {
    Value e = exp(arith::NegFOp::create(b, loc, x));
    return emitDivide(b, loc, x,
                      arith::AddFOp::create(b, loc, constant(1.0), e));
  }
  case ElementwiseKind::Gelu: {
    Value scaled =
        arith::MulFOp::create(b, loc, x, constant(0.70710678118654752440));
    Value erf = math::ErfOp::create(b, loc, scaled);
    Value half = arith::MulFOp::create(b, loc, constant(0.5), x);
    return arith::MulFOp::create(
        b, loc, half, arith::AddFOp::create(b, loc, constant(1.0), erf));
  }
  case ElementwiseKind::Relu: {
    Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                           constant(0.0));
    return arith::SelectOp::create(b, loc, positive, x, constant(0.0));
  }
  case ElementwiseKind::Neg:
    return arith::NegFOp::create(b, loc, x);
  case ElementwiseKind::MulScalar:
    return arith::MulFOp::create(b, loc, x, constant(scalar));
  case ElementwiseKind::Add:
    return arith::AddFOp::create(b, loc, x, y);
  case ElementwiseKind::Sub:
    return arith::SubFOp::create(b, loc, x, y);
  case ElementwiseKind::Mul:
    return arith::MulFOp::create(b, loc, x, y);
  case ElementwiseKind::Div:
    return emitDivide(b, loc, x, y);
  case ElementwiseKind::Pow:
    return math::PowFOp::create(b, loc, x, y);
  }
  llvm_unreachable("unknown elementwise kind");
}

//===----------------------------------------------------------------------===//
// IndexArithmetic
//===----------------------------------------------------------------------===//

Value IndexArithmetic::add(Value x, Value y) {
  return arith::AddIOp::create(builder, loc, x, y);
}

Value IndexArithmetic::add(Value x, int64_t y) {
  return y == 0 ? x : add(x, index(y));
}

Value IndexArithmetic::mul(Value x, int64_t y) {
  return arith::MulIOp::create(builder, loc, x, index(y));
}

Value IndexArithmetic::div(Value x, int64_t y) {
  return arith::DivUIOp::create(builder, loc, x, index(y));
}

Value IndexArithmetic::rem(Value x, int64_t y) {
  return arith::RemUIOp::create(builder, loc, x, index(y));
}

Value IndexArithmetic::less(Value x, int64_t y) {
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, x,
                               index(y));
}
