//===- TestPasses.td - Mirage test passes ------------------*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Passes that only tests run: they print what the libraries compute, for
// FileCheck.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TEST_TRANSFORMS_TESTPASSES_TD
#define MIRAGE_TEST_TRANSFORMS_TESTPASSES_TD

include "mlir/Pass/PassBase.td"

def TestElementwiseKindsPass
    : Pass<"mirage-test-elementwise-kinds", "::mlir::ModuleOp"> {
  let summary = "Report the ElementwiseKind of every op";
  let description = [{
    For every op that implements `ElementwiseOpInterface`, emits a remark
    with its kind's string form (`stringifyElementwiseKind`) and arity
    (`getElementwiseArity`), and an error when the op's mnemonic is not that
    string or its operand count not that arity. An op of a Mirage dialect
    without the interface whose mnemonic names a kind
    (`symbolizeElementwiseKind`) is an error too: it forgot
    `MirageElementwise<fn>` in ODS.

    Example:

    ```
    mirage-opt --mirage-test-elementwise-kinds --verify-diagnostics ops.mlir
    ```
  }];
}

def TestEvaluatePass : Pass<"mirage-test-evaluate", "::mlir::ModuleOp"> {
  let summary = "Evaluate every kernel graph and print its outputs";
  let description = [{
    Runs the reference interpreter on every function with a body and prints
    its outputs to standard output. Inputs are the function's
    `mirage.test_inputs` (an array of dense float attributes, one per
    argument) when present, else seeded random values (uniform in [-1, 1) for
    the float domains, uniform field elements for `field`).

    `domain` selects the number system: `f64` (exact reference), `storage`
    (f32 arithmetic, values rounded to their f16/bf16/f32 storage type), or
    `field` (Z_p x Z_q residues mod p).

    A function with a tensor or tile of more than `max-elements` elements,
    or whose values take more than `max-memory` bytes at once, is refused
    before anything is allocated, and each function's evaluation stops after
    `time-limit` seconds, each with an error naming the value and the limit
    (docs/Verification.md, "Limits").

    Example:

    ```
    mirage-opt --mirage-test-evaluate='domain=storage print-limit=4' prog.mlir
    ```
  }];
  let options = [
    Option<"domain", "domain", "std::string", "\"f64\"",
           "Number system: f64, storage or field">,
    Option<"oracleTimeout", "oracle-timeout", "unsigned", "10",
           "Milliseconds per Z3 query; a query not settled in time prunes "
           "the value">,
    Option<"seed", "seed", "uint64_t", "1", "Seed of the random inputs">,
    Option<"printLimit", "print-limit", "unsigned", "8",
           "Elements printed per output">,
    Option<"maxElements", "max-elements", "int64_t",
           "::mlir::mirage::sem::kDefaultMaxElements",
           "The most elements of one tensor or tile (default 2^28)">,
    Option<"maxMemory", "max-memory", "int64_t",
           "::mlir::mirage::sem::kDefaultMaxBytes",
           "The most bytes of values one evaluation holds at once (default "
           "2^33)">,
    Option<"timeLimit", "time-limit", "double",
           "::mlir::mirage::sem::kDefaultTimeLimitSeconds",
           "Seconds each function's evaluation may take (0: no limit)">,
  ];
}

def TestSubexpressionsPass
    : Pass<"mirage-test-subexpressions", "::mlir::ModuleOp"> {
  let summary = "Check that every value of a candidate is a subexpression of "
                "the reference";
  let description = [{
    The search prunes a partial µGraph when a value's abstract expression is
    not a subexpression of the reference's outputs under the axioms
    (docs/Search.md). This pass applies that test to every value computed by
    each candidate function (the reference is chosen as by
    `mirage-check-equivalence`) and reports, per candidate, how many values
    are subexpressions, how many are not (with the first), and how many Z3
    could not settle within `timeout` milliseconds. On candidates known to be
    equivalent every value must pass, or the search would prune them: a
    soundness test of the axioms. Values a wrong candidate computes that fail
    measure what the pruning removes.

    Example:

    ```
    mirage-opt --mirage-test-subexpressions candidates.mlir -o /dev/null
    ```
  }];
  let options = [
    Option<"reference", "reference", "std::string", "\"\"",
           "Name of the reference function">,
    Option<"timeout", "timeout", "unsigned", "500",
           "Time limit of one Z3 query, in milliseconds">,
  ];
  let statistics = [
    Statistic<"numSubexpressions", "num-subexpressions",
              "Values proved subexpressions of the reference">,
    Statistic<"numNotSubexpressions", "num-not-subexpressions",
              "Values that are not subexpressions of the reference">,
    Statistic<"numUnknown", "num-unknown", "Values Z3 could not settle">,
  ];
}


def TestKernelSchedulePass
    : Pass<"mirage-test-kernel-schedule", "::mlir::ModuleOp"> {
  let summary = "Print the kernel schedule of every graph_def";
  let description = [{
    Prints, for every `graph_def` of every function, the decisions of its
    kernel schedule (docs/CodeGeneration.md, "The kernel schedule") for the
    chip and options given, as `convert-mirage-block-to-gpu` would take them:
    the rung of choices it fits with, the stages and staged tiles, the
    preloaded tiles, each matmul's engine and epilogue, the register sums
    and chains, every shared buffer, the shared bytes, the register estimate
    and the resident blocks per SM. A graph_def that cannot be scheduled
    gets the lowering's error.

    Example:

    ```
    mirage-opt --mirage-test-kernel-schedule='chip=sm_90a wgmma=true' prog.mlir
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_80\"", "Target chip">,
    Option<"stages", "stages", "int64_t",
           "::mlir::mirage::CodegenOptions().stages",
           "The most for-loop iterations the stages hold">,
    Option<"tensorCores", "tensor-cores", "bool",
           "::mlir::mirage::CodegenOptions().tensorCores",
           "Run f16 matmuls on tensor cores where they fit">,
    Option<"wgmma", "wgmma", "bool",
           "::mlir::mirage::CodegenOptions().wgmma",
           "Run f16 matmuls on wgmma where the chip has it">,
    Option<"tma", "tma", "bool",
           "::mlir::mirage::CodegenOptions().tma",
           "Copy staged tiles with TMA where the chip has it">,
    Option<"maxSharedMemory", "max-shared-memory", "int64_t",
           "::mlir::mirage::CodegenOptions().maxSharedMemory",
           "The most shared memory per block (0: the chip's)">,
    Option<"rowPrograms", "row-programs", "bool",
           "::mlir::mirage::CodegenOptions().rowPrograms",
           "Run bodies of whole rows as row programs in registers">,
    Option<"preloadOnePass", "preload-one-pass", "bool",
           "::mlir::mirage::CodegenOptions().preloadOnePass",
           "Preload every input tile a one-iteration body reads">,
    Option<"runningMaxChains", "running-max-chains", "bool",
           "::mlir::mirage::CodegenOptions().runningMaxChains",
           "Keep online softmaxes of register chains in registers">,
  ];
}

#endif // MIRAGE_TEST_TRANSFORMS_TESTPASSES_TD
