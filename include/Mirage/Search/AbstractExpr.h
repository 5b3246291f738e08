//===- AbstractExpr.h - Abstract expressions of Mirage values ---*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The abstract expression of a value (the Mirage paper, §4.2) says what it
// computes from the program inputs while forgetting where each element
// lives: `matmul(a, b)` is `sum(k, mul(a, b))`, a tile is the expression of
// the tensor it is cut from, a for-loop accumulator sums over the
// iterations. The search keeps a partial µGraph only if every value's
// expression is a subexpression of the reference's outputs (Z3Oracle.h).
//
// Expressions are hash-consed in an ExprPool: equal expressions have equal
// ids. Construction applies the cheap normalisations (operands of add and mul
// sorted, nested sums merged) so that many equalities hold by identity.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_ABSTRACTEXPR_H
#define MIRAGE_SEARCH_ABSTRACTEXPR_H

#include "Mirage/Semantics/Program.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

namespace mlir::mirage::search {

/// The operators of abstract expressions.
enum class ExprKind : uint8_t {
  /// Program input `index`.
  Input,
  /// A scalar constant (its value in `constant`).
  Constant,
  Add,
  Mul,
  Div,
  Pow,
  Exp,
  Sqrt,
  Silu,
  Gelu,
  Relu,
  /// `max` over `count` elements (a max accumulator).
  Max,
  /// The sum of `count` elements of its operand.
  Sum,
  /// Concatenation: its operands side by side.
  Concat,
};

/// An expression id; equal ids mean equal expressions.
using ExprId = int32_t;

/// One node of the expression DAG.
struct ExprNode {
  ExprKind kind;
  /// Input index, or the number of summed (maxed) elements.
  int64_t count = 0;
  double constant = 0.0;
  llvm::SmallVector<ExprId, 2> operands;

  bool operator==(const ExprNode &other) const {
    return kind == other.kind && count == other.count &&
           constant == other.constant && operands == other.operands;
  }
};

/// Hash-consed expressions.
class ExprPool {
public:
  ExprId input(int64_t index);
  ExprId constant(double value);
  ExprId add(ExprId a, ExprId b);
  ExprId mul(ExprId a, ExprId b);
  ExprId div(ExprId a, ExprId b);
  ExprId pow(ExprId a, ExprId b);
  /// A function of one operand: Exp, Sqrt, Silu, Gelu or Relu.
  ExprId apply(ExprKind kind, ExprId a);
  /// The sum of `count` elements of `a`; sum(1, a) is `a` and
  /// sum(i, sum(j, a)) is sum(i * j, a).
  ExprId sum(int64_t count, ExprId a);
  ExprId max(int64_t count, ExprId a);
  ExprId concat(ExprId a, ExprId b);

  const ExprNode &get(ExprId id) const { return nodes[id]; }
  size_t size() const { return nodes.size(); }

  /// Prints `id` as a term, e.g. `sum(4096, mul(in0, in1))`.
  void print(llvm::raw_ostream &os, ExprId id) const;
  std::string toString(ExprId id) const;

private:
  ExprId intern(ExprNode node);

  std::vector<ExprNode> nodes;
  llvm::DenseMap<llvm::hash_code, llvm::SmallVector<ExprId, 1>> index;
};

/// The abstract expression of every value of every graph of `program`:
/// `result[g][v]` for value `v` of graph `g` (thread-graph scalars included).
/// Graph_def and thread_graph bodies get the expressions of their operands.
std::vector<std::vector<ExprId>> computeExpressions(const sem::Program &program,
                                                    ExprPool &pool);

/// The expression of the one result of `node`, an op of `graph` other than
/// graph_def and thread_graph, from the expressions of its operands.
ExprId computeNodeExpression(ExprPool &pool, const sem::Graph &graph,
                             const sem::Node &node,
                             llvm::ArrayRef<ExprId> operands);

/// `expr` with every sum of `chunk` elements widened to `chunk * splits`
/// elements, when `expr` is linear in those sums: each term of `expr` as a
/// sum of products holds exactly one of them, and none lies under a
/// function, a divisor, a power or a max. Each of `splits` blocks that
/// computes `expr` over its chunk of a reduced dimension then holds one
/// term of a sum whose total is the widened expression (a *linear split*:
/// split-K of `X W + (X A) B`, whose blocks add their partial `X_s W_s` and
/// `(X_s A_s) B`). Nothing otherwise.
///
/// Example: with chunk 1024 and splits 4,
/// `add(sum(1024, mul(in0, in1)), sum(16, mul(sum(1024, mul(in0, in2)), in3)))`
/// widens to the same term over sums of 4096; `exp(sum(1024, x))` and
/// `add(sum(1024, x), in3)` do not widen.
std::optional<ExprId> widenSplitSums(ExprPool &pool, ExprId expr, int64_t chunk,
                                     int64_t splits);

/// The expressions of the kernel graph's outputs.
llvm::SmallVector<ExprId> computeOutputExpressions(const sem::Program &program,
                                                   ExprPool &pool);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_ABSTRACTEXPR_H
