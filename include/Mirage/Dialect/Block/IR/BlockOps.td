//===- BlockOps.td - mirage_block operations ---------------*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKOPS_TD
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKOPS_TD

include "Mirage/Dialect/Block/IR/BlockAttrs.td"
include "Mirage/Dialect/Block/IR/BlockTypes.td"
include "Mirage/Dialect/Common/Common.td"
include "Mirage/Dialect/Common/ElementwiseOps.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class MB_Op<string mnemonic, list<Trait> traits = []>
    : Op<MirageBlock_Dialect, mnemonic, !listconcat(traits, [
        HasParent<"::mlir::mirage::kernel::GraphDefOp">])>;

/// A compute op on tiles.
class MB_ComputeOp<string mnemonic, list<Trait> traits = []>
    : MB_Op<mnemonic, !listconcat(traits, [Pure])>;

class MB_UnaryOp<MirageElementwiseFn fn>
    : MB_ComputeOp<fn.mnemonic, [SameOperandsAndResultType,
                                  MirageElementwise<fn>]> {
  let summary = "Elementwise " # fn.mnemonic # " of a tile";
  let description = "Computes " # fn.math # " for every element `x` of the "
    # "tile.\n\nExample:\n\n```mlir\n%y = " # fn.mnemonic
    # " %x : !mirage_block.stensor<64x64xf16>\n```";
  let arguments = (ins MB_STensor:$input);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
}

class MB_BinaryOp<MirageElementwiseFn fn>
    : MB_ComputeOp<fn.mnemonic, [MirageBroadcastingElementwise,
                                  MirageElementwise<fn>]> {
  let summary = "Elementwise " # fn.mnemonic # " of two tiles, broadcasting";
  let description = "Computes " # fn.math # " elementwise, broadcasting like "
    # "`mirage_kernel." # fn.mnemonic # "`.\n\nExample:\n\n```mlir\n%c = "
    # fn.mnemonic # " %a, %b : !mirage_block.stensor<64x64xf16>, "
    # "!mirage_block.stensor<64x1xf16> -> !mirage_block.stensor<64x64xf16>\n```";
  let arguments = (ins MB_STensor:$lhs, MB_STensor:$rhs);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// InputLoaderOp / OutputSaverOp
//===----------------------------------------------------------------------===//

def MB_InputLoaderOp : MB_Op<"input_loader", [Pure]> {
  let summary = "Load this block's tile of a kernel tensor";
  let description = [{
    `source` is an argument of the enclosing `graph_def`. For each grid axis
    `g` of size `G > 1` that `imap` maps to dimension `d`, dimension `d` is
    cut into `G` contiguous chunks and the block takes chunk `blockIdx.g`;
    unmapped axes replicate the tensor. Then, if `fmap` names a dimension, it
    is cut into `forloop` contiguous chunks and iteration `i` takes chunk `i`;
    without `fmap` every iteration sees the same tile. No two grid axes may
    map the same dimension.

    Example (the weight of RMSNorm + Linear, 256 blocks along x, 32
    iterations):

    ```mlir
    %w = input_loader %W imap <x = 1> fmap 0
        : tensor<4096x6144xf16> -> !mirage_block.stensor<128x24xf16>
    ```
  }];
  let arguments = (ins MirageDeviceTensor:$source, MB_GridMapAttr:$imap,
                   DefaultValuedAttr<ConfinedAttr<MirageI64Attr, [IntMinValue<-1>]>,
                                     "-1">:$fmap);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $source `imap` $imap (`fmap` $fmap^)? attr-dict `:` type($source) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True when the loaded tile changes with the for-loop iteration.
    bool isLoopVarying() { return getFmap() >= 0; }
  }];
}

def MB_OutputSaverOp : MB_Op<"output_saver"> {
  let summary = "Write this block's tile into a kernel result";
  let description = [{
    The inverse of `input_loader`'s `imap`: every grid axis of size > 1 must
    be mapped by `omap` to its own dimension, so that no two blocks write the
    same element, and the result is the tile with each mapped dimension
    multiplied by its grid size. The input must be computed after the
    for-loop (from `forloop_accum` results or loop-invariant tiles) unless
    the loop has a single iteration. The result may only be yielded.

    Example:

    ```mlir
    %o = output_saver %y omap <x = 1>
        : !mirage_block.stensor<2x24xf16> -> tensor<2x6144xf16>
    ```
  }];
  let arguments = (ins MB_STensor:$input, MB_GridMapAttr:$omap);
  let results = (outs MirageDeviceTensor:$result);
  let assemblyFormat = [{
    $input `omap` $omap attr-dict `:` qualified(type($input)) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute ops
//===----------------------------------------------------------------------===//

foreach fn = MirageUnaryFns in
  def MB_ # fn.cpp # Op : MB_UnaryOp<fn>;

foreach fn = MirageBinaryFns in
  def MB_ # fn.cpp # Op : MB_BinaryOp<fn>;

def MB_MulScalarOp : MB_ComputeOp<MirageMulScalarFn.mnemonic, [
    SameOperandsAndResultType, MirageElementwise<MirageMulScalarFn>]> {
  let summary = "Multiply every element of a tile by a constant";
  let description = [{
    Computes `x * value` elementwise.

    Example:

    ```mlir
    %y = mul_scalar %x by 1.250000e-01 : !mirage_block.stensor<64x64xf16>
    ```
  }];
  let arguments = (ins MB_STensor:$input, F32Attr:$value);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = "$input `by` $value attr-dict `:` qualified(type($input))";
}

def MB_MatmulOp : MB_ComputeOp<"matmul"> {
  let summary = "Multiply two tiles";
  let description = [{
    The shape rules of `mirage_kernel.matmul`, on tiles:
    `[..., m, k] x [..., k, n] -> [..., m, n]`.

    Example:

    ```mlir
    %c = matmul %a, %b : !mirage_block.stensor<64x32xf16>,
        !mirage_block.stensor<32x64xf16> -> !mirage_block.stensor<64x64xf32>
    ```
  }];
  let arguments = (ins MB_STensor:$lhs, MB_STensor:$rhs);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def MB_ReductionOp : MB_ComputeOp<"reduction"> {
  let summary = "Strided sum of one tile dimension down to `size` elements";
  let description = [{
    The strided rule of `mirage_kernel.reduction`:
    `out[.., j, ..] = Σ_k in[.., j + k*size, ..]`.

    Example:

    ```mlir
    %s = reduction %e dim 1 : !mirage_block.stensor<16x64xf16>
        -> !mirage_block.stensor<16x1xf16>
    ```
  }];
  let arguments = (ins MB_STensor:$input, ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$dim,
                   DefaultValuedAttr<ConfinedAttr<MirageI64Attr, [IntPositive]>, "1">:$size);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $input `dim` $dim (`size` $size^)? attr-dict `:` qualified(type($input))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def MB_ReductionMaxOp : MB_ComputeOp<"reduction_max"> {
  let summary = "Maximum of one tile dimension";
  let description = [{
    `mirage_kernel.reduction_max` on a tile: the maximum over `dim`, which
    becomes 1.

    Example:

    ```mlir
    %m = reduction_max %s dim 1 : !mirage_block.stensor<16x64xf16>
        -> !mirage_block.stensor<16x1xf16>
    ```
  }];
  let arguments = (ins MB_STensor:$input,
                   ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$dim);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $input `dim` $dim attr-dict `:` qualified(type($input))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def MB_RmsNormOp : MB_ComputeOp<"rms_norm", [SameOperandsAndResultType]> {
  let summary = "Root-mean-square normalisation of a tile";
  let description = [{
    `x / sqrt(mean(x²) + eps)` over each group of `size` trailing elements,
    as `mirage_kernel.rms_norm`.

    Example:

    ```mlir
    %n = rms_norm %q size 64 : !mirage_block.stensor<16x64xf16>
    ```
  }];
  let arguments = (ins MB_STensor:$input, ConfinedAttr<MirageI64Attr, [IntPositive]>:$size,
                   DefaultValuedAttr<F32Attr, "0.0f">:$eps);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $input `size` $size (`eps` $eps^)? attr-dict `:` qualified(type($input))
  }];
  let hasVerifier = 1;
}

def MB_ConcatOp : MB_ComputeOp<"concat"> {
  let summary = "Concatenate two tiles along one dimension";
  let description = [{
    As `mirage_kernel.concat`, on tiles.

    Example:

    ```mlir
    %c = concat %a, %b dim 1 : !mirage_block.stensor<8x16xf16>,
        !mirage_block.stensor<8x16xf16> -> !mirage_block.stensor<8x32xf16>
    ```
  }];
  let arguments = (ins MB_STensor:$lhs, MB_STensor:$rhs,
                   ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$dim);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `dim` $dim attr-dict `:` qualified(type($lhs)) `,`
    qualified(type($rhs)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ForloopAccumOp
//===----------------------------------------------------------------------===//

def MB_ForloopAccumOp : MB_Op<"forloop_accum", [Pure]> {
  let summary = "Combine a tile's values across the for-loop iterations";
  let description = [{
    Its result is available after the loop; ops that use it run once, after
    the last iteration. With `x_i` the input at iteration `i`:

    | kind | result |
    |---|---|
    | `sum` | `Σ_i x_i` (same shape) |
    | `sum_last` | `Σ_i Σ_j x_i[.., j]` (last dimension becomes 1) |
    | `sum_last_to size` | `Σ_i` of the strided reduction of the last dimension to `size` |
    | `rms_last [eps e]` | `sqrt(Σ_i Σ_j x_i[.., j]² / (forloop · n) + e)`, `n` the last dimension (becomes 1); `e` defaults to 0 |
    | `max` | elementwise `max_i x_i` (same shape) |

    The input must be a per-iteration or loop-invariant value, never an
    accumulated one. One accumulator may be read inside the loop: a `max`
    read by `sub %t, %m` with `%t` computed in the loop is a *running
    maximum*, whose value there is the maximum over all iterations (online
    softmax's shift; docs/LanguageReference.md, "Running maxima").

    Example:

    ```mlir
    %acc = forloop_accum %mm sum
        : !mirage_block.stensor<2x24xf16> -> !mirage_block.stensor<2x24xf16>
    %rms = forloop_accum %x rms_last
        : !mirage_block.stensor<2x128xf16> -> !mirage_block.stensor<2x1xf16>
    %rmse = forloop_accum %x rms_last eps 9.99999997E-7
        : !mirage_block.stensor<2x128xf16> -> !mirage_block.stensor<2x1xf16>
    %part = forloop_accum %e sum_last_to 64
        : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x64xf16>
    %m = forloop_accum %rowmax max
        : !mirage_block.stensor<16x1xf16> -> !mirage_block.stensor<16x1xf16>
    %shifted = sub %t, %m : !mirage_block.stensor<16x64xf16>,
        !mirage_block.stensor<16x1xf16> -> !mirage_block.stensor<16x64xf16>
    ```
  }];
  let arguments = (ins MB_STensor:$input, MB_AccumKindAttr:$kind,
                   OptionalAttr<ConfinedAttr<MirageI64Attr, [IntPositive]>>:$size,
                   DefaultValuedAttr<F32Attr, "0.0f">:$eps);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $input custom<AccumKind>($kind) ($size^)? (`eps` $eps^)? attr-dict `:`
    qualified(type($input)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ThreadGraphOp
//===----------------------------------------------------------------------===//

def MB_ThreadGraphOp : MB_Op<"thread_graph", [
    Pure, IsolatedFromAbove, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "A fused elementwise map over tiles, run per element in registers";
  let description = [{
    Applies its body, a `mirage_thread` program over scalars, to every element
    position of the broadcast shape of its operands (each operand has the
    same rank; every dimension equal or 1, as for binary ops). Body argument
    `i` is the element of operand `i`; the `mirage_thread.yield` operands are
    the elements of the results, which all have the broadcast shape.

    Example (a SiLU-gated product, fused):

    ```mlir
    %y = thread_graph %a, %b : !mirage_block.stensor<8x64xf16>,
        !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16> {
    ^bb0(%x: f16, %g: f16):
      %s = silu %x : f16
      %p = mul %s, %g : f16
      yield %p : f16
    }
    ```
  }];
  let arguments = (ins Variadic<MB_STensor>:$inputs);
  let results = (outs Variadic<MB_STensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` qualified(type($inputs)) `->` qualified(type($results))
    $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cluster collectives
//===----------------------------------------------------------------------===//

def MB_ClusterReduceOp : MB_ComputeOp<"cluster_reduce", [SameOperandsAndResultType]> {
  let summary = "Sum a tile over the blocks of a thread-block cluster";
  let description = [{
    Every block of a cluster contributes its tile and receives the elementwise
    sum over all blocks of its cluster, exchanged through distributed shared
    memory (sm_90a). Requires a `cluster` on the enclosing `graph_def`.

    Example:

    ```mlir
    %s = cluster_reduce %part : !mirage_block.stensor<16x64xf32>
    ```
  }];
  let arguments = (ins MB_STensor:$input);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
  let hasVerifier = 1;
}

def MB_ClusterReduceScatterOp : MB_ComputeOp<"cluster_reduce_scatter"> {
  let summary = "Sum a tile over a cluster and keep this block's chunk of it";
  let description = [{
    The elementwise sum over all blocks of the cluster, as `cluster_reduce`,
    cut along `dim` into as many chunks as the cluster has blocks; the block
    of cluster rank `r` (`rank = cx_idx + cx * (cy_idx + cy * cz_idx)`)
    receives chunk `r`. The result's `dim` is the input's divided by the
    cluster size. A block then saves only its own chunk, so a cluster can
    finish a split reduction (split-KV attention, split-K) in one kernel
    instead of writing partial sums for a second one. Requires a `cluster` on
    the enclosing `graph_def`.

    Example (a 4-block cluster along x; block x receives columns
    [16x, 16x+16) of the sum):

    ```mlir
    %s = cluster_reduce_scatter %part dim 1 : !mirage_block.stensor<32x64xf16>
        -> !mirage_block.stensor<32x16xf16>
    ```
  }];
  let arguments = (ins MB_STensor:$input, ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$dim);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $input `dim` $dim attr-dict `:` qualified(type($input)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def MB_ClusterGatherOp : MB_ComputeOp<"cluster_gather"> {
  let summary = "Concatenate the tiles of a thread-block cluster";
  let description = [{
    Every block receives the tiles of all blocks of its cluster concatenated
    along `dim`, in order of cluster rank
    (`rank = cx_idx + cx * (cy_idx + cy * cz_idx)`); the result's `dim` is the
    input's times the cluster size. Requires a `cluster` on the enclosing
    `graph_def`.

    Example (a 4-block cluster):

    ```mlir
    %g = cluster_gather %t dim 1 : !mirage_block.stensor<16x16xf16>
        -> !mirage_block.stensor<16x64xf16>
    ```
  }];
  let arguments = (ins MB_STensor:$input, ConfinedAttr<MirageI64Attr, [IntNonNegative]>:$dim);
  let results = (outs MB_STensor:$result);
  let assemblyFormat = [{
    $input `dim` $dim attr-dict `:` qualified(type($input)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def MB_YieldOp : MB_Op<"yield", [Pure, Terminator, ReturnLike]> {
  let summary = "The results of a graph_def";
  let description = [{
    Terminates a `graph_def` body. Each operand is the result of an
    `output_saver`, and the operand types are the `graph_def` result types.
    Its verifier also checks the loop phases of the whole body: no op mixes
    per-iteration values with accumulated ones, `forloop_accum` never takes an
    accumulated value, and `output_saver` takes a per-iteration value only
    when the loop has one iteration.

    Example:

    ```mlir
    yield %out : tensor<2x6144xf16>
    ```
  }];
  let arguments = (ins Variadic<MirageDeviceTensor>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
  let hasVerifier = 1;
}

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKOPS_TD
