//===- Pipelines.h - The pass pipelines the fuzzer runs ---------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The pipelines the pass-pipeline fuzzer (docs/Fuzzing.md) runs on every
// program, in process: mirage-superoptimize with a small budget,
// mirage-check-equivalence, mirage-to-ptx-pipeline for sm_90a and the bundle
// writer. Each must end in success or with an error diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_PASSFUZZ_PIPELINES_H
#define MIRAGE_TOOLS_PASSFUZZ_PIPELINES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::mirage::fuzz {

enum class Pipeline { Superoptimize, CheckEquivalence, ToPTX, Bundle };

/// Every pipeline, in the order the fuzzer runs them.
llvm::ArrayRef<Pipeline> getPipelines();
/// The pipeline's name on the command line (`superoptimize`,
/// `check-equivalence`, `to-ptx`, `bundle`).
llvm::StringRef getPipelineName(Pipeline pipeline);
/// The pipeline named `name`, if any.
std::optional<Pipeline> lookupPipeline(llvm::StringRef name);

/// How a pipeline ended on a program.
enum class Outcome {
  /// The program passed.
  Succeeded,
  /// The parser or a pass refused it with an error diagnostic.
  Diagnosed,
  /// A pass failed without an error diagnostic: a bug.
  FailedSilently,
};

/// The budgets of the passes that search or evaluate.
struct Budget {
  /// mirage-superoptimize's time-limit, in seconds.
  double searchSeconds = 1.0;
  /// mirage-check-equivalence's time-limit, in seconds.
  double checkSeconds = 5.0;
  /// mirage-check-equivalence's max-memory, in bytes.
  int64_t checkBytes = int64_t(1) << 30;
};

/// Parses `program` and runs `pipeline` on it in a context of its own, with
/// every diagnostic swallowed. The bundle writer writes into a temporary
/// directory that it removes. mirage-check-equivalence needs a reference and
/// a candidate: a program of one function is checked against the first
/// function of `reference` (the program it was mutated from), when given.
Outcome runPipeline(Pipeline pipeline, llvm::StringRef program,
                    const Budget &budget, llvm::StringRef reference = "");

} // namespace mlir::mirage::fuzz

#endif // MIRAGE_TOOLS_PASSFUZZ_PIPELINES_H
