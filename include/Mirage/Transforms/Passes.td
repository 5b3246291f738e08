//===- Passes.td - Mirage transformation passes ------------*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_PASSES_TD
#define MIRAGE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TestReachablePass : Pass<"mirage-test-reachable", "::mlir::ModuleOp"> {
  let summary = "Say whether the search generates each candidate µGraph";
  let description = [{
    A test pass. The module holds a reference function (the one named by
    `reference`, else the one marked `mirage.reference`, else the first) and
    candidate µGraphs (every other function with a body). For each
    candidate, with the search's default options, it says whether
    `mirage-superoptimize` generates it, up to renaming, the order of
    independent ops and of grid axes (getCandidateKey), with its thread
    graphs inlined (they are formed after the search): a remark
    `reachable`, or `unreachable (<rule>): <detail>` naming the first rule
    of the search's space that excludes it (docs/Search.md,
    "Reachability"): kernel ops beside the graph_defs, the kernel count,
    clusters, the for-loop range, the grid, the vocabulary, the op or
    accumulator budget, and last the search itself, pinned to the
    candidate's for-loop range and grid sizes within `time-limit` seconds.

    Example:

    ```
    mirage-opt --mirage-test-reachable='reference=lora' candidates.mlir
    ```
  }];
  let options = [
    Option<"reference", "reference", "std::string", "\"\"",
           "Name of the reference function">,
    Option<"timeLimit", "time-limit", "double", "30.0",
           "Seconds for the pinned search of each candidate">,
  ];
}

def CheckEquivalencePass : Pass<"mirage-check-equivalence", "::mlir::ModuleOp"> {
  let summary = "Prove candidate kernel graphs equivalent to a reference";
  let description = [{
    The module holds a reference function (the one named by `reference`, else
    the one marked `mirage.reference`, else the first) and candidates (every
    other function with a body). Each candidate is evaluated against the
    reference in the finite field Z_p x Z_q on shared random inputs, over
    `trials` independent trials, by default as many as needed to bound the
    probability of a wrong "equivalent" by 2^-40 (docs/Verification.md).

    An equivalent candidate gets a remark with the number of trials and the
    bound on the probability that the verdict is wrong, and the relative error
    of a float64 evaluation against the reference's; a different one gets an
    error naming the first differing output element, and the pass fails.

    With `reduce-dimensions` (the default), a candidate that computes the
    indices of a parallel output dimension apart (attention's heads, a
    projection's columns: its blocks split the dimension evenly, no for-loop
    or cluster spans it) is checked with that dimension cut down to the
    indices of one block (docs/Verification.md, "Reduced sizes"): the same
    verdict at a fraction of the cost; the remark names each dimension cut.

    Evaluation has limits (docs/Verification.md, "Limits"): a program with a
    tensor or tile of more than `max-elements` elements, or whose values take
    more than `max-memory` bytes at once, is refused before anything is
    allocated; the reference's evaluation, and each candidate's check (its
    trials and its float64 evaluation), stop after `time-limit` seconds. Each
    is an error naming the value and the limit.

    Example:

    ```
    mirage-opt --mirage-check-equivalence='seed=7' candidates.mlir
    ```
  }];
  let options = [
    Option<"reference", "reference", "std::string", "\"\"",
           "Name of the reference function">,
    Option<"trials", "trials", "unsigned", "0",
           "Independent random trials per candidate (0: enough for a "
           "false-positive bound of 2^-40, at least 2, at most 8)">,
    Option<"kernelPrefixes", "kernel-prefixes", "bool", "true",
           "Also search µGraphs that keep one of the program's leading ops "
           "(an op reading only its arguments, such as attention's Q·K) as a "
           "library op and search the rest, in part of the time (not with "
           "omap, imaps or fmaps overrides)">,
    Option<"oracleTimeout", "oracle-timeout", "unsigned", "2",
           "Milliseconds per Z3 query; a query not settled in time prunes "
           "the value">,
    Option<"seed", "seed", "uint64_t", "1",
           "Seed of the random inputs and keyed functions">,
    Option<"maxElements", "max-elements", "int64_t",
           "::mlir::mirage::sem::kDefaultMaxElements",
           "The most elements of one tensor or tile (default 2^28)">,
    Option<"maxMemory", "max-memory", "int64_t",
           "::mlir::mirage::sem::kDefaultMaxBytes",
           "The most bytes of values one evaluation holds at once (default "
           "2^33)">,
    Option<"timeLimit", "time-limit", "double",
           "::mlir::mirage::sem::kDefaultTimeLimitSeconds",
           "Seconds the reference's evaluation, and each candidate's check, "
           "may take (0: no limit)">,
    Option<"reduceDimensions", "reduce-dimensions", "bool", "true",
           "Check candidates at reduced sizes along the parallel dimensions "
           "they compute apart">,
  ];
  let statistics = [
    Statistic<"numEquivalent", "num-equivalent", "Candidates proved equivalent">,
    Statistic<"numDifferent", "num-different", "Candidates that differ">,
  ];
}

def SuperoptimizePass : Pass<"mirage-superoptimize", "::mlir::ModuleOp"> {
  let summary = "Replace kernel graphs by faster verified µGraphs";
  let description = [{
    For every function made of predefined kernel ops (the reference), searches
    µGraphs that compute the same function (docs/Search.md), verifies each
    with the finite-field checker, ranks the verified ones with the cost
    model, and replaces the function's body by the best. Only candidates the
    code generator compiles are verified and kept: every graph_def must
    lower (`convert-mirage-block-to-gpu`) for each chip that a bundle of the
    candidate targets by default (sm_80 and sm_90a; sm_90a alone for
    thread-block clusters) within the smallest shared memory of those chips,
    so that bundling the result never fails. Today's search
    covers µGraphs of references with one output made of one graph_def, or
    of a split pair (a graph_def whose grid also splits a reduced dimension
    and saves partial results side by side, then a combining graph_def
    summing them with strided reductions, as split-KV attention does): grid
    axes, the for-loop, loads, block ops (the reference's kinds, plus
    division and accumulators where it normalises or reduces), restricted by
    the reference's dimension labels and pruned by abstract expressions with
    Z3.

    Measured selection: before searching, the pass looks the program up in
    the tuning database that `mirage-tune` fills on a GPU (docs/Runtime.md,
    "Tuning"), by its key, the compiler version and the compute capability
    of `chip`. With an entry, no GPU is needed and nothing is searched: the
    measured winner, verified again against the program, replaces it (or
    the program stays as written when that was fastest). Without one, the
    cost model decides and the remark says so. A database that cannot be
    read gives a warning and the cost model decides.

    A remark on each function reports the configurations, states, pruned
    values, verified candidates, time, and the estimated global-memory
    traffic before and after; a function with no verified candidate (an
    exhausted budget or time limit) is left unchanged with a remark saying
    why. Functions outside the searchable fragment get a remark too.

    Example:

    ```
    mirage-opt --mirage-superoptimize='max-ops=5 time-limit=60' prog.mlir
    ```
  }];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", "6",
           "Block ops that compute per graph_def body (loads, saves and up "
           "to two for-loop accumulators, and one rms_last besides them, "
           "are not counted)">,
    ListOption<"forloopRanges", "forloop-ranges", "int64_t",
               "For-loop ranges to try (default 1,2,4,...,64)">,
    ListOption<"gridSizes", "grid-sizes", "int64_t",
               "Sizes to try for each grid axis (default 2,4,...,256), "
               "plus an extent that is not a power of two halved while it "
               "stays whole, up to the largest listed size (by default, "
               "also the powers of two past 256, up to eight blocks per "
               "multiprocessor of the chip)">,
    Option<"maxBlocks", "max-blocks", "int64_t", "1024",
           "Largest grid, in blocks">,
    Option<"threads", "threads", "int32_t", "0",
           "Threads per block (0: automatic: 128 for blocks with matmuls, "
           "the tuner also measuring 256, else enough for 8 elements of the "
           "largest tile per thread, up to 1024)">,
    Option<"maxCandidates", "max-candidates", "unsigned", "0",
           "Verified candidates to collect (complete candidates are verified "
           "cheapest first; 0: 16 with emit-candidates, whose candidates "
           "the tuner measures, else 1)">,
    Option<"extraTilings", "extra-tilings", "int32_t", "-1",
           "Candidates of other tilings (the grids of their graph_defs) "
           "kept where candidates are composed or merged, besides the "
           "max-candidates cheapest (-1: 4 with emit-candidates, else 0)">,
    Option<"timeLimit", "time-limit", "double", "60",
           "Seconds for the whole module, search, oracle and verification "
           "included, shared among its functions (0: no limit)">,
    Option<"singleKernels", "single-kernels", "bool", "true",
           "Search one-graph_def µGraphs">,
    Option<"splitKernels", "split-kernels", "bool", "true",
           "Search split µGraphs: a graph_def writing partial results over "
           "a split reduced dimension, and a combining graph_def">,
    Option<"linearSplits", "linear-splits", "bool", "true",
           "Among the split µGraphs, also linear splits: where the function "
           "is linear in a reduced dimension's sums, blocks that also tile "
           "the output's last dimension each save their term, and a "
           "combining graph_def sums the terms">,
    Option<"clusters", "clusters", "bool", "false",
           "On a chip with clusters (sm_90a), also search one-graph_def "
           "µGraphs whose grid x is a thread-block cluster that sums a row "
           "or a split's parts through distributed shared memory; a bundle "
           "holding one targets sm_90a alone, so it is off by default">,
    Option<"copyVariants", "copy-variants", "bool", "true",
           "With emit-candidates, follow each candidate whose staged tiles "
           "TMA copies (sm_90a) by its cp.async variant (async_copies) for "
           "the tuner to measure; false halves the functions to tune">,
    Option<"kernelPrefixes", "kernel-prefixes", "bool", "true",
           "Also search µGraphs that keep one of the program's leading ops "
           "(an op reading only its arguments, such as attention's Q·K) as a "
           "library op and search the rest, in part of the time (not with "
           "omap, imaps or fmaps overrides)">,
    Option<"cuts", "cuts", "bool", "true",
           "Also search µGraphs of two parts: the program cut at a value "
           "between two matmul stages (a gated MLP's activations, read by "
           "its down projection), each side searched as a program of its "
           "own, in part of the time (not with omap, imaps or fmaps "
           "overrides)">,
    Option<"oracleTimeout", "oracle-timeout", "unsigned", "2",
           "Milliseconds per Z3 query; a query not settled in time prunes "
           "the value">,
    Option<"seed", "seed", "uint64_t", "1",
           "Seed of the verifier's random inputs">,
    ListOption<"omap", "omap", "int32_t",
               "Output dimension of grid axes x and y (-1: axis unused)">,
    ListOption<"imaps", "imaps", "int32_t",
               "For each input, the dimension grid axes x and y split (-1: "
               "replicated), two entries per input">,
    ListOption<"fmaps", "fmaps", "int32_t",
               "For each input, the dimension the for-loop splits (-1: "
               "loaded once)">,
    Option<"searchThreads", "search-threads", "unsigned", "1",
           "Threads exploring launches">,
    Option<"chip", "chip", "std::string", "\"sm_90a\"",
           "GPU the cost model ranks candidates for: sm_80 or sm_90a">,
    Option<"progress", "progress", "bool", "false",
           "Report each for-loop range explored on stderr">,
    Option<"checkpoint", "checkpoint", "std::string", "\"\"",
           "Checkpoint file: resume from it, update it after each for-loop "
           "range">,
    Option<"threadGraphs", "thread-graphs", "bool", "true",
           "Fuse the result's elementwise chains into thread graphs "
           "(mirage-form-thread-graphs)">,
    Option<"emitCandidates", "emit-candidates", "bool", "false",
           "Also add the program as written as @<name>_as_written and the "
           "max-candidates best verified candidates as functions "
           "@<name>_candidate_<rank> with their cost estimates, marked "
           "mirage.tuning as one tuning group">,
    Option<"useTuningDatabase", "use-tuning-db", "bool", "true",
           "Take the measured winner from the tuning database when it has "
           "one for the program, this compiler and the chip">,
    Option<"tritonWinners", "triton-winners", "bool", "false",
           "Take a winner measured fastest as its Triton form and mark the "
           "function mirage.backend = \"triton\" (for callers that run the "
           "Triton module, as the Python API does); otherwise take the "
           "fastest PTX form, which a bundle holds">,
    Option<"tuningDatabase", "tuning-db", "std::string", "\"\"",
           "Tuning database file (default: $MIRAGE_TUNING_DB, else "
           "$XDG_CACHE_HOME/mirage/tuning.json, else "
           "~/.cache/mirage/tuning.json)">,
  ];
  let statistics = [
    Statistic<"numStates", "num-states", "Partial block graphs explored">,
    Statistic<"numPruned", "num-pruned", "Values pruned by abstract expressions">,
    Statistic<"numChecked", "num-checked", "Complete candidates verified">,
    Statistic<"numVerified", "num-verified", "Candidates proved equivalent">,
    Statistic<"numUncompilable", "num-uncompilable",
              "Candidates left out because the code generator refuses them">,
    Statistic<"numReplaced", "num-replaced", "Functions replaced">,
  ];
  let dependentDialects = ["::mlir::mirage::block::MirageBlockDialect",
                           "::mlir::mirage::thread::MirageThreadDialect",
                           // The code generator's, for the compilability
                           // check of candidates.
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def EstimateCostPass : Pass<"mirage-estimate-cost", "::mlir::ModuleOp"> {
  let summary = "Report the cost model's estimate for every function";
  let description = [{
    Emits a remark on every function with the search's analytic cost
    estimate for `chip` (docs/Search.md): time, global-memory traffic,
    launches and staged shared memory per block. Predefined kernel ops are
    estimated as ops that fill the GPU; run
    `mirage-kernel-expand-to-blocks` first to estimate the graph_defs the
    code generator would build for them. `bench/calibrate-cost-model.py`
    ranks these estimates against measured kernel times.

    Example:

    ```
    mirage-opt --mirage-estimate-cost='chip=sm_80' prog.mlir -o /dev/null
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90a\"",
           "GPU to estimate for: sm_80 or sm_90a">,
  ];
}

def FormThreadGraphsPass
    : Pass<"mirage-form-thread-graphs", "::mlir::ModuleOp"> {
  let summary = "Fuse chains of elementwise block ops into thread graphs";
  let description = [{
    In every graph_def body, fuses each tree of elementwise block ops
    (unary, binary, `mul_scalar`) whose inner results have one use and the
    shape and element type of the tree's root, all in one loop phase, into
    one `thread_graph`: the tree's operands become the thread graph's inputs,
    its ops the scalar body, and the root its result. Every scalar op keeps
    its element type, so the values are those of the unfused ops exactly
    (docs/LanguageReference.md); the code generator then computes the chain
    per element
    in registers instead of staging every intermediate tile in shared
    memory. Single ops are left alone.

    Example: `%s = silu %x` then `%p = mul %s, %g` become

    ```mlir
    %p = thread_graph %x, %g : !mirage_block.stensor<8x64xf16>,
        !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16> {
    ^bb0(%a: f16, %b: f16):
      %0 = silu %a : f16
      %1 = mul %0, %b : f16
      yield %1 : f16
    }
    ```
  }];
  let dependentDialects = ["::mlir::mirage::thread::MirageThreadDialect"];
}

def OutlineKernelGraphsPass
    : Pass<"mirage-outline-kernel-graphs", "::mlir::ModuleOp"> {
  let summary = "Outline the kernel ops of mixed functions into kernel graphs";
  let description = [{
    In every function that holds both `mirage_kernel` ops and other ops (what
    `convert-linalg-to-mirage-kernel` and `convert-tosa-to-mirage-kernel`
    leave of a model), partitions the kernel ops of each block into regions,
    outlines each region into a kernel-graph function `@<name>_graph<i>`
    placed after the function, and replaces it with a `func.call`. The
    superoptimizer and `mirage-bundle` then take the kernel-graph functions;
    the rest of the program stays with the host compiler.

    Regions follow the dependences: two kernel ops share a region only when
    no path between them passes through an op outside it, so that the calls
    can be ordered; ops with memory effects keep their order. Kernel ops
    start in the region of the number of other ops on their longest path
    from the block's start, then regions merge greedily, in that order,
    whenever no such path separates them (docs/Embedding.md). A function
    made only of kernel ops is already a kernel graph and is left alone.

    Example:

    ```
    mirage-opt --convert-linalg-to-mirage-kernel \
        --mirage-outline-kernel-graphs model.mlir
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // MIRAGE_TRANSFORMS_PASSES_TD
