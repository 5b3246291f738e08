//===- TestSubexpressions.cpp - mirage-test-subexpressions ----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "Mirage/Search/AbstractExpr.h"
#include "Mirage/Search/Z3Oracle.h"
#include "Mirage/Semantics/Import.h"
#include "Mirage/Transforms/ReferenceFunction.h"

namespace mlir::mirage::test {
#define GEN_PASS_DEF_TESTSUBEXPRESSIONSPASS
#include "TestPasses.h.inc"
} // namespace mlir::mirage::test

using namespace mlir;
using namespace mlir::mirage;
using search::ExprId;
using search::Verdict;

namespace {

struct TestSubexpressionsPass
    : mirage::test::impl::TestSubexpressionsPassBase<TestSubexpressionsPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<ReferenceAndCandidates> functions =
        findReferenceAndCandidates(getOperation(), reference);
    if (failed(functions))
      return signalPassFailure();
    FailureOr<sem::Program> refProgram =
        sem::buildProgram(functions->reference);
    if (failed(refProgram))
      return signalPassFailure();
    search::ExprPool pool;
    SmallVector<ExprId> outputs =
        search::computeOutputExpressions(*refProgram, pool);
    search::Z3Oracle oracle(pool, timeout);
    for (func::FuncOp candidate : functions->candidates)
      if (failed(check(candidate, pool, oracle, outputs)))
        return signalPassFailure();
  }

  /// Reports how many values of `candidate` are subexpressions of one of the
  /// reference's `outputs`.
  LogicalResult check(func::FuncOp candidate, search::ExprPool &pool,
                      search::Z3Oracle &oracle, ArrayRef<ExprId> outputs) {
    FailureOr<sem::Program> program = sem::buildProgram(candidate);
    if (failed(program))
      return failure();
    std::vector<std::vector<ExprId>> exprs =
        search::computeExpressions(*program, pool);
    int64_t yes = 0, no = 0, unknown = 0;
    std::optional<ExprId> firstMiss;
    for (auto [g, graph] : llvm::enumerate(program->graphs))
      for (const sem::Node &node : graph.nodes)
        for (int32_t value : node.results) {
          ExprId expr = exprs[g][value];
          Verdict verdict = Verdict::No;
          for (ExprId output : outputs) {
            Verdict v = oracle.isSubexpression(expr, output);
            if (v == Verdict::Yes ||
                (v == Verdict::Unknown && verdict == Verdict::No))
              verdict = v;
            if (verdict == Verdict::Yes)
              break;
          }
          yes += verdict == Verdict::Yes;
          unknown += verdict == Verdict::Unknown;
          if (verdict == Verdict::No && !no++)
            firstMiss = expr;
        }
    numSubexpressions += yes;
    numNotSubexpressions += no;
    numUnknown += unknown;
    InFlightDiagnostic remark = emitRemark(candidate.getLoc())
                                << yes + no + unknown << " values: " << yes
                                << " subexpressions of the reference, " << no
                                << " not, " << unknown << " unknown";
    if (firstMiss)
      remark << " (first not: " << pool.toString(*firstMiss) << ")";
    return success();
  }
};

} // namespace
