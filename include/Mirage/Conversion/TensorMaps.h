//===- TensorMaps.h - TMA descriptors of generated kernels ------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A kernel that copies tiles with the TMA unit takes, after its buffers, one
// TMA descriptor (a 128-byte CUtensorMap passed by value) per copied input.
// The descriptors are described by the `mirage.tensor_maps` attribute, which
// convert-mirage-block-to-gpu puts on the kernel, convert-mirage-kernel-to-gpu
// copies onto each `gpu.launch_func` of it (whose operand for the parameter
// is the input's buffer), mirage-tensor-map-params turns into the
// parameter's attributes, and the bundle writer records in the launch plan
// for the runtime to encode (docs/CodeGeneration.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_TENSORMAPS_H
#define MIRAGE_CONVERSION_TENSORMAPS_H

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::mirage {

/// The attribute: an array with one dictionary per descriptor parameter,
/// `{argument = K : i64, input = I : i64, shape = array<i64: ...>, box =
/// array<i64: ...>}`: kernel parameter K is the descriptor of the kernel's
/// input I, a dense row-major tensor of that shape, whose copies move boxes
/// of that shape (outermost dimension first). An optional `swizzle = S : i64`
/// (32, 64 or 128, the bytes of the box's rows) makes the copies write the
/// box swizzled in shared memory (CU_TENSOR_MAP_SWIZZLE_<S>B, the layout of
/// a Tile with swizzle S, KernelEmitter.h); absent, the box is dense.
inline constexpr StringLiteral kTensorMapsAttrName = "mirage.tensor_maps";

/// One entry of the attribute.
struct TensorMapParam {
  unsigned argument;
  unsigned input;
  SmallVector<int64_t, 4> shape;
  SmallVector<int64_t, 4> box;
  /// 0 (dense), 32, 64 or 128.
  int64_t swizzle = 0;

  DictionaryAttr toAttr(MLIRContext *context) const;
  /// The entry `attr` describes, or nullopt when it is malformed.
  static std::optional<TensorMapParam> fromAttr(Attribute attr);
};

/// The size of a TMA descriptor (CUtensorMap) in bytes, and its alignment.
inline constexpr int64_t kTensorMapBytes = 128, kTensorMapAlignment = 64;

} // namespace mlir::mirage

#endif // MIRAGE_CONVERSION_TENSORMAPS_H
