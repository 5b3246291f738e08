//===- BlockAttrs.td - mirage_block attributes -------------*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKATTRS_TD
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKATTRS_TD

include "Mirage/Dialect/Block/IR/BlockDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def MB_GridMapAttr : AttrDef<MirageBlock_Dialect, "GridMap"> {
  let mnemonic = "map";
  let summary = "Which tensor dimension each grid axis partitions";
  let description = [{
    For each grid axis `x`, `y`, `z`: the tensor dimension that the axis cuts
    into contiguous per-block chunks, or -1 when the axis does not partition
    the tensor (an input is replicated across that axis). Axes that are -1
    are omitted when printed; `<>` maps no axis.

    Example: `#mirage_block.map<x = 1, z = 0>`; inside an op, `imap <x = 1>`.
  }];
  let parameters = (ins "int32_t":$x, "int32_t":$y, "int32_t":$z);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The mapped dimension of grid axis `axis` (0 = x, 1 = y, 2 = z).
    int32_t getDim(unsigned axis) const;
    /// The three entries in axis order.
    ::llvm::SmallVector<int32_t, 3> getDims() const {
      return {getX(), getY(), getZ()};
    }
  }];
}

def MB_AccumKind : I32EnumAttr<"AccumKind", "for-loop accumulator kind", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"SumLast", 1, "sum_last">,
    I32EnumAttrCase<"SumLastTo", 2, "sum_last_to">,
    I32EnumAttrCase<"RmsLast", 3, "rms_last">,
    I32EnumAttrCase<"Max", 4, "max">]> {
  let cppNamespace = "::mlir::mirage::block";
  let genSpecializedAttr = 0;
}

def MB_AccumKindAttr : EnumAttr<MirageBlock_Dialect, MB_AccumKind, "accum_kind"> {
  let assemblyFormat = "$value";
}

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKATTRS_TD
