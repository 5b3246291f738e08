//===- Program.h - Compact form of a Mirage program -------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The semantics engines and the search work on this representation rather
// than on MLIR ops: a program is a list of graphs (the kernel graph first,
// then the bodies of graph_defs and thread_graphs), each a list of nodes over
// numbered values. It is cheap to build, copy and evaluate thousands of times.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_PROGRAM_H
#define MIRAGE_SEMANTICS_PROGRAM_H

#include "Mirage/Dialect/Common/ElementwiseKind.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::mirage::sem {

/// Storage element type of a tensor or tile.
enum class ElementType : uint8_t { F16, BF16, F32 };

/// "f16", "bf16" or "f32".
llvm::StringRef getElementTypeName(ElementType type);

/// Shape and element type of one value. Scalars (thread-graph values) have an
/// empty shape.
struct ValueType {
  llvm::SmallVector<int64_t, 4> shape;
  ElementType elementType = ElementType::F32;

  int64_t getNumElements() const;
  bool operator==(const ValueType &other) const {
    return shape == other.shape && elementType == other.elementType;
  }
};

/// Every op of the three levels. The elementwise functions, which the levels
/// share, have no enumerator here: they take the values below `Matmul`, each
/// that of its ElementwiseKind (toOpKind, toElementwiseKind).
enum class OpKind : uint8_t {
  // Structural ops on tensors or tiles.
  Matmul = kNumElementwiseKinds,
  Reduction,
  ReductionMax,
  RmsNorm,
  Concat,
  Chunk,
  // Kernel level: a custom kernel whose body is another graph.
  GraphDef,
  // Block level.
  InputLoader,
  OutputSaver,
  ForloopAccum,
  ThreadGraph,
  ClusterReduce,
  ClusterGather,
  ClusterReduceScatter,
};

/// The op kind of elementwise function `kind`.
constexpr OpKind toOpKind(ElementwiseKind kind) {
  return static_cast<OpKind>(kind);
}
/// The elementwise function of `kind`, or nothing for the other ops.
constexpr std::optional<ElementwiseKind> toElementwiseKind(OpKind kind) {
  if (static_cast<unsigned>(kind) < kNumElementwiseKinds)
    return static_cast<ElementwiseKind>(kind);
  return std::nullopt;
}

/// The op's mnemonic (`exp`, `input_loader`, ...): that of its MLIR ops.
llvm::StringRef getOpName(OpKind kind);
/// The kind whose mnemonic is `name`, if any.
std::optional<OpKind> getOpKind(llvm::StringRef name);

/// True for the elementwise functions of one operand (mul_scalar included).
inline bool isUnary(OpKind kind) {
  std::optional<ElementwiseKind> fn = toElementwiseKind(kind);
  return fn && getElementwiseArity(*fn) == 1;
}
/// True for the elementwise functions of two operands.
inline bool isBinary(OpKind kind) {
  std::optional<ElementwiseKind> fn = toElementwiseKind(kind);
  return fn && getElementwiseArity(*fn) == 2;
}
/// True for the cluster collectives that sum a tile over a cluster's
/// blocks (`cluster_reduce`, `cluster_reduce_scatter`).
inline bool isClusterSum(OpKind kind) {
  return kind == OpKind::ClusterReduce || kind == OpKind::ClusterReduceScatter;
}

/// `forloop_accum` kinds (docs/LanguageReference.md, "Accumulators").
enum class AccumKind : uint8_t { Sum, SumLast, SumLastTo, RmsLast, Max };

/// The accumulator's name (`sum`, `rms_last`, ...), as mirage_block prints it.
llvm::StringRef getAccumName(AccumKind kind);
/// The accumulator named `name`, if any.
std::optional<AccumKind> getAccumKind(llvm::StringRef name);

/// One op. Attribute fields are used according to `kind`.
struct Node {
  OpKind kind;
  llvm::SmallVector<int32_t, 2> operands;
  llvm::SmallVector<int32_t, 1> results;
  /// reduction / concat / chunk / cluster_gather / cluster_reduce_scatter
  /// dimension; loader `fmap`.
  int64_t dim = -1;
  /// reduction size, rms_norm size, chunk parts, sum_last_to size.
  int64_t size = 1;
  /// mul_scalar factor, rms_norm eps.
  double scalar = 0.0;
  /// imap / omap: tensor dimension of grid axis x, y, z, or -1.
  std::array<int32_t, 3> map = {-1, -1, -1};
  AccumKind accum = AccumKind::Sum;
  /// graph_def / thread_graph: index of the body in Program::graphs.
  int32_t body = -1;
};

/// A list of nodes over numbered values, with its inputs and outputs.
struct Graph {
  std::vector<ValueType> values;
  std::vector<Node> nodes;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  /// Launch configuration of a graph_def body.
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> cluster = {1, 1, 1};
  int64_t forloop = 1;
  /// Threads per block of a graph_def body; 0: the materializer chooses
  /// (search::getBlockThreads).
  int64_t threads = 0;
  /// Whether a graph_def body copies its staged tiles with cp.async where
  /// the chip has TMA (the graph_def's `async_copies`).
  bool asyncCopies = false;

  int64_t getNumBlocks() const { return grid[0] * grid[1] * grid[2]; }
  int64_t getClusterSize() const {
    return cluster[0] * cluster[1] * cluster[2];
  }
};

/// A whole program. `graphs[0]` is the kernel graph.
struct Program {
  std::vector<Graph> graphs;

  const Graph &getKernelGraph() const { return graphs.front(); }
  /// Types of the kernel graph's inputs and outputs.
  llvm::SmallVector<ValueType> getInputTypes() const;
  llvm::SmallVector<ValueType> getOutputTypes() const;
};

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_PROGRAM_H
