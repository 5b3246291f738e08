//===- MirageJSONFormat.cpp - Vocabulary of the µGraph JSON format --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "MirageJSONFormat.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mirage;

namespace {
/// Compute ops, named as in the format without the level prefix and `_op`.
constexpr json_format::ComputeOp kComputeOps[] = {
    {"exp", 1},  {"silu", 1}, {"gelu", 1}, {"relu", 1},     {"sqrt", 1},
    {"square", 1}, {"rsqrt", 1}, {"rms_norm", 1}, {"add", 2}, {"sub", 2},
    {"mul", 2},  {"div", 2},  {"pow", 2},  {"matmul", 2},
};

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
  for (const ComputeOp &op : kComputeOps)
    if (op.mnemonic == opType)
      return op;
  return std::nullopt;
}

std::optional<std::string>
json_format::getComputeOpType(StringRef levelPrefix, StringRef mnemonic) {
  if (llvm::none_of(kComputeOps,
                    [&](const ComputeOp &op) { return op.mnemonic == mnemonic; }))
    return std::nullopt;
  return (levelPrefix + "_" + mnemonic + "_op").str();
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
