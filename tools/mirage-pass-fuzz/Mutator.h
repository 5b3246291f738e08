//===- Mutator.h - Structure-aware mutations of Mirage programs -*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Mutations of the textual form of Mirage programs for the pass-pipeline
// fuzzer (docs/Fuzzing.md): the text is cut into tokens (numbers, words,
// SSA and symbol names, punctuation), and a mutation changes a few of them
// as a hostile user would: an extent, grid size or map entry set to a
// neighbouring or boundary value, one extent rescaled everywhere (which
// keeps most programs well typed), an op swapped for another of its kind,
// element types changed, operands exchanged, lines deleted, duplicated or
// taken from another program. A mutation depends only on its inputs and the
// seed.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TOOLS_PASSFUZZ_MUTATOR_H
#define MIRAGE_TOOLS_PASSFUZZ_MUTATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::mirage::fuzz {

/// `program` with 1 to 3 mutations drawn from `seed`; `donors` (possibly
/// empty) are programs whose lines a crossover may take.
std::string mutateProgram(llvm::StringRef program,
                          llvm::ArrayRef<std::string> donors, uint64_t seed);

} // namespace mlir::mirage::fuzz

#endif // MIRAGE_TOOLS_PASSFUZZ_MUTATOR_H
