//===- BlockTypes.td - mirage_block types ------------------*- tablegen -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKTYPES_TD
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKTYPES_TD

include "Mirage/Dialect/Block/IR/BlockDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def MB_STensor : TypeDef<MirageBlock_Dialect, "STensor", [ShapedTypeInterface]> {
  let mnemonic = "stensor";
  let summary = "A tile owned by one thread block";
  let description = [{
    A dense, row-major tile with a static, positive shape of rank >= 1 and
    element type `f16`, `bf16` or `f32`, held in the block's shared memory or
    registers (the code generator chooses).

    Example: `!mirage_block.stensor<64x128xf16>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Tiles are always ranked.
    bool hasRank() const { return true; }
    /// Returns a tile with the given shape (or this one's) and element type.
    STensorType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          ::mlir::Type elementType) const;
  }];
}

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKTYPES_TD
