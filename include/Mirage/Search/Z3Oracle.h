//===- Z3Oracle.h - Subexpression queries under Mirage's axioms -*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Decides whether one abstract expression is a subexpression of another
// under the equivalence and subexpression axioms of the Mirage paper (§4.2),
// with Z3: expressions become terms over an uninterpreted sort, the axioms
// universally quantified formulas, and a query holds when its negation is
// unsatisfiable. Queries are cached. A syntactic subterm (the pool
// normalises commutative operands and nested sums) is a subexpression with no
// Z3 query. Quantifiers are instantiated by E-matching only, so "no" means
// the axioms, instantiated as their patterns direct, do not prove the query;
// a query Z3 cannot settle within the time limit is `Unknown`, and the
// search decides what to do with it (pruning is an optimisation, the
// verifier decides equivalence).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_Z3ORACLE_H
#define MIRAGE_SEARCH_Z3ORACLE_H

#include "Mirage/Search/AbstractExpr.h"

#include <memory>

namespace mlir::mirage::search {

/// The longest time limit of one query, in milliseconds: Z3's resource
/// budget for it must fit in 32 bits.
constexpr unsigned kMaxOracleTimeoutMs = 60000;

/// The answer to a query.
enum class Verdict { Yes, No, Unknown };

/// Counts of the queries an oracle answered.
struct OracleStatistics {
  int64_t queries = 0;
  int64_t cacheHits = 0;
  int64_t yes = 0;
  /// Of the yes answers, syntactic subterms (no Z3 query).
  int64_t syntactic = 0;
  int64_t no = 0;
  int64_t unknown = 0;
};

/// Subexpression queries over the expressions of one pool. Not thread-safe:
/// use one oracle per thread.
class Z3Oracle {
public:
  /// `timeoutMs` bounds each Z3 check, as the resource count Z3 spends in
  /// that time on this machine kind (deterministic, whatever the load);
  /// more than kMaxOracleTimeoutMs counts as kMaxOracleTimeoutMs.
  explicit Z3Oracle(const ExprPool &pool, unsigned timeoutMs = 500);
  ~Z3Oracle();

  /// Whether `part` is a subexpression of `whole`.
  Verdict isSubexpression(ExprId part, ExprId whole);

  const OracleStatistics &getStatistics() const { return statistics; }

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
  OracleStatistics statistics;
};

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_Z3ORACLE_H
