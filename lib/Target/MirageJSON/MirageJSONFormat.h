//===- MirageJSONFormat.h - Vocabulary of the µGraph JSON format -*- C++
//-*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The op names and codes of the public implementation's saved µGraphs, shared
// by the importer and the exporter so that both read one table.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_TARGET_MIRAGEJSON_MIRAGEJSONFORMAT_H
#define MIRAGE_LIB_TARGET_MIRAGEJSON_MIRAGEJSONFORMAT_H

#include "Mirage/Dialect/Block/IR/BlockAttrs.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::mirage::json_format {

/// The fp16 data_type code written on export (the 2024 generation's).
constexpr int64_t kF16Code = 921;
/// fp16 codes of both generations: 921, 940, 941.
bool isF16Code(int64_t code);

/// A compute op shared by both levels: our mnemonic and operand count.
struct ComputeOp {
  StringRef mnemonic;
  unsigned numOperands;
};
/// The compute op named `opType` (`kn_exp_op`, `tb_matmul_op`, ...).
std::optional<ComputeOp> lookupComputeOp(StringRef opType);
/// `kn_<mnemonic>_op` or `tb_<mnemonic>_op` for kernel or block compute op
/// `op` (an elementwise op, matmul or rms_norm), when the format has it.
std::optional<std::string> getComputeOpType(StringRef levelPrefix,
                                            Operation *op);

/// The accumulator `opType` names, in either generation
/// (`tb_accum_nored_op`, `tb_forloop_accum_red_ld_sum_op`, ...).
std::optional<block::AccumKind> lookupAccumKind(StringRef opType);
/// The 2024 name of an accumulator, when the format has it.
std::optional<std::string> getAccumOpType(block::AccumKind kind);

/// Strides of a dense row-major tensor.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape);

} // namespace mlir::mirage::json_format

#endif // MIRAGE_LIB_TARGET_MIRAGEJSON_MIRAGEJSONFORMAT_H
