//===- ChainedMatmul.h - Two matmuls chained in registers -------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The sum over the for-loop of `E x C`, where `E = f(A x B)` is computed in
// the same iteration and read by nothing else but the sums of its rows (the
// attention µGraphs' `exp(Q x K) x V` and row sums of `exp(Q x K)`), on
// `mma.sync` tensor cores with E in registers: the accumulator fragment of
// two neighbouring 8-column tiles of `A x B`, rounded to E's element type
// (f16 or bf16) and packed in pairs, is the lhs fragment of one 16-element step
// of `E x C` (FlashAttention's register reuse). Every warp computes whole
// 16-row strips of E, so that no other warp reads what it computes and no
// barrier or shared tile separates the two matmuls (docs/CodeGeneration.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_CHAINEDMATMUL_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_CHAINEDMATMUL_H

#include "KernelEmitter.h"
#include "Mirage/Analysis/MatmulShapes.h"

namespace mlir::mirage {

/// The sum over the for-loop of `E x C`, `E = f(A x B)` kept in registers,
/// and optionally the sum over the loop of E's rows (`forloop_accum
/// sum_last` of E). A *strip* is 16 rows of E at one batch index. With at
/// least as many strips as warps, warp `w` takes strips `w`, `w + warps`,
/// ...; with fewer, the warps split the columns of E (the contracting
/// dimension of `E x C`) into `warps / strips` slices and warp `w` takes
/// strip `w % strips` over slice `w / strips`. For each of its strips a
/// thread carries the 4 f32 sums of each 16x8 tile of `E x C`'s strip, and
/// the partial sums of E's two rows it holds. Requires canChainMatmuls.
///
/// With a running maximum (online softmax, `E = exp(T - M)`), each strip
/// of each slice also carries the maximum so far of its two rows: an
/// iteration computes all of the slice's scores T, raises the maxima to
/// their row maxima (4-lane shuffles), multiplies the sums by `exp(old -
/// new)` and only then takes E. Each slice keeps its own maxima through the
/// loop; at its end the block's maximum is the slices' largest, and each
/// slice's sums are rescaled by `exp(m_slice - max)` as they are added.
///
/// Example, for a loop of `%e = exp(matmul %a, %b)`, `%p = matmul %e, %c`,
/// `%s = forloop_accum %p sum` and `%r = forloop_accum %e sum_last`:
///
///   // scf.for carrying chain.getInitialRegisters() as `registers`:
///   registers = chain.accumulate(emitter, a, b, c, roundedExp, nullptr,
///                                registers);
///   // after the loop:
///   chain.finishProduct(emitter, loop.getResults(), s, nullptr);
///   chain.finishRowSums(emitter, loop.getResults(), r, nullptr);
class ChainedMatmulSum : public ChainShape {
public:
  /// For E of `intermediateShape` and `intermediateType` elements from
  /// `depth`-element dot products, a product `E x C` of `columns` columns,
  /// in blocks of `numThreads` threads, with E's row sums if `rowSums` and
  /// a running maximum of its rows if `runningMax`.
  ChainedMatmulSum(ArrayRef<int64_t> intermediateShape, Type intermediateType,
                   int64_t depth, int64_t columns, int64_t numThreads,
                   bool rowSums, bool runningMax);

  /// The registers before the loop: zero sums, maxima of -inf.
  SmallVector<Value> getInitialRegisters(KernelEmitter &emitter) const;
  /// Emits one iteration: the registers after adding `E x productRhs` and
  /// the row sums of E. Without a running maximum, E is `intermediate` of
  /// the f32 sums of `lhs x rhs`, given a fragment's sums at a time (the f32
  /// values of E's elements, already rounded to E's element type). With
  /// one, `intermediate` gives the scores T and E is `shift(scores,
  /// maxima)`, each score with its row's maximum so far.
  SmallVector<Value> accumulate(
      KernelEmitter &emitter, const Tile &lhs, const Tile &rhs,
      const Tile &productRhs,
      function_ref<SmallVector<Value>(ValueRange sums)> intermediate,
      function_ref<SmallVector<Value>(ValueRange scores, ValueRange maxima)>
          shift,
      ValueRange registers) const;
  /// Emits, before the loop, the loads of this thread's fragments of `lhs`,
  /// which no iteration changes (the queries of attention); accumulate then
  /// uses them instead of loading them in every iteration.
  void preloadLhs(KernelEmitter &emitter, const Tile &lhs);
  /// Emits the end of the running maximum, after the loop: writes the
  /// largest of the slices' maxima into `out` (batch dimensions, rows, 1),
  /// rounded to its storage type; then synchronises the block. Requires
  /// runningMax.
  void finishMaxima(KernelEmitter &emitter, ValueRange registers,
                    const Tile &out) const;
  /// Emits the end of `E x C`'s sum, after the loop: writes it into `out`
  /// (of `E x C`'s shape), rounded to its storage type, the slices' partial
  /// sums added in slice order, each first rescaled to the block's maxima
  /// `maxima` (finishMaxima's `out`; null without a running maximum); then
  /// synchronises the block.
  void finishProduct(KernelEmitter &emitter, ValueRange registers,
                     const Tile &out, const Tile *maxima) const;
  /// Emits the end of the row sums, after the loop: writes them into `out`
  /// (batch dimensions, rows, 1), rounded to its storage type, the slices'
  /// partial sums added in slice order, each first rescaled to `maxima` as
  /// finishProduct's; then synchronises the block. Requires rowSums.
  void finishRowSums(KernelEmitter &emitter, ValueRange registers,
                     const Tile &out, const Tile *maxima) const;

private:
  friend class ChainEmitter;

  SmallVector<int64_t, 4> intermediateShape;
  Type intermediateType;
  int64_t depth;
  /// Set by preloadLhs: per strip of this thread's warp, the lhs fragment
  /// of every 16-element step of `depth`.
  SmallVector<SmallVector<SmallVector<Value, 4>>> lhsFragments;
};

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_CHAINEDMATMUL_H
