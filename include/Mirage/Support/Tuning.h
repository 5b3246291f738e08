//===- Tuning.h - Tuning groups of a module ---------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `mirage-superoptimize{emit-candidates=true}` marks the program as written
// and the candidates it emits with a `mirage.tuning` dictionary:
//
//   {key = "<64 hex digits>", compiler = "0.6.0+g...", candidate = -1 : i64}
//
// `key` is the program's key (sem::getProgramKey of the program as written),
// `compiler` the compiler version, `candidate` -1 for the program as written
// and the rank of the search's candidate otherwise. Functions of one key form
// a tuning group; `mirage-bundle` writes the dictionary into plan.json
// (`tuning`) and `mirage-tune` measures each group on a GPU
// (docs/Runtime.md, "Tuning").
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPPORT_TUNING_H
#define MIRAGE_SUPPORT_TUNING_H

#include "llvm/ADT/StringRef.h"

namespace mlir::mirage {

/// The attribute of a function of a tuning group.
inline constexpr llvm::StringLiteral kTuningAttrName = "mirage.tuning";

/// The attribute that marks a function whose measured winner is its Triton
/// form (value "triton"); the Python API runs such a function as its Triton
/// module.
inline constexpr llvm::StringLiteral kBackendAttrName = "mirage.backend";

/// The attribute (value false) that marks a function whose measured winner
/// ran faster without programmatic dependent launch; mirage-bundle writes
/// it into plan.json as "overlap": false, and the runtime then launches the
/// function's kernels one after the other (docs/Runtime.md, "Overlap").
inline constexpr llvm::StringLiteral kOverlapAttrName = "mirage.overlap";

/// The `candidate` of the program as written.
inline constexpr int64_t kAsWrittenCandidate = -1;

} // namespace mlir::mirage

#endif // MIRAGE_SUPPORT_TUNING_H
