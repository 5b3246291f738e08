//===- Tuner.h - Measured selection among a program's candidates -*- C++ -*-=//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Runs every function of a tuning group on the same random inputs, checks
// the candidates against the program as written, times the correct ones as
// CUDA graphs with a cold and with a warm L2 cache, and names the fastest
// (docs/Runtime.md, "Tuning"). mirage-tune records the result in the tuning
// database.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_TUNER_H
#define MIRAGE_RUNTIME_TUNER_H

#include "mirage/runtime/Bundle.h"
#include "mirage/runtime/Numerics.h"
#include "mirage/runtime/TuningDatabase.h"
#include "mirage/runtime/TuningGroup.h"

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mirage::runtime {

/// How the tuner measures.
struct TuneOptions {
  /// Timed runs per function; the median is reported. At least 1.
  int runs = 50;
  /// Untimed runs before the timed ones. At least 0.
  int warmup = 5;
  /// The largest maximum relative error of a correct candidate (> 0).
  double rtol = 2e-2;
  /// Seed of the random inputs.
  uint64_t seed = 1;
  /// Inputs are normal(0, 1) · inputScale (> 0), as in the kernel
  /// benchmark: at 0.1 attention scores stay far below exp's f16 overflow.
  double inputScale = 0.1;
};

/// Calls per launch of the warm timing's CUDA graph (as
/// triton.testing.do_bench_cudagraph replays several calls per graph).
inline constexpr int warmCalls = 10;

/// A function whose cold time is at least this many times the fastest time
/// of its group so far is timed cold only: not warm, and not again without
/// programmatic dependent launch. Its time is the cold one. In every tuning
/// database of bench/results a warm time is at most 4.0 times below its
/// cold one (a 1 MB add whose inputs stay in L2 between calls), so such a
/// function cannot win, while timing it whole took most of a prefill
/// program's tuning: its generated candidates run 6 to 48 times slower than
/// the program as written, and the warm timing calls each ten times a
/// replay.
inline constexpr double coldOnlyFactor = 8.0;

/// How many times the tuner shrinks the inputs (by 16x each time) when the
/// program as written gives non-finite outputs, before giving up.
inline constexpr int maxInputShrinks = 3;

/// Measures the tuning groups of one loaded bundle. Holds a stream, CUDA
/// events and a buffer for flushing the L2 cache in the bundle's context.
class Tuner {
public:
  /// Prepares to tune groups of `bundle`, which must outlive the tuner.
  /// Fails with InvalidArgument for options out of range.
  static Expected<std::unique_ptr<Tuner>> create(const Bundle &bundle,
                                                 const TuneOptions &options);

  Tuner(const Tuner &) = delete;
  Tuner &operator=(const Tuner &) = delete;
  ~Tuner();

  /// Tunes `group`, a group of the bundle's plan (groupTuningFunctions):
  /// fills its inputs with seeded values normal(0, 1) · inputScale; while
  /// the program as written gives a non-finite output, draws them again 16x
  /// smaller (at most maxInputShrinks times, then fails: candidates cannot
  /// be judged against infinities). Runs the program as written, then each
  /// candidate into outputs pre-filled with
  /// NaN; judges each candidate against the program as written
  /// (judgeOutputs with `rtol`); a candidate that fails to run is Failed
  /// with the error. Then times each correct function twice, its launches
  /// captured into CUDA graphs, `warmup` untimed runs and the median of
  /// `runs` each: cold, the L2 cache flushed (a memset of twice its size)
  /// before each timed launch of one call; warm, each timed launch a graph
  /// of warmCalls back-to-back calls, divided by warmCalls. The function's
  /// time is the lower of the two, as in the kernel benchmark, so that a
  /// kernel whose inputs fit in L2 is judged as it runs there. Returns the
  /// entry to
  /// record, dated now, won by the fastest correct function
  /// (fastestCorrect), with that function's program. Fails when the
  /// program as written cannot be run or timed, or when a failure leaves
  /// the CUDA context unusable.
  ///
  /// `measured` are measurements of the group's functions that the caller
  /// made itself (the Triton forms, which only Python can run), with the
  /// same inputs' distribution, rule and timing method; they join the
  /// entry after the tuner's own and compete for the win (a tie goes to
  /// the tuner's own). Each must name a function of the group with its
  /// candidate number and a backend other than PTX, else InvalidArgument.
  Expected<TuningEntry>
  tune(const TuningGroup &group,
       const std::vector<TuningMeasurement> &measured = {});

  /// The input scale the last tune() settled on.
  double lastInputScale() const { return inputScale; }

private:
  Tuner(const Bundle &bundle, const TuneOptions &options)
      : bundle(bundle), options(options) {}
  Error prepare();

  /// Runs `function` once into `outputs` (pre-filled with NaN) and returns
  /// the outputs' values.
  Expected<std::vector<std::vector<float>>>
  runOnce(const Function &function, const std::vector<TensorArg> &inputs,
          const std::vector<TensorArg> &outputs);

  /// Runs `functions` (the program as written first) and judges each
  /// against the first. Fails when the program as written fails or the
  /// context becomes unusable.
  Expected<std::vector<TuningMeasurement>>
  check(const std::vector<const Function *> &functions,
        const std::vector<TensorArg> &inputs,
        const std::vector<TensorArg> &outputs);

  /// Times the functions whose measurement (index for index) is Ok; a
  /// candidate that cannot be timed becomes Failed. Fails when the program
  /// as written cannot be timed or the context becomes unusable.
  Error timeCorrect(const std::vector<const Function *> &functions,
                    const std::vector<TensorArg> &inputs,
                    const std::vector<TensorArg> &outputs,
                    std::vector<TuningMeasurement> &measurements);

  /// Times `function` cold and warm (see tune()) into `measurement`'s
  /// coldUs, warmUs and medianUs: with programmatic dependent launch, and
  /// where the bundle may overlap its kernels (Bundle::mayOverlap) also
  /// without; the faster is kept, and `overlap` says which. A cold time at
  /// least coldOnlyFactor times `fastestUs` (the group's fastest so far)
  /// ends the timing there, warmUs unset and a message saying so.
  Error time(const Function &function, const std::vector<TensorArg> &inputs,
             const std::vector<TensorArg> &outputs,
             TuningMeasurement &measurement, std::optional<double> fastestUs);

  /// The median time in microseconds of one call of `function` over `runs`
  /// launches of a CUDA graph of `calls` back-to-back calls, after `warmup`
  /// untimed ones; with `flush`, the L2 cache is overwritten before each;
  /// `overlap` as for Bundle::run.
  Expected<double> timeGraph(const Function &function,
                             const std::vector<TensorArg> &inputs,
                             const std::vector<TensorArg> &outputs, int calls,
                             bool flush, bool overlap);

  /// Fills `inputs` (of the types `types`) with values normal(0, 1) ·
  /// `scale` drawn from `source`, rounded to each dtype.
  Error fillInputs(const std::vector<TensorType> &types,
                   const std::vector<TensorArg> &inputs, RandomSource &source,
                   double scale);

  const Bundle &bundle;
  TuneOptions options;
  double inputScale = 0;
  CUstream stream = nullptr;
  /// A start and a stop event per timed run.
  std::vector<CUevent> events;
  /// Overwritten before every timed run to evict the L2 cache.
  CUdeviceptr flushBuffer = 0;
  size_t flushBytes = 0;
};

/// The tuning groups of `bundle` (groupTuningFunctions of its plan), or
/// InvalidBundle naming `bundleName` when none is there to tune.
Expected<std::vector<TuningGroup>>
getTuningGroups(const Bundle &bundle, const std::string &bundleName);

/// `measured`, the caller's measurements of functions of `groups`, split
/// by group (index for index). InvalidArgument, naming the measurement,
/// for one whose function is in no group.
Expected<std::vector<std::vector<TuningMeasurement>>>
splitMeasurements(const std::vector<TuningGroup> &groups,
                  std::vector<TuningMeasurement> measured);

/// Tunes each of `groups` with `tuner` and records each winner in
/// `database`, calling `done` after each group with its entry (or the error
/// that stopped it) and the error recording gave (success when it was
/// recorded or not tuned). A group's failure does not stop the others.
/// `measured` holds the caller's measurements (Tuner::tune) of each
/// group, index for index, or is empty.
void tuneAndRecord(Tuner &tuner, const std::vector<TuningGroup> &groups,
                   const std::vector<std::vector<TuningMeasurement>> &measured,
                   const TuningDatabase &database,
                   const std::function<void(const Expected<TuningEntry> &,
                                            const Error &)> &done);

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_TUNER_H
