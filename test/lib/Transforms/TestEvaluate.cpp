//===- TestEvaluate.cpp - mirage-test-evaluate ----------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "Mirage/Semantics/Equivalence.h"
#include "Mirage/Semantics/Import.h"
#include "Mirage/Semantics/Interpreter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mirage::test {
#define GEN_PASS_DEF_TESTEVALUATEPASS
#include "TestPasses.h.inc"
} // namespace mlir::mirage::test

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// The function's `mirage.test_inputs`, if it has them, as float tensors.
FailureOr<std::optional<std::vector<sem::Tensor<double>>>>
getGivenInputs(func::FuncOp func, const sem::Program &program) {
  auto given = func->getAttrOfType<ArrayAttr>("mirage.test_inputs");
  if (!given)
    return std::optional<std::vector<sem::Tensor<double>>>();
  SmallVector<sem::ValueType> types = program.getInputTypes();
  if (given.size() != types.size())
    return func.emitError("mirage.test_inputs has ")
           << given.size() << " entries for " << types.size() << " arguments";
  std::vector<sem::Tensor<double>> inputs;
  for (auto [i, attr, type] : llvm::enumerate(given, types)) {
    auto dense = dyn_cast<DenseFPElementsAttr>(attr);
    if (!dense || dense.getType().getShape() != ArrayRef<int64_t>(type.shape))
      return func.emitError("mirage.test_inputs entry ")
             << i << " must be a dense float attribute of the argument's shape";
    sem::Tensor<double> t(type.shape);
    for (auto [v, value] : llvm::zip(t.data, dense.getValues<APFloat>()))
      v = value.convertToDouble();
    inputs.push_back(std::move(t));
  }
  return std::optional<std::vector<sem::Tensor<double>>>(std::move(inputs));
}

/// Prints `@name: output i (shape) = [v0, v1, ...]`.
template <typename V, typename Format>
void printOutputs(StringRef name, ArrayRef<sem::Tensor<V>> outputs,
                  unsigned limit, Format format) {
  for (auto [i, t] : llvm::enumerate(outputs)) {
    llvm::outs() << "@" << name << ": output " << i << " (";
    llvm::interleave(t.shape, llvm::outs(), "x");
    llvm::outs() << ") = [";
    int64_t shown = std::min<int64_t>(limit, t.size());
    for (int64_t k = 0; k < shown; ++k)
      llvm::outs() << (k ? ", " : "") << format(t.data[k]);
    llvm::outs() << (shown < t.size() ? ", ...]\n" : "]\n");
  }
}

struct TestEvaluatePass
    : mirage::test::impl::TestEvaluatePassBase<TestEvaluatePass> {
  using Base::Base;

  void runOnOperation() override {
    if (domain != "f64" && domain != "storage" && domain != "field") {
      getOperation().emitError("unknown domain '")
          << domain << "': expected f64, storage or field";
      return signalPassFailure();
    }
    std::string error;
    FailureOr<sem::EvaluationLimits> limits =
        sem::getLimitsFromOptions(maxElements, maxMemory, timeLimit, error);
    if (failed(limits)) {
      getOperation().emitError(error);
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(evaluate(func, *limits)))
        return signalPassFailure();
    }
  }

  LogicalResult evaluate(func::FuncOp func,
                         const sem::EvaluationLimits &limits) {
    FailureOr<sem::Program> program = sem::buildProgram(func);
    if (failed(program))
      return failure();
    // Before the inputs are allocated.
    std::string error;
    size_t valueBytes =
        domain == "field" ? sizeof(sem::FieldValue) : sizeof(double);
    if (failed(sem::checkEvaluationLimits(*program, valueBytes, limits, error)))
      return func.emitError("cannot be evaluated: ") << error;
    auto given = getGivenInputs(func, *program);
    if (failed(given))
      return failure();
    sem::Deadline deadline(limits.timeLimitSeconds);
    if (domain == "field")
      return evaluateField(func, *program, *given, limits, deadline);
    std::vector<sem::Tensor<double>> inputs =
        given->has_value() ? **given
                           : sem::makeRandomFloatInputs(*program, seed);
    sem::FloatDomain numbers(domain == "f64" ? sem::FloatPrecision::F64
                                             : sem::FloatPrecision::Storage);
    std::vector<sem::Tensor<double>> outputs;
    if (failed(sem::Interpreter<sem::FloatDomain>(numbers, limits)
                   .run(*program, inputs, outputs, error, deadline)))
      return func.emitError("evaluation failed: ") << error;
    printOutputs<double>(func.getSymName(), outputs, printLimit, [](double v) {
      std::string text;
      llvm::raw_string_ostream(text) << llvm::format("%g", v);
      return text;
    });
    return success();
  }

  LogicalResult
  evaluateField(func::FuncOp func, const sem::Program &program,
                const std::optional<std::vector<sem::Tensor<double>>> &given,
                const sem::EvaluationLimits &limits,
                const sem::Deadline &deadline) {
    sem::FieldDomain numbers(seed);
    std::vector<sem::Tensor<sem::FieldValue>> inputs;
    uint64_t state = seed;
    for (auto [i, type] : llvm::enumerate(program.getInputTypes())) {
      sem::Tensor<sem::FieldValue> t(type.shape);
      for (auto [k, v] : llvm::enumerate(t.data))
        v = given ? numbers.constant((*given)[i].data[k])
                  : sem::FieldDomain::random(state);
      inputs.push_back(std::move(t));
    }
    std::vector<sem::Tensor<sem::FieldValue>> outputs;
    std::string error;
    if (failed(sem::Interpreter<sem::FieldDomain>(numbers, limits)
                   .run(program, inputs, outputs, error, deadline)))
      return func.emitError("evaluation failed: ") << error;
    printOutputs<sem::FieldValue>(
        func.getSymName(), outputs, printLimit, [](sem::FieldValue v) {
          return std::to_string(sem::FieldDomain::toInteger(v));
        });
    return success();
  }
};

} // namespace
