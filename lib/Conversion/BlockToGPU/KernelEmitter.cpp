//===- KernelEmitter.cpp - Building blocks of generated kernels -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::mirage;

/// Alignment of every shared-memory buffer: enough for 16-byte vector
/// accesses.
static constexpr int64_t kSharedAlignment = 16;
/// Independent partial values of a sequentialSum.
static constexpr int64_t kSumUnroll = 4;

Type Tile::getStorageType() const {
  return cast<MemRefType>(buffer.getType()).getElementType();
}

bool Tile::isShared() const {
  return gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
      cast<MemRefType>(buffer.getType()));
}

SmallVector<int64_t, 4> mlir::mirage::getContiguousStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t k = static_cast<int64_t>(shape.size()) - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * shape[k + 1];
  return strides;
}

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
      builder, loc, ty, arith::MulIOp::create(builder, loc, tz, index(blockDims[1])));
  threadId = arith::AddIOp::create(
      builder, loc, tx, arith::MulIOp::create(builder, loc, yz, index(blockDims[0])));
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
  scf::ForOp::create(builder, loc, threadId, index(count), index(numThreads),
                     ValueRange(),
                     [&](OpBuilder &nested, Location, Value linear, ValueRange) {
                       OpBuilder::InsertionGuard guard(builder);
                       builder.setInsertionPoint(nested.getInsertionBlock(),
                                                 nested.getInsertionPoint());
                       body(delinearize(linear, dims));
                       scf::YieldOp::create(builder, loc);
                     });
  if (synchronize)
    barrier();
}

Value KernelEmitter::sequentialSum(int64_t count, Value init,
                                   function_ref<Value(Value, Value)> body) {
  int64_t unroll = count % kSumUnroll == 0 ? kSumUnroll : 1;
  SmallVector<Value, 4> inits = {init};
  inits.append(unroll - 1, f32(0.0));
  auto loop = scf::ForOp::create(
      builder, loc, index(0), index(count), index(unroll), inits,
      [&](OpBuilder &nested, Location, Value i, ValueRange carried) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
        SmallVector<Value, 4> next;
        for (auto [u, acc] : llvm::enumerate(carried)) {
          Value position =
              u == 0 ? i : arith::AddIOp::create(builder, loc, i, index(u));
          next.push_back(body(position, acc));
        }
        scf::YieldOp::create(builder, loc, next);
      });
  // ((a0 + a1) + (a2 + a3)): a fixed order, so results are deterministic.
  SmallVector<Value, 4> partials(loop.getResults());
  while (partials.size() > 1) {
    SmallVector<Value, 4> halves;
    for (size_t p = 0; p < partials.size(); p += 2)
      halves.push_back(
          arith::AddFOp::create(builder, loc, partials[p], partials[p + 1]));
    partials = std::move(halves);
  }
  return partials.front();
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
  Value position = tile.offset;
  for (auto [c, stride] : llvm::zip(coords, tile.strides)) {
    Value term =
        stride == 1 ? c : arith::MulIOp::create(builder, loc, c, index(stride));
    position =
        position ? arith::AddIOp::create(builder, loc, position, term) : term;
  }
  return position ? position : index(0);
}

Value KernelEmitter::load(const Tile &tile, ValueRange coords) {
  Value value = memref::LoadOp::create(builder, loc, tile.buffer,
                                       ValueRange{linearize(tile, coords)});
  if (value.getType().isF32())
    return value;
  return arith::ExtFOp::create(builder, loc, builder.getF32Type(), value);
}

Value KernelEmitter::loadBroadcast(const Tile &tile, ArrayRef<int64_t> shape,
                                   ValueRange coords) {
  SmallVector<Value, 4> own(coords);
  for (auto [k, extent] : llvm::enumerate(tile.shape))
    if (extent != shape[k])
      own[k] = index(0);
  return load(tile, own);
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

Tile KernelEmitter::allocateShared(ArrayRef<int64_t> shape, Type type) {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  int64_t offset = llvm::alignTo(sharedBytes, kSharedAlignment);
  sharedBytes = offset + count * type.getIntOrFloatBitWidth() / 8;
  auto memrefType = MemRefType::get(
      {count}, type, MemRefLayoutAttrInterface(),
      cast<MemRefType>(sharedBase.getType()).getMemorySpace());
  Value byteOffset = arith::ConstantIndexOp::create(entryBuilder, loc, offset);
  Value view = memref::ViewOp::create(entryBuilder, loc, memrefType, sharedBase,
                                      byteOffset, ValueRange());
  return Tile{SmallVector<int64_t, 4>(shape), view, Value(),
              getContiguousStrides(shape)};
}

bool mlir::mirage::isElementwise(StringRef mnemonic) {
  return llvm::is_contained({"exp", "square", "sqrt", "rsqrt", "silu", "gelu",
                             "relu", "neg", "mul_scalar", "add", "sub", "mul",
                             "div", "pow"},
                            mnemonic);
}

Value mlir::mirage::emitElementwise(OpBuilder &b, Location loc,
                                    StringRef mnemonic, ValueRange operands,
                                    double scalar) {
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  Value x = operands[0];
  Value y = operands.size() > 1 ? operands[1] : Value();
  auto exp = [&](Value v) -> Value { return math::ExpOp::create(b, loc, v); };
  return llvm::StringSwitch<std::function<Value()>>(mnemonic)
      .Case("exp", [&]() -> Value { return exp(x); })
      .Case("square", [&]() -> Value { return arith::MulFOp::create(b, loc, x, x); })
      .Case("sqrt", [&]() -> Value { return math::SqrtOp::create(b, loc, x); })
      .Case("rsqrt",
            [&]() -> Value {
              return arith::DivFOp::create(b, loc, constant(1.0),
                                           math::SqrtOp::create(b, loc, x));
            })
      .Case("silu",
            [&]() -> Value {
              Value e = exp(arith::NegFOp::create(b, loc, x));
              return arith::DivFOp::create(
                  b, loc, x, arith::AddFOp::create(b, loc, constant(1.0), e));
            })
      .Case("gelu",
            [&]() -> Value {
              Value scaled = arith::MulFOp::create(
                  b, loc, x, constant(0.70710678118654752440));
              Value erf = math::ErfOp::create(b, loc, scaled);
              Value half = arith::MulFOp::create(b, loc, constant(0.5), x);
              return arith::MulFOp::create(
                  b, loc, half, arith::AddFOp::create(b, loc, constant(1.0), erf));
            })
      .Case("relu",
            [&]() -> Value {
              Value positive = arith::CmpFOp::create(
                  b, loc, arith::CmpFPredicate::OGT, x, constant(0.0));
              return arith::SelectOp::create(b, loc, positive, x, constant(0.0));
            })
      .Case("neg", [&]() -> Value { return arith::NegFOp::create(b, loc, x); })
      .Case("mul_scalar",
            [&]() -> Value {
              return arith::MulFOp::create(b, loc, x, constant(scalar));
            })
      .Case("add", [&]() -> Value { return arith::AddFOp::create(b, loc, x, y); })
      .Case("sub", [&]() -> Value { return arith::SubFOp::create(b, loc, x, y); })
      .Case("mul", [&]() -> Value { return arith::MulFOp::create(b, loc, x, y); })
      .Case("div", [&]() -> Value { return arith::DivFOp::create(b, loc, x, y); })
      .Case("pow", [&]() -> Value { return math::PowFOp::create(b, loc, x, y); })
      .Default([]() -> Value { llvm_unreachable("not an elementwise op"); })();
}
