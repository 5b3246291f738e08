//===- TuningResults.cpp - Judging and reporting tuning -------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/TuningResults.h"

#include <algorithm>
#include <cstdio>

using namespace mirage::runtime;

namespace {

/// `value` formatted by printf's `format`.
std::string formatted(const char *format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

/// `text` padded with spaces to `width`, on the right or (`right`) left.
std::string padded(const std::string &text, size_t width, bool right = false) {
  std::string padding(width > text.size() ? width - text.size() : 0, ' ');
  return right ? padding + text : text + padding;
}

std::string candidateName(int64_t candidate) {
  return candidate == -1 ? "as written" : std::to_string(candidate);
}

/// How the report names a measured function: Triton forms are marked.
std::string measuredName(const std::string &function, TuningBackend backend) {
  return backend == TuningBackend::Ptx ? function : function + " [triton]";
}

} // namespace

void mirage::runtime::judgeOutputs(const std::vector<Difference> &outputs,
                                   double rtol,
                                   TuningMeasurement &measurement) {
  measurement.status = MeasurementStatus::Ok;
  measurement.message.clear();
  double largest = 0;
  bool finite = true;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Difference &output = outputs[i];
    largest = std::max(largest, output.maxRelativeError);
    finite &= output.unexpectedNonFinite == 0;
    std::string problem =
        output.unexpectedNonFinite
            ? std::to_string(output.unexpectedNonFinite) +
                  " values are not finite where the program as written "
                  "computes finite ones"
        : output.maxRelativeError > rtol
            ? "max relative error " + formatted("%g", output.maxRelativeError) +
                  " exceeds the tolerance " + formatted("%g", rtol)
            : "";
    if (!problem.empty() && measurement.message.empty()) {
      measurement.status = MeasurementStatus::Wrong;
      measurement.message = "output " + std::to_string(i) + ": " + problem;
    }
  }
  measurement.maxRelativeError =
      finite ? std::optional<double>(largest) : std::nullopt;
}

const TuningMeasurement *
mirage::runtime::fastestCorrect(const std::vector<TuningMeasurement> &list) {
  const TuningMeasurement *fastest = nullptr;
  for (const TuningMeasurement &measurement : list)
    if (measurement.status == MeasurementStatus::Ok &&
        (!fastest || *measurement.medianUs < *fastest->medianUs))
      fastest = &measurement;
  return fastest;
}

std::string mirage::runtime::formatTuningReport(const TuningEntry &entry) {
  // Speedups are over the program as written's PTX form.
  std::optional<double> asWritten;
  size_t width = std::string("function").size();
  for (const TuningMeasurement &measurement : entry.measurements) {
    width = std::max(
        width, measuredName(measurement.function, measurement.backend).size());
    if (measurement.candidate == -1 &&
        measurement.backend == TuningBackend::Ptx)
      asWritten = measurement.medianUs;
  }
  auto row = [&](const std::string &function, const std::string &candidate,
                 const std::string &status, const std::string &cold,
                 const std::string &warm, const std::string &time,
                 const std::string &error, const std::string &speedup) {
    return "  " + padded(function, width) + "  " + padded(candidate, 10) +
           "  " + padded(status, 6) + "  " + padded(cold, 7, true) + "  " +
           padded(warm, 7, true) + "  " + padded(time, 7, true) + "  " +
           padded(error, 11, true) + "  " + padded(speedup, 7, true) + "\n";
  };
  auto speedup = [&](double medianUs) {
    return asWritten && medianUs > 0 ? formatted("%.2fx", *asWritten / medianUs)
                                     : std::string("-");
  };
  auto microseconds = [](std::optional<double> time) {
    return time ? formatted("%.2f", *time) : std::string("-");
  };
  std::string report =
      "tuning group " + entry.key.substr(0, 16) + " (" + entry.compiler +
      ") on " + entry.device.name + " (" + std::to_string(entry.device.major) +
      "." + std::to_string(entry.device.minor) + ", " + entry.chip + "):\n" +
      row("function", "candidate", "status", "cold us", "warm us", "time us",
          "max rel err", "speedup");
  std::string messages;
  for (const TuningMeasurement &measurement : entry.measurements) {
    report += row(
        measuredName(measurement.function, measurement.backend),
        candidateName(measurement.candidate),
        std::string(measurementStatusName(measurement.status)),
        microseconds(measurement.coldUs), microseconds(measurement.warmUs),
        microseconds(measurement.medianUs) + (measurement.overlap ? "" : "*"),
        measurement.maxRelativeError
            ? formatted("%.3e", *measurement.maxRelativeError)
            : "-",
        measurement.medianUs ? speedup(*measurement.medianUs) : "-");
    if (!measurement.message.empty())
      messages += "  " +
                  measuredName(measurement.function, measurement.backend) +
                  ": " + measurement.message + "\n";
  }
  if (std::any_of(entry.measurements.begin(), entry.measurements.end(),
                  [](const TuningMeasurement &m) { return !m.overlap; }))
    messages += "  *: faster without programmatic dependent launch, which "
                "the choice keeps off\n";
  const TuningWinner &winner = entry.winner;
  std::string median = formatted("%.2f us", winner.medianUs);
  bool triton = winner.backend == TuningBackend::Triton;
  if (winner.candidate == -1 && !triton)
    return report + messages + "winner: " + winner.function +
           ", the program as written (" + median +
           "); no correct candidate is faster\n";
  std::string which = winner.candidate == -1
                          ? std::string("the program as written")
                          : "candidate " + std::to_string(winner.candidate);
  return report + messages + "winner: " + winner.function + " (" + which +
         (triton ? ", as Triton" : "") +
         (winner.overlap ? "" : ", without overlap") + "), " + median + ", " +
         speedup(winner.medianUs) + " the speed of the program as written\n";
}
