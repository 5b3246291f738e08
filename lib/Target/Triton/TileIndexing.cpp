//===- TileIndexing.cpp - Padded tiles and their Python spelling ----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TileIndexing.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::triton;

/// Triton's smallest `tl.dot` extent along M, N and K.
static constexpr int64_t kMinDotExtent = 16;

int64_t triton::paddedExtent(int64_t extent) {
  if (extent == 1)
    return 1;
  return std::max<int64_t>(kMinDotExtent, llvm::PowerOf2Ceil(extent));
}

int64_t triton::paddedExtent(int64_t extent, unsigned dim, unsigned rank) {
  if (dim + 2 >= rank)
    return paddedExtent(extent);
  return static_cast<int64_t>(llvm::PowerOf2Ceil(extent));
}

SmallVector<int64_t> triton::paddedShape(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> padded;
  for (auto [dim, extent] : llvm::enumerate(shape))
    padded.push_back(paddedExtent(extent, dim, shape.size()));
  return padded;
}

SmallVector<int64_t> triton::rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

std::string triton::tupleLiteral(ArrayRef<int64_t> values) {
  std::string text =
      "(" + llvm::join(llvm::map_range(
                           values, [](int64_t v) { return std::to_string(v); }),
                       ", ");
  return text + (values.size() == 1 ? ",)" : ")");
}

std::string triton::alongDim(StringRef expr, unsigned dim, unsigned rank) {
  if (rank == 1)
    return expr.str();
  SmallVector<StringRef> slots(rank, "None");
  slots[dim] = ":";
  return ("(" + expr + ")[" + llvm::join(slots, ", ") + "]").str();
}

std::string triton::laneRange(int64_t extent) {
  return llvm::formatv("tl.arange(0, {0})", extent).str();
}

std::string triton::dimMask(ArrayRef<int64_t> shape, unsigned dim) {
  int64_t padded = paddedExtent(shape[dim], dim, shape.size());
  if (padded == shape[dim])
    return "";
  return alongDim(laneRange(padded) + " < " + std::to_string(shape[dim]), dim,
                  shape.size());
}

std::string triton::tileMask(ArrayRef<int64_t> shape, ArrayRef<unsigned> dims) {
  SmallVector<std::string> masks;
  for (unsigned dim : dims)
    if (std::string mask = dimMask(shape, dim); !mask.empty())
      masks.push_back(mask);
  return llvm::join(masks, " & ");
}

std::string triton::tileMask(ArrayRef<int64_t> shape) {
  SmallVector<unsigned> dims = llvm::to_vector(
      llvm::seq<unsigned>(0, static_cast<unsigned>(shape.size())));
  return tileMask(shape, dims);
}

std::string triton::masked(StringRef mask, StringRef expr, StringRef fill) {
  if (mask.empty())
    return expr.str();
  return ("tl.where(" + mask + ", " + expr + ", " + fill + ")").str();
}

std::string triton::tritonDType(Type type) {
  if (type.isF16())
    return "tl.float16";
  if (type.isBF16())
    return "tl.bfloat16";
  return "tl.float32";
}

std::string triton::torchDType(Type type) {
  if (type.isF16())
    return "torch.float16";
  if (type.isBF16())
    return "torch.bfloat16";
  return "torch.float32";
}

std::string triton::floatLiteral(double value) {
  if (std::isnan(value))
    return "float(\"nan\")";
  if (std::isinf(value))
    return value > 0 ? "float(\"inf\")" : "float(\"-inf\")";
  // Nine significant digits read back every f32 (the attributes' type).
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.9g", value);
  std::string text = buffer;
  if (text.find_first_of(".en") == std::string::npos)
    text += ".0";
  return text;
}

std::string triton::scaled(StringRef expr, int64_t factor) {
  if (factor == 0)
    return "";
  if (factor == 1)
    return expr.str();
  return (expr + " * " + std::to_string(factor)).str();
}

std::string triton::sumOf(ArrayRef<std::string> terms) {
  SmallVector<StringRef> kept;
  for (const std::string &term : terms)
    if (!term.empty())
      kept.push_back(term);
  return kept.empty() ? "0" : llvm::join(kept, " + ");
}
