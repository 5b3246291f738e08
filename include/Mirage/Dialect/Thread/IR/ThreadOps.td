//===- ThreadOps.td - mirage_thread operations -------------*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_THREAD_IR_THREADOPS_TD
#define MIRAGE_DIALECT_THREAD_IR_THREADOPS_TD

include "Mirage/Dialect/Thread/IR/ThreadDialect.td"
include "Mirage/Dialect/Common/Common.td"
include "Mirage/Dialect/Common/ElementwiseOps.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class MT_Op<string mnemonic, list<Trait> traits = []>
    : Op<MirageThread_Dialect, mnemonic, !listconcat(traits, [
        HasParent<"::mlir::mirage::block::ThreadGraphOp">])>;

class MT_UnaryOp<MirageElementwiseFn fn>
    : MT_Op<fn.mnemonic, [Pure, SameOperandsAndResultType,
                          MirageElementwise<fn>]> {
  let summary = "Scalar " # fn.mnemonic;
  let description = "Computes " # fn.math # " on one element, in registers."
    # "\n\nExample:\n\n```mlir\n%y = " # fn.mnemonic # " %x : f16\n```";
  let arguments = (ins MirageElementType:$input);
  let results = (outs MirageElementType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

class MT_BinaryOp<MirageElementwiseFn fn>
    : MT_Op<fn.mnemonic, [Pure, SameOperandsAndResultType,
                          MirageElementwise<fn>]> {
  let summary = "Scalar " # fn.mnemonic;
  let description = "Computes " # fn.math # " on two elements of one type, in "
    # "registers.\n\nExample:\n\n```mlir\n%c = " # fn.mnemonic
    # " %a, %b : f32\n```";
  let arguments = (ins MirageElementType:$lhs, MirageElementType:$rhs);
  let results = (outs MirageElementType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

foreach fn = MirageUnaryFns in
  def MT_ # fn.cpp # Op : MT_UnaryOp<fn>;

foreach fn = MirageBinaryFns in
  def MT_ # fn.cpp # Op : MT_BinaryOp<fn>;

def MT_MulScalarOp : MT_Op<MirageMulScalarFn.mnemonic, [
    Pure, SameOperandsAndResultType, MirageElementwise<MirageMulScalarFn>]> {
  let summary = "Multiply an element by a constant";
  let description = [{
    Computes `x * value`.

    Example:

    ```mlir
    %y = mul_scalar %x by 5.000000e-01 : f16
    ```
  }];
  let arguments = (ins MirageElementType:$input, F32Attr:$value);
  let results = (outs MirageElementType:$result);
  let assemblyFormat = "$input `by` $value attr-dict `:` type($input)";
}

def MT_YieldOp : MT_Op<"yield", [Pure, Terminator, ReturnLike]> {
  let summary = "The per-element results of a thread_graph";
  let description = [{
    Terminates a `mirage_block.thread_graph` body; operand `i` is the element
    of result `i`.

    Example:

    ```mlir
    yield %p : f16
    ```
  }];
  let arguments = (ins Variadic<MirageElementType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

#endif // MIRAGE_DIALECT_THREAD_IR_THREADOPS_TD
