//===- MirageJSONFormat.cpp - Vocabulary of the µGraph JSON format --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "MirageJSONFormat.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mirage;

namespace {
/// The elementwise functions the format has (not neg or mul_scalar). It names
/// them as we do (stringifyElementwiseKind), without the level prefix and
/// `_op`.
constexpr ElementwiseKind kElementwiseOps[] = {
    ElementwiseKind::Exp,   ElementwiseKind::Silu, ElementwiseKind::Gelu,
    ElementwiseKind::Relu,  ElementwiseKind::Sqrt, ElementwiseKind::Square,
    ElementwiseKind::Rsqrt, ElementwiseKind::Add,  ElementwiseKind::Sub,
    ElementwiseKind::Mul,   ElementwiseKind::Div,  ElementwiseKind::Pow,
};

/// The other compute ops, named as in the format.
constexpr json_format::ComputeOp kOtherComputeOps[] = {
    {"rms_norm", 1},
    {"matmul", 2},
};

/// The name of elementwise function `kind` in the format, if it has it.
std::optional<StringRef> getElementwiseName(ElementwiseKind kind) {
  if (!llvm::is_contained(kElementwiseOps, kind))
    return std::nullopt;
  return stringifyElementwiseKind(kind);
}

/// Accumulators, by the suffix after `tb_accum_` / `tb_forloop_accum_`.
constexpr std::pair<StringLiteral, block::AccumKind> kAccumulators[] = {
    {"nored", block::AccumKind::Sum},
    {"red_ld_sum", block::AccumKind::SumLast},
    {"red_ld_rms", block::AccumKind::RmsLast},
    {"redtox_ld_sum", block::AccumKind::SumLastTo},
};
} // namespace

bool json_format::isF16Code(int64_t code) {
  return code == 921 || code == 940 || code == 941;
}

std::optional<json_format::ComputeOp>
json_format::lookupComputeOp(StringRef opType) {
  if (!(opType.consume_front("kn_") || opType.consume_front("tb_")) ||
      !opType.consume_back("_op"))
    return std::nullopt;
  if (std::optional<ElementwiseKind> kind = symbolizeElementwiseKind(opType)) {
    std::optional<StringRef> name = getElementwiseName(*kind);
    if (!name)
      return std::nullopt;
    return ComputeOp{*name, getElementwiseArity(*kind)};
  }
  for (const ComputeOp &op : kOtherComputeOps)
    if (op.mnemonic == opType)
      return op;
  return std::nullopt;
}

std::optional<std::string> json_format::getComputeOpType(StringRef levelPrefix,
                                                         Operation *op) {
  std::optional<StringRef> name;
  if (std::optional<ElementwiseKind> kind = getElementwiseKind(op))
    name = getElementwiseName(*kind);
  else if (isa<kernel::MatmulOp, block::MatmulOp>(op))
    name = "matmul";
  else if (isa<kernel::RmsNormOp, block::RmsNormOp>(op))
    name = "rms_norm";
  if (!name)
    return std::nullopt;
  return (levelPrefix + "_" + *name + "_op").str();
}

std::optional<block::AccumKind> json_format::lookupAccumKind(StringRef opType) {
  if (!(opType.consume_front("tb_accum_") ||
        opType.consume_front("tb_forloop_accum_")) ||
      !opType.consume_back("_op"))
    return std::nullopt;
  for (auto [name, kind] : kAccumulators)
    if (name == opType)
      return kind;
  return std::nullopt;
}

std::optional<std::string> json_format::getAccumOpType(block::AccumKind kind) {
  for (auto [name, candidate] : kAccumulators)
    if (candidate == kind)
      return ("tb_accum_" + name + "_op").str();
  return std::nullopt;
}

SmallVector<int64_t> json_format::rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}
