//===- MatmulAccumulator.h - Matmul sums kept in registers ------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The interface of a sum over the for-loop of a block matmul that stays in
// the threads' registers (a `forloop_accum` sum of a matmul computed in the
// loop), whatever tensor-core instruction computes the matmul.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_MATMULACCUMULATOR_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_MATMULACCUMULATOR_H

#include "KernelEmitter.h"

namespace mlir::mirage {

/// The sum over the for-loop of a block matmul kept in registers: every
/// thread carries its f32 sums from one iteration to the next as for-loop
/// iteration arguments, and the sums are written out once, after the loop.
///
/// Example, for a loop of `%m = matmul %a, %b` and `%s = forloop_accum %m
/// sum`:
///
///   // scf.for carrying sum.getNumRegisters() f32 zeros as `registers`:
///   registers = sum.accumulate(emitter, a, b, registers);
///   // after the loop:
///   sum.finish(emitter, loop.getResults(), out);
class MatmulAccumulator {
public:
  virtual ~MatmulAccumulator() = default;

  /// The f32 registers each thread carries through the loop.
  virtual int64_t getNumRegisters() const = 0;
  /// Emits one iteration: the registers after adding `lhs x rhs`.
  virtual SmallVector<Value> accumulate(KernelEmitter &emitter, const Tile &lhs,
                                        const Tile &rhs,
                                        ValueRange registers) = 0;
  /// Emits the registers after multiplying each row's sums by
  /// `factor(batch, row)` (a running maximum's rescaling). Only mma.sync
  /// sums have it: the schedule gives rescaled sums no other engine.
  virtual SmallVector<Value>
  scaleRows(KernelEmitter &emitter, ValueRange registers,
            function_ref<Value(ValueRange batch, Value row)> factor) {
    llvm_unreachable("only mma.sync sums are rescaled by rows");
  }
  /// Emits the end, after the loop: writes the sums in `registers` into
  /// `out`, rounded to its storage type, then synchronises the block.
  virtual void finish(KernelEmitter &emitter, ValueRange registers,
                      const Tile &out) = 0;
};

/// Emits `body(item)` for round `round` of the items workers take in turn
/// (a matmul's warps or warpgroups, the lanes of a register-rows group's
/// row, RegisterRowsNorm): worker `worker` of `workers` takes
/// items `worker`, `worker + workers`, ... of `items`. The round runs under
/// a guard when some workers have no item in it; `fallback` holds the values
/// it yields where the body does not run (as many as `body` returns, none
/// for a body that only stores).
SmallVector<Value>
emitItemOfRound(KernelEmitter &emitter, Value worker, int64_t workers,
                int64_t items, int64_t round, ValueRange fallback,
                function_ref<SmallVector<Value>(Value item)> body);

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_MATMULACCUMULATOR_H
