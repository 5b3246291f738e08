//===- Interpreter.h - The reference interpreter ----------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One interpreter for every Mirage program, parameterised over the number
// system (Domains.h). It implements the semantics of
// docs/LanguageReference.md: kernel ops, graph_def bodies block by block and
// iteration by iteration (imap, fmap, loop phases,
// accumulators, omap), thread graphs, and cluster collectives, which it runs
// over all blocks of a cluster in lockstep.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_INTERPRETER_H
#define MIRAGE_SEMANTICS_INTERPRETER_H

#include "Mirage/Semantics/Domains.h"
#include "Mirage/Semantics/Limits.h"
#include "Mirage/Semantics/Program.h"
#include "Mirage/Semantics/Tensor.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace mlir::mirage::sem {

/// Evaluates programs in the number system `Domain`.
template <typename Domain> class Interpreter {
public:
  using Value = typename Domain::Value;

  explicit Interpreter(Domain &domain,
                       const EvaluationLimits &limits = EvaluationLimits())
      : domain(domain), limits(limits) {}

  /// Evaluates the kernel graph of `program` on `inputs` (one tensor per
  /// kernel input, of the declared shapes) into `outputs`. Fails with a
  /// message in `error` when the program exceeds the limits (before
  /// allocating anything), the inputs do not match, a value leaves the
  /// domain's fragment, or `deadline` passes.
  LogicalResult run(const Program &program, ArrayRef<Tensor<Value>> inputs,
                    std::vector<Tensor<Value>> &outputs, std::string &error,
                    const Deadline &deadline = Deadline());

private:
  Domain &domain;
  EvaluationLimits limits;
};

extern template class Interpreter<FloatDomain>;
extern template class Interpreter<FieldDomain>;

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_INTERPRETER_H
