//===- Passes.td - Mirage conversion passes ----------------*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_PASSES_TD
#define MIRAGE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMirageBlockToGPUPass
    : Pass<"convert-mirage-block-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Compile every graph_def into a gpu.func";
  let description = [{
    Outlines the body of each `mirage_kernel.graph_def` into a `gpu.func`
    kernel of the module's `gpu.module @mirage_kernels` and replaces the
    `graph_def` by a `mirage_kernel.launch` of that kernel. The kernel takes
    one flat buffer per input, then one per result.

    Code generation (docs/CodeGeneration.md): loop-varying `input_loader`
    tiles are staged into shared memory ahead of their iteration (`cp.async`;
    on sm_90a the TMA unit, on mbarriers, with one TMA descriptor parameter
    per staged input after the buffers, listed in `mirage.tensor_maps`),
    other loaded tiles are read in place from global memory; every other
    tile lives in dynamic shared memory at its element type, and
    `forloop_accum` accumulators in f32 (sums of tensor-core matmuls in
    registers); each block op is a loop of the block's threads over the
    elements of its result, followed by a barrier, f16 and bf16 matmuls run
    on tensor cores (`mma.sync`, or `wgmma` on sm_90a when asked); loop-invariant ops
    run before the `scf.for` over the for-loop, ops on accumulated values
    after it. Cluster collectives read the peers' shared
    memory through `nvvm.mapa` between cluster barriers, and the kernel
    carries `nvvm.cluster_dim`.

    A graph_def whose tiles do not fit in the shared memory of `chip`, or
    that uses a cluster on a chip without clusters, gets an error.

    Example:

    ```
    mirage-opt --convert-mirage-block-to-gpu=chip=sm_80 fused.mlir
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string",
           "::mlir::mirage::CodegenOptions().chip",
           "Target chip (sm_80 or sm_90a): sets the shared-memory limit and "
           "whether clusters exist">,
    Option<"stages", "stages", "int64_t",
           "::mlir::mirage::CodegenOptions().stages",
           "Software pipelining: loop-varying input tiles are copied into "
           "shared memory (cp.async, or TMA on sm_90a) up to this many "
           "for-loop iterations (stages) at once (default 4: the next three "
           "iterations' tiles load during this one); each kernel takes the "
           "count up to this one that lets the most of its blocks share an "
           "SM; below 2, tiles are read in place (docs/CodeGeneration.md)">,
    Option<"maxSharedMemory", "max-shared-memory", "int64_t",
           "::mlir::mirage::CodegenOptions().maxSharedMemory",
           "The most dynamic shared memory a block may use, in bytes (0: "
           "the chip's limit); a bundle for several chips passes the "
           "smallest limit, so that every chip's kernels make the same "
           "choices and launch with the same shared memory">,
    Option<"tensorCores", "tensor-cores", "bool",
           "::mlir::mirage::CodegenOptions().tensorCores",
           "Run f16 and bf16 matmuls on tensor cores (mma.sync "
           "m16n8k16, f32 sums); false: every matmul on the SIMT path">,
    Option<"wgmma", "wgmma", "bool",
           "::mlir::mirage::CodegenOptions().wgmma",
           "On sm_90a, run f16 and bf16 matmuls on warpgroup tensor cores "
           "(wgmma.mma_async m64nNk16, operands copied into shared memory "
           "K-major) where they fit, before mma.sync (default false: "
           "measured slower than mma.sync on the benchmark µGraphs, "
           "docs/CodeGeneration.md)">,
    Option<"tma", "tma", "bool",
           "::mlir::mirage::CodegenOptions().tma",
           "On sm_90a, staged tiles are copied by the TMA unit "
           "(cp.async.bulk.tensor, one copy per tile, on a TMA descriptor "
           "parameter the runtime encodes) completing on one mbarrier per "
           "stage, instead of cp.async (default true; docs/CodeGeneration.md)">,
    Option<"rowPrograms", "row-programs", "bool",
           "::mlir::mirage::CodegenOptions().rowPrograms",
           "Run a graph_def of whole rows (input_loaders of one shape, "
           "elementwise ops, reductions of a row to one value, "
           "output_savers; a softmax, a row sum) with every row in "
           "registers, one barrier per sum at most (default true; "
           "docs/CodeGeneration.md); false: op by op">,
    Option<"preloadOnePass", "preload-one-pass", "bool",
           "::mlir::mirage::CodegenOptions().preloadOnePass",
           "In a graph_def of one for-loop iteration whose ops read two or "
           "more input tiles (a split µGraph's combining kernel), copy them "
           "all into shared memory at the start with cp.async, so that "
           "their loads are in flight at once, instead of reading each in "
           "place in its op's turn (default false: measured no faster, within "
           "3% on the attention cases; "
           "docs/CodeGeneration.md)">,
    Option<"runningMaxChains", "running-max-chains", "bool",
           "::mlir::mirage::CodegenOptions().runningMaxChains",
           "Keep an online softmax between two chained matmuls (exp of "
           "scores minus a running maximum) in each warp's registers, with "
           "no shared tile or barrier in the loop (default true; "
           "docs/CodeGeneration.md)">,
    Option<"combineTails", "combine-tails", "bool",
           "::mlir::mirage::CodegenOptions().combineTails",
           "Compile a graph_def and its combine tail (a next graph_def that "
           "reads only what groups of its blocks wrote, "
           "Mirage/Analysis/CombineTail.h) into one kernel whose last block "
           "of each group runs the tail, on zeroed counters the kernel takes "
           "after its results (`mirage.combine_counters`; default false: "
           "measured slower, docs/CodeGeneration.md)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def MirageTensorMapParamsPass
    : Pass<"mirage-tensor-map-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make a lowered kernel's TMA descriptor parameters by-value grid constants";
  let description = [{
    For every kernel of the GPU module lowered to an `llvm.func` that carries
    `mirage.tensor_maps` (TensorMaps.h), marks each listed parameter
    `llvm.byval` of a 128-byte array, 64-byte aligned and
    `nvvm.grid_constant`, so that it is the address of a CUtensorMap passed
    by value (`.param .align 64 .b8 p[128]`, read in place by
    `cp.async.bulk.tensor`), and removes the attribute. The module's shared
    memory globals (the dynamic shared memory) are then aligned to 1024
    bytes, the alignment of a swizzled TMA box. It runs after
    `convert-gpu-to-nvvm`, which drops argument attributes. A malformed
    entry is an error.

    Example:

    ```
    mirage-opt --pass-pipeline='builtin.module(gpu.module(mirage-tensor-map-params))' k.mlir
    ```
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def MirageExternDynamicSharedPass
    : Pass<"mirage-extern-dynamic-shared", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare a lowered kernel's dynamic shared memory extern";
  let description = [{
    `convert-gpu-to-nvvm` gives `gpu.dynamic_shared_memory` an internal
    global of zero bytes, which the NVPTX back end prints as a one-byte
    shared variable (`.shared .align 16 .b8 __dynamic_shmem__0;`): ptxas
    then allocates that byte as static shared memory before the launch's
    dynamic bytes, and reports every access past it as a "Potential out of
    bound access". This pass makes each such global (address space 3, an
    array of no elements) an external declaration, which NVPTX prints as
    `.extern .shared .align 16 .b8 __dynamic_shmem__0[];`: the kernel's
    shared memory is then the launch's dynamic bytes alone, as for CUDA's
    `extern __shared__` arrays. It runs after `convert-gpu-to-nvvm`.

    Example:

    ```
    mirage-opt --pass-pipeline='builtin.module(gpu.module(mirage-extern-dynamic-shared))' k.mlir
    ```

    turns

    ```
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```

    into

    ```
    llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
  }];
}

def ConvertMirageKernelToGPUPass
    : Pass<"convert-mirage-kernel-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Turn kernel graphs of launches into host functions on buffers";
  let description = [{
    Rewrites each function whose body is a sequence of
    `mirage_kernel.launch` ops (what `mirage-kernel-expand-to-blocks` and
    `convert-mirage-block-to-gpu` leave) into a host function on memrefs:
    the tensor arguments become memrefs, each result becomes one more memref
    argument marked `mirage.result = i` (destination-passing style), every
    intermediate tensor becomes a `memref.alloc`, and each launch becomes a
    `gpu.launch_func` on flattened buffers, with its cluster shape and
    dynamic shared memory. A `matmul` left for the library
    (`mirage-kernel-expand-to-blocks{library-matmuls=true}`) becomes a
    `mirage_kernel.library_matmul` on its buffers. `mirage-bundle` reads
    the launch plan of the bundle off these functions.

    A function that returns one of its arguments, or the same value twice,
    gets an error: every result must be written by a kernel.

    Example:

    ```
    mirage-opt --convert-mirage-block-to-gpu --convert-mirage-kernel-to-gpu f.mlir
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def ConvertLinalgToMirageKernelPass
    : Pass<"convert-linalg-to-mirage-kernel", "::mlir::func::FuncOp"> {
  let summary = "Import linalg ops on tensors as mirage_kernel ops";
  let description = [{
    Rewrites every linalg op on static tensors of `f16`, `bf16` or `f32` that
    a kernel graph can express into `mirage_kernel` ops
    (docs/Embedding.md has the table): contractions in the matmul layout
    (`linalg.matmul`, `batch_matmul`, `linalg.contract`, generics) become
    `matmul`, elementwise ops (named, `linalg.elementwise`, `linalg.map`,
    parallel generics) one kernel op per scalar op of their body, sums
    (`linalg.reduce`, reduction generics) `reduction` ops, one per reduced
    dimension. An operand read through a broadcasting map (a dimension
    dropped, or a constant 0 on a dimension of size 1) becomes a kernel
    operand with a dimension of size 1, which the elementwise ops broadcast;
    `linalg.broadcast`, `linalg.copy` and reshapes that only add or drop unit
    dimensions are looked through. Accumulating into a zero `linalg.fill`
    (the fill-then-reduce idiom) is the plain op; into a kernel value, the op
    followed by an `add`. The kernel ops of an RMSNorm without eps, `x *
    rsqrt(sum(x²) / n)` over the last dimension, become one `rms_norm`.

    Kernel ops keep reduced dimensions with size 1 where linalg drops them:
    `tensor.collapse_shape` and `tensor.expand_shape` of unit dimensions
    connect the two, and fold away between kernel ops.

    First, unless `normalize=false`, upstream's linalg patterns normalize
    the ops: an elementwise generic whose result has one use fuses into its
    consumer, so that patterns spread over ops read as one body (`x *
    sigmoid(x)` is `silu`, `e * (1 / s)` is a division); unit dimensions
    leave iteration spaces, and a contraction with unit dimensions becomes
    one of lower rank (a `batch_matmul` of batch 1 a `matmul`), so that the
    reshapes frontends put around them fold away instead of separating the
    kernel ops.

    An op outside the kernel dialect's reach (a transpose, a max reduction, a
    cast, a dynamic shape, an integer tensor, ...) stays in place with a
    remark naming it and the reason; with `strict` it is an error and the
    pass fails.

    Example:

    ```
    mirage-opt --convert-linalg-to-mirage-kernel model.mlir
    ```
  }];
  let options = [
    Option<"strict", "strict", "bool", "false",
           "Report an op left unconverted as an error and fail">,
    Option<"normalize", "normalize", "bool", "true",
           "Fuse elementwise generics into their consumers and drop unit "
           "dimensions first">,
  ];
  let dependentDialects = ["::mlir::mirage::kernel::MirageKernelDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertTosaToMirageKernelPass
    : Pass<"convert-tosa-to-mirage-kernel", "::mlir::func::FuncOp"> {
  let summary = "Import TOSA ops as mirage_kernel ops, through linalg";
  let description = [{
    Runs upstream's TOSA lowering to linalg on tensors
    (`tosa-make-broadcastable`, `tosa-to-linalg-named`, `tosa-to-linalg`,
    `tosa-to-arith`, `tosa-to-tensor`), then
    `convert-linalg-to-mirage-kernel`, whose normalization folds the
    reshapes around `tosa.matmul`'s batch of 1 and makes `tosa.sigmoid` then
    `tosa.mul` one body that reads as `silu`. What TOSA lowers to and the
    kernel dialect cannot express stays as linalg, tensor or arith ops, with
    the linalg conversion's remarks; a TOSA op upstream cannot lower is
    upstream's error.

    Example:

    ```
    mirage-opt --convert-tosa-to-mirage-kernel model.mlir
    ```
  }];
  let options = [
    Option<"strict", "strict", "bool", "false",
           "Report an op left unconverted as an error and fail">,
  ];
  let dependentDialects = ["::mlir::mirage::kernel::MirageKernelDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // MIRAGE_CONVERSION_PASSES_TD
