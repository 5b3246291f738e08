//===- ElementwiseKind.td - The enum of elementwise functions *- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `ElementwiseKind`, one enumerator per function of ElementwiseOps.td, in the
// order of MirageElementwiseFns; its string form is the op mnemonic
// (stringifyElementwiseKind / symbolizeElementwiseKind). Kept out of
// ElementwiseOps.td so that the dialect references do not each repeat it.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_COMMON_ELEMENTWISEKIND_TD
#define MIRAGE_DIALECT_COMMON_ELEMENTWISEKIND_TD

include "Mirage/Dialect/Common/ElementwiseOps.td"
include "mlir/IR/EnumAttr.td"

def MirageElementwiseKind : I32Enum<"ElementwiseKind",
    "elementwise function",
    !foreach(i, !range(!size(MirageElementwiseFns)),
             I32EnumCase<MirageElementwiseFns[i].cpp, i,
                         MirageElementwiseFns[i].mnemonic>)> {
  let cppNamespace = "::mlir::mirage";
}

#endif // MIRAGE_DIALECT_COMMON_ELEMENTWISEKIND_TD
