//===- KernelOps.td - mirage_kernel operations -------------*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_TD
#define MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_TD

include "Mirage/Dialect/Kernel/IR/KernelDialect.td"
include "Mirage/Dialect/Common/ElementwiseOps.td"
include "Mirage/Dialect/Common/Common.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types and base classes
//===----------------------------------------------------------------------===//

defvar MK_Tensor = MirageDeviceTensor;

class MK_Op<string mnemonic, list<Trait> traits = []>
    : Op<MirageKernel_Dialect, mnemonic, traits>;

/// `op %x : tensor<...>`: an elementwise function of one tensor.
class MK_UnaryOp<MirageElementwiseFn fn>
    : MK_Op<fn.mnemonic, [Pure, SameOperandsAndResultType,
                          MirageElementwise<fn>]> {
  let summary = "Elementwise " # fn.mnemonic # " of a tensor";
  let description = "Computes " # fn.math # " for every element `x` of the "
    # "input; one kernel launch.\n\nExample:\n\n```mlir\n%y = mirage_kernel."
    # fn.mnemonic # " %x : tensor<8x4096xf16>\n```";
  let arguments = (ins MK_Tensor:$input);
  let results = (outs MK_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

/// `op %a, %b : tA, tB -> tC`: an elementwise function of two tensors with
/// broadcasting (each dimension equal, or 1 on one side).
class MK_BinaryOp<MirageElementwiseFn fn>
    : MK_Op<fn.mnemonic, [Pure, MirageBroadcastingElementwise,
                          MirageElementwise<fn>]> {
  let summary = "Elementwise " # fn.mnemonic # " of two tensors, broadcasting";
  let description = "Computes " # fn.math # " elementwise. The operands have "
    # "the same rank and element type; each dimension is equal on both sides "
    # "or 1 on one side, and the result has the larger size in each "
    # "dimension.\n\nExample:\n\n```mlir\n%c = mirage_kernel." # fn.mnemonic
    # " %a, %b : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> "
    # "tensor<2x256x4096xf16>\n```";
  let arguments = (ins MK_Tensor:$lhs, MK_Tensor:$rhs);
  let results = (outs MK_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

foreach fn = MirageUnaryFns in
  def MK_ # fn.cpp # Op : MK_UnaryOp<fn>;

foreach fn = MirageBinaryFns in
  def MK_ # fn.cpp # Op : MK_BinaryOp<fn>;

def MK_MulScalarOp : MK_Op<MirageMulScalarFn.mnemonic, [
    Pure, SameOperandsAndResultType, MirageElementwise<MirageMulScalarFn>]> {
  let summary = "Multiply every element of a tensor by a constant";
  let description = [{
    Computes `x * value` elementwise.

    Example:

    ```mlir
    %y = mirage_kernel.mul_scalar %x by 1.250000e-01 : tensor<2x256x64xf16>
    ```
  }];
  let arguments = (ins MK_Tensor:$input, F32Attr:$value);
  let results = (outs MK_Tensor:$result);
  let assemblyFormat = "$input `by` $value attr-dict `:` type($input)";
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

def MK_MatmulOp : MK_Op<"matmul", [Pure]> {
  let summary = "Batched matrix multiplication";
  let description = [{
    `[..., m, k] x [..., k, n] -> [..., m, n]`: both operands have the same
    rank (at least 2), equal leading (batch) dimensions and equal element
    types. The result has the operands' element type, or `f32` to keep the
    f32 accumulator.

    Example:

    ```mlir
    %s = mirage_kernel.matmul %q, %k
        : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
    ```
  }];
  let arguments = (ins MK_Tensor:$lhs, MK_Tensor:$rhs);
  let results = (outs MK_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ReductionOp
//===----------------------------------------------------------------------===//

def MK_ReductionOp : MK_Op<"reduction", [Pure]> {
  let summary = "Strided sum of one dimension down to `size` elements";
  let description = [{
    Sums dimension `dim` down to `size` elements (default 1) with the
    **strided** rule: `out[.., j, ..] = Σ_k in[.., j + k*size, ..]`, for
    `j < size` and `k < in.shape[dim] / size`. `size` must divide the
    dimension. This is the rule that makes split-KV graphs correct, where
    blocks write partial results side by side.

    Example:

    ```mlir
    %sum = mirage_kernel.reduction %e dim 2
        : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
    %part = mirage_kernel.reduction %p dim 2 size 64
        : tensor<2x256x4096xf16> -> tensor<2x256x64xf16>
    ```
  }];
  let arguments = (ins MK_Tensor:$input, ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$dim,
                   DefaultValuedAttr<ConfinedAttr<MirageI64Attr, [IntPositive]>, "1">:$size);
  let results = (outs MK_Tensor:$result);
  let assemblyFormat = [{
    $input `dim` $dim (`size` $size^)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ReductionMaxOp
//===----------------------------------------------------------------------===//

def MK_ReductionMaxOp : MK_Op<"reduction_max", [Pure]> {
  let summary = "Maximum of one dimension";
  let description = [{
    Takes the maximum over dimension `dim`, which becomes 1:
    `out[.., 0, ..] = max_k in[.., k, ..]`. It is the stabiliser of softmax
    as models write it, `exp(x - max(x)) / sum(exp(x - max(x)))`, which
    keeps `exp` from overflowing for large logits.

    The finite-field verifier evaluates it as a keyed random function of
    the row (max folded left to right): since `exp(x - m) = exp(x) *
    exp(-m)` holds exactly there, a max-subtracted softmax is proved equal
    to the plain one whatever `m` is (docs/Verification.md).

    Example:

    ```mlir
    %m = mirage_kernel.reduction_max %s dim 2
        : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
    %d = mirage_kernel.sub %s, %m
        : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
    ```
  }];
  let arguments = (ins MK_Tensor:$input,
                   ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$dim);
  let results = (outs MK_Tensor:$result);
  let assemblyFormat = [{
    $input `dim` $dim attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// RmsNormOp
//===----------------------------------------------------------------------===//

def MK_RmsNormOp : MK_Op<"rms_norm", [Pure, SameOperandsAndResultType]> {
  let summary = "Root-mean-square normalisation over the trailing elements";
  let description = [{
    For each group of `size` consecutive trailing elements `x` (`size` is the
    product of the last one or more dimensions), computes
    `x / sqrt(mean(x²) + eps)`. There is no affine weight: multiply by one
    separately. `eps` defaults to 0; the fused forms found by the
    superoptimizer carry the same `eps` (`forloop_accum rms_last eps`).

    Example:

    ```mlir
    %n = mirage_kernel.rms_norm %x size 4096 : tensor<2x4096xf16>
    %m = mirage_kernel.rms_norm %q size 64 eps 9.99999997E-7 : tensor<2x256x64xf16>
    ```
  }];
  let arguments = (ins MK_Tensor:$input, ConfinedAttr<MirageI64Attr, [IntPositive]>:$size,
                   DefaultValuedAttr<F32Attr, "0.0f">:$eps);
  let results = (outs MK_Tensor:$result);
  let assemblyFormat = [{
    $input `size` $size (`eps` $eps^)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ConcatOp / ChunkOp
//===----------------------------------------------------------------------===//

def MK_ConcatOp : MK_Op<"concat", [Pure]> {
  let summary = "Concatenate two tensors along one dimension";
  let description = [{
    The operands have the same rank and element type and agree on every
    dimension but `dim`; the result's `dim` is the sum.

    Example:

    ```mlir
    %c = mirage_kernel.concat %a, %b dim 1
        : tensor<8x64xf16>, tensor<8x32xf16> -> tensor<8x96xf16>
    ```
  }];
  let arguments = (ins MK_Tensor:$lhs, MK_Tensor:$rhs,
                   ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$dim);
  let results = (outs MK_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `dim` $dim attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def MK_ChunkOp : MK_Op<"chunk", [Pure]> {
  let summary = "Split a tensor into equal parts along one dimension";
  let description = [{
    Cuts dimension `dim` into `parts` contiguous chunks of equal size (which
    must divide it); result `i` is chunk `i`.

    Example:

    ```mlir
    %lo, %hi = mirage_kernel.chunk %x dim 1 parts 2
        : tensor<8x128xf16> -> tensor<8x64xf16>, tensor<8x64xf16>
    ```
  }];
  let arguments = (ins MK_Tensor:$input, ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$dim,
                   ConfinedAttr<MirageI64Attr, [IntMinValue<2>]>:$parts);
  let results = (outs Variadic<MK_Tensor>:$results);
  let assemblyFormat = [{
    $input `dim` $dim `parts` $parts attr-dict `:` type($input) `->` type($results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AllReduceOp
//===----------------------------------------------------------------------===//

def MK_AllReduceOp : MK_Op<"all_reduce", [SameOperandsAndResultType]> {
  let summary = "Sum a tensor across the GPUs of a multi-GPU program";
  let description = [{
    Every participating GPU holds a tensor of the same shape; each gets the
    elementwise sum of all of them. On a single GPU it is the identity.
    Reserved for multi-GPU programs: the code generator rejects it today.

    Example:

    ```mlir
    %s = mirage_kernel.all_reduce %x : tensor<8x4096xf16>
    ```
  }];
  let arguments = (ins MK_Tensor:$input);
  let results = (outs MK_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

//===----------------------------------------------------------------------===//
// GraphDefOp
//===----------------------------------------------------------------------===//

def MK_GraphDefOp : MK_Op<"graph_def", [
    IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "A custom kernel described by a thread-block graph";
  let description = [{
    Launches a grid of `grid[0] * grid[1] * grid[2]` thread blocks of
    `block[0] * block[1] * block[2]` threads. Every block runs the body once
    per for-loop iteration `i` in `[0, forloop)`: `input_loader`s cut this
    block's (and this iteration's) tile out of the kernel tensors,
    `forloop_accum`s combine values across iterations, and `output_saver`s
    write each block's tile of a result. The body's `mirage_block.yield`
    lists the results, in order.

    The header binds each operand to a body argument (`%X = %x`); the body
    uses the `mirage_block` dialect by default, so its ops print without the
    prefix. On sm_90a a `cluster` groups blocks into thread-block clusters
    (at most 8 blocks, or 16 when marked `non_portable`)
    whose shared memories the cluster collectives exchange.

    `async_copies` after the header (after `cluster` where there is one)
    asks the code generator to copy the body's staged tiles with
    `cp.async` even on a chip with the TMA unit (sm_90a), which it would
    use otherwise. Which of the two is faster depends on the kernel, so
    the superoptimizer emits both forms of a candidate for the tuner to
    measure; the attribute records the measured one.

    Example (the fused RMSNorm + Linear of the Mirage paper):

    ```mlir
    %o = mirage_kernel.graph_def(%X = %x : tensor<2x4096xf16>,
                                 %W = %w : tensor<4096x6144xf16>)
        -> tensor<2x6144xf16> grid [256, 1, 1] block [128, 1, 1] forloop 32 {
      %xt = input_loader %X imap <> fmap 1
          : tensor<2x4096xf16> -> !mirage_block.stensor<2x128xf16>
      %wt = input_loader %W imap <x = 1> fmap 0
          : tensor<4096x6144xf16> -> !mirage_block.stensor<128x24xf16>
      %mm = matmul %xt, %wt : !mirage_block.stensor<2x128xf16>,
          !mirage_block.stensor<128x24xf16> -> !mirage_block.stensor<2x24xf16>
      %acc = forloop_accum %mm sum
          : !mirage_block.stensor<2x24xf16> -> !mirage_block.stensor<2x24xf16>
      %rms = forloop_accum %xt rms_last
          : !mirage_block.stensor<2x128xf16> -> !mirage_block.stensor<2x1xf16>
      %y = div %acc, %rms : !mirage_block.stensor<2x24xf16>,
          !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x24xf16>
      %out = output_saver %y omap <x = 1>
          : !mirage_block.stensor<2x24xf16> -> tensor<2x6144xf16>
      yield %out : tensor<2x6144xf16>
    }
    ```
  }];
  let arguments = (ins Variadic<MK_Tensor>:$inputs,
                   DenseI32ArrayAttr:$grid, DenseI32ArrayAttr:$block,
                   ConfinedAttr<MirageI64Attr, [IntPositive]>:$forloop,
                   OptionalAttr<DenseI32ArrayAttr>:$cluster,
                   UnitAttr:$non_portable_cluster, UnitAttr:$async_copies);
  let results = (outs Variadic<MK_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;

  let extraClassDeclaration = [{
    /// The body block; its arguments stand for `getInputs()`.
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// Total number of thread blocks in the grid.
    int64_t getNumBlocks();
    /// Number of threads per block.
    int64_t getNumThreads();
    /// Largest number of blocks a cluster may hold for this op.
    int64_t getMaxClusterSize() { return getNonPortableCluster() ? 16 : 8; }
  }];
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

def MK_LaunchOp : MK_Op<"launch", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Launch a compiled GPU kernel on kernel tensors";
  let description = [{
    What `convert-mirage-block-to-gpu` leaves of a `graph_def` once its body
    has become the `gpu.func` named by `kernel`: the launch configuration and
    the dataflow of kernel tensors. The kernel takes one flat buffer per
    input, then one per result, in order, then, for a kernel with
    `mirage.combine_counters` (one that runs a graph_def and its combine
    tail), the i32 counters of its groups, then one TMA descriptor per entry
    of its `mirage.tensor_maps` attribute (sm_90a kernels whose staged tiles
    the TMA unit copies; Mirage/Conversion/TensorMaps.h); `shared_memory` is the dynamic
    shared memory it needs, in bytes. `convert-mirage-kernel-to-gpu` turns it
    into a `gpu.launch_func` on buffers.

    Example:

    ```mlir
    %o = mirage_kernel.launch @mirage_kernels::@f_kernel0(%x, %w)
        grid [256, 1, 1] block [128, 1, 1] cluster [1, 1, 1] shared_memory 4224
        : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
    ```
  }];
  let arguments = (ins SymbolRefAttr:$kernel, Variadic<MK_Tensor>:$inputs,
                   DenseI32ArrayAttr:$grid, DenseI32ArrayAttr:$block,
                   DenseI32ArrayAttr:$cluster, UnitAttr:$non_portable_cluster,
                   ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$shared_memory);
  let results = (outs Variadic<MK_Tensor>:$results);
  let assemblyFormat = [{
    $kernel `(` $inputs `)` `grid` custom<Dims>($grid) `block` custom<Dims>($block)
    `cluster` custom<Dims>($cluster) (`non_portable` $non_portable_cluster^)?
    `shared_memory` $shared_memory attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// LibraryMatmulOp
//===----------------------------------------------------------------------===//

def MK_LibraryMatmulOp : MK_Op<"library_matmul"> {
  let summary = "Run a batched matmul on buffers with the runtime's GEMM library";
  let description = [{
    What `convert-mirage-kernel-to-gpu` makes of a `matmul` that
    `mirage-kernel-expand-to-blocks{library-matmuls=true}` left for the
    vendor library: `result = lhs x rhs` on row-major buffers with the shapes
    and element types of `matmul` (`[..., m, k] x [..., k, n] -> [..., m,
    n]`, equal batch dimensions; the result in the operands' element type or
    `f32`). The bundle's plan runs it as a cuBLASLt call with `f32`
    accumulation (docs/Runtime.md, "Library matmuls").

    With `plus %addend` (a buffer of the result's type, not the result's
    own) it computes `result = lhs x rhs + addend`: the `add` that took the
    matmul's only result, run as the call's epilogue (cuBLASLt's `C` with
    `beta = 1`, the sum rounded once), so the add costs no kernel and no
    round trip of the product through memory
    (`kernel::getLibraryEpilogueMatmul`).

    Example:

    ```mlir
    mirage_kernel.library_matmul %a, %b, %c
        : memref<16x256xf16>, memref<256x4096xf16>, memref<16x4096xf16>
    mirage_kernel.library_matmul %xa, %lb, %out plus %xw
        : memref<16x16xf16>, memref<16x4096xf16>, memref<16x4096xf16>,
          memref<16x4096xf16>
    ```
  }];
  let arguments = (ins
    Arg<MemRefRankOf<[F16, BF16, F32], [2, 3, 4, 5, 6]>, "", [MemRead]>:$lhs,
    Arg<MemRefRankOf<[F16, BF16, F32], [2, 3, 4, 5, 6]>, "", [MemRead]>:$rhs,
    Arg<MemRefRankOf<[F16, BF16, F32], [2, 3, 4, 5, 6]>, "", [MemWrite]>:$result,
    Arg<Optional<MemRefRankOf<[F16, BF16, F32], [2, 3, 4, 5, 6]>>, "",
        [MemRead]>:$addend);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $result (`plus` $addend^)? attr-dict `:` type($lhs) `,`
    type($rhs) `,` type($result) (`,` type($addend)^)?
  }];
  let hasVerifier = 1;
}

#endif // MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_TD
