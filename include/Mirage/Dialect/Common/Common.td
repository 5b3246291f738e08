//===- Common.td - Constraints and traits shared by all levels *- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_COMMON_COMMON_TD
#define MIRAGE_DIALECT_COMMON_COMMON_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"

/// A device-memory tensor: static shape, element type f16, bf16 or f32.
def MirageDeviceTensor : StaticShapeTensorOf<[F16, BF16, F32]>;

/// A 64-bit signless integer attribute read as a signed `int64_t` (upstream's
/// `I64Attr` reads as `uint64_t`, which makes `-1` sentinels compare wrongly).
def MirageI64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t",
                                                 "64-bit signless integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

/// A scalar element of a Mirage tensor or tile.
def MirageElementType : AnyTypeOf<[F16, BF16, F32]>;

/// Two shaped operands that broadcast to the result (see Traits.h).
def MirageBroadcastingElementwise : NativeOpTrait<"BroadcastingElementwise"> {
  let cppNamespace = "::mlir::mirage";
}

#endif // MIRAGE_DIALECT_COMMON_COMMON_TD
