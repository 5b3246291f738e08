//===- TuningResultsTests.cpp - Tests of judging and reporting tuning -----===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/TuningResults.h"

using namespace mirage::runtime;

namespace {

TuningMeasurement judged(const std::vector<Difference> &outputs) {
  TuningMeasurement measurement{"f_candidate_0",       0,
                                MeasurementStatus::Ok, std::nullopt,
                                std::nullopt,          ""};
  judgeOutputs(outputs, 0.02, measurement);
  return measurement;
}

TuningMeasurement ok(const std::string &function, int64_t candidate,
                     double medianUs, double error = 0.0,
                     std::optional<double> coldUs = std::nullopt,
                     std::optional<double> warmUs = std::nullopt) {
  return {function, candidate, MeasurementStatus::Ok, medianUs, error, "",
          coldUs,   warmUs};
}

} // namespace

MIRAGE_TEST(TuningResults, JudgesOutputsAgainstTheTolerance) {
  TuningMeasurement close = judged({{0.001, 0}, {0.02, 0}});
  EXPECT_TRUE(close.status == MeasurementStatus::Ok);
  EXPECT_EQ(close.maxRelativeError.value_or(-1), 0.02);
  EXPECT_TRUE(close.message.empty());

  TuningMeasurement far = judged({{0.001, 0}, {0.9, 0}});
  EXPECT_TRUE(far.status == MeasurementStatus::Wrong);
  EXPECT_EQ(far.maxRelativeError.value_or(-1), 0.9);
  EXPECT_EQ(far.message,
            std::string("output 1: max relative error 0.9 exceeds the "
                        "tolerance 0.02"));

  TuningMeasurement nonFinite = judged({{0.0, 12}, {0.5, 0}});
  EXPECT_TRUE(nonFinite.status == MeasurementStatus::Wrong);
  EXPECT_TRUE(!nonFinite.maxRelativeError);
  EXPECT_EQ(nonFinite.message,
            std::string("output 0: 12 values are not finite where the "
                        "program as written computes finite ones"));
}

MIRAGE_TEST(TuningResults, ChoosesTheFastestCorrectFunction) {
  std::vector<TuningMeasurement> measurements = {
      ok("f", -1, 20.0),
      {"f_candidate_0", 0, MeasurementStatus::Wrong, std::nullopt, 0.9, "x"},
      ok("f_candidate_1", 1, 12.0),
      ok("f_candidate_2", 2, 12.0),
      ok("f_candidate_3", 3, 15.0)};
  const TuningMeasurement *winner = fastestCorrect(measurements);
  EXPECT_TRUE(winner == &measurements[2]);
  measurements[2].medianUs = 20.0;
  measurements[3].medianUs = 20.0;
  measurements[4].medianUs = 20.0;
  // Ties go to the earlier measurement: the program as written first.
  EXPECT_TRUE(fastestCorrect(measurements) == &measurements[0]);
  EXPECT_TRUE(fastestCorrect({}) == nullptr);
}

MIRAGE_TEST(TuningResults, FormatsTheReport) {
  TuningEntry entry;
  entry.key = std::string(64, 'a');
  entry.compiler = "mirage 1";
  entry.device = {"NVIDIA H100 80GB HBM3", 9, 0};
  entry.chip = "sm_90a";
  entry.date = "2026-11-25T10:00:00Z";
  entry.measurements = {
      ok("f", -1, 20.1, 0.0, 21.0, 20.1),
      {"f_candidate_0", 0, MeasurementStatus::Wrong, std::nullopt, 0.9,
       "output 0: max relative error 0.9 exceeds the tolerance 0.02"},
      {"f_candidate_1", 1, MeasurementStatus::Failed, std::nullopt,
       std::nullopt, "cuLaunchKernelEx: CUDA_ERROR_INVALID_VALUE"},
      ok("f_candidate_2", 2, 12.3, 1.2e-4, 12.3, 15.0)};
  entry.winner = {"f_candidate_2", 2, 12.3, ""};
  EXPECT_EQ(
      formatTuningReport(entry),
      std::string(
          "tuning group aaaaaaaaaaaaaaaa (mirage 1) on NVIDIA H100 80GB HBM3 "
          "(9.0, sm_90a):\n"
          "  function       candidate   status  cold us  warm us  time us  "
          "max rel err  speedup\n"
          "  f              as written  ok        21.00    20.10    20.10    "
          "0.000e+00    1.00x\n"
          "  f_candidate_0  0           wrong         -        -        -    "
          "9.000e-01        -\n"
          "  f_candidate_1  1           failed        -        -        -    "
          "        -        -\n"
          "  f_candidate_2  2           ok        12.30    15.00    12.30    "
          "1.200e-04    1.63x\n"
          "  f_candidate_0: output 0: max relative error 0.9 exceeds the "
          "tolerance 0.02\n"
          "  f_candidate_1: cuLaunchKernelEx: CUDA_ERROR_INVALID_VALUE\n"
          "winner: f_candidate_2 (candidate 2), 12.30 us, 1.63x the speed of "
          "the program as written\n"));
  // A time without programmatic dependent launch is marked, with a note,
  // and so is a winner that runs without it.
  entry.measurements[3].overlap = false;
  entry.winner.overlap = false;
  std::string serial = formatTuningReport(entry);
  EXPECT_TRUE(serial.find("  f_candidate_2  2           ok        12.30    "
                          "15.00   12.30*    1.200e-04    1.63x\n") !=
              std::string::npos);
  EXPECT_TRUE(serial.find("  *: faster without programmatic dependent "
                          "launch, which the choice keeps off\n") !=
              std::string::npos);
  EXPECT_TRUE(serial.find("winner: f_candidate_2 (candidate 2, without "
                          "overlap), 12.30 us") != std::string::npos);
  entry.measurements[3].overlap = true;
  // A function timed cold only (Tuner's coldOnlyFactor) has no warm time
  // and says why.
  TuningEntry coldOnly = entry;
  coldOnly.measurements[3].warmUs.reset();
  coldOnly.measurements[3].message =
      "timed cold only: 9.0x the fastest before it";
  std::string cold = formatTuningReport(coldOnly);
  EXPECT_TRUE(cold.find("  f_candidate_2  2           ok        12.30        "
                        "-    12.30    1.200e-04    1.63x\n") !=
              std::string::npos);
  EXPECT_TRUE(cold.find("  f_candidate_2: timed cold only: 9.0x the fastest "
                        "before it\n") != std::string::npos);
  // A Triton form is marked, its speedup is over the PTX program as
  // written, and the winner line names the backend.
  TuningMeasurement triton = ok("f", -1, 10.05, 0.0, 10.05, 11.0);
  triton.backend = TuningBackend::Triton;
  entry.measurements.push_back(triton);
  entry.winner = {"f", -1, 10.05, "", TuningBackend::Triton};
  std::string withTriton = formatTuningReport(entry);
  EXPECT_TRUE(
      withTriton.find("  f [triton]     as written  ok        10.05 ") !=
      std::string::npos);
  EXPECT_TRUE(withTriton.find("winner: f (the program as written, as "
                              "Triton), 10.05 us, 2.00x the speed of the "
                              "program as written\n") != std::string::npos);
  entry.measurements.pop_back();
  entry.winner = {"f", -1, 20.1, ""};
  std::string report = formatTuningReport(entry);
  EXPECT_TRUE(report.find("winner: f, the program as written (20.10 us); no "
                          "correct candidate is faster\n") !=
              std::string::npos);
}
