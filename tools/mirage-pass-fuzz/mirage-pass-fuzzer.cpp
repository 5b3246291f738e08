//===- mirage-pass-fuzzer.cpp - libFuzzer target for the pass pipelines ---===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The libFuzzer form of mirage-pass-fuzz (docs/Fuzzing.md): libFuzzer's
// custom mutator is the structure-aware Mutator, and every input runs
// through each pipeline of Pipelines.h in process. A pipeline that fails
// without an error diagnostic aborts; crashes, sanitizer reports, timeouts
// and memory beyond -rss_limit_mb are libFuzzer's to catch.
//
//===----------------------------------------------------------------------===//

#include "Mutator.h"
#include "Pipelines.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace mlir::mirage::fuzz;

/// See mirage-json-fuzzer.cpp: libMLIR.so is not instrumented, and its
/// inlined BumpPtrAllocator writes into slabs our code poisoned.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  std::string mutated = mutateProgram(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), {}, seed);
  size_t length = std::min(mutated.size(), maxSize);
  std::memcpy(data, mutated.data(), length);
  return length;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef program(reinterpret_cast<const char *>(data), size);
  // A small search budget keeps each input well under libFuzzer's timeout.
  Budget budget;
  budget.searchSeconds = 0.5;
  budget.checkSeconds = 2.0;
  for (Pipeline pipeline : getPipelines())
    if (runPipeline(pipeline, program, budget) == Outcome::FailedSilently) {
      llvm::errs() << "mirage-pass-fuzzer: " << getPipelineName(pipeline)
                   << " failed without an error diagnostic\n";
      std::abort();
    }
  return 0;
}
