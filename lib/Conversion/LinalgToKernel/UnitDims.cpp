//===- UnitDims.cpp - Reshapes that add or drop unit dimensions -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "UnitDims.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mirage;

namespace {

SmallVector<int64_t> withoutUnitDims(ArrayRef<int64_t> shape) {
  return llvm::filter_to_vector(shape, [](int64_t size) { return size != 1; });
}

/// The reassociation that collapses `shape` to withoutUnitDims(shape): one
/// group per dimension other than 1, unit dimensions joining the group
/// before them (leading ones the first group); none when every dimension is
/// 1 (a rank-0 result).
SmallVector<ReassociationIndices> getUnitDimGroups(ArrayRef<int64_t> shape) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  for (auto [index, size] : llvm::enumerate(shape)) {
    if (size != 1) {
      groups.push_back(leading);
      leading.clear();
      groups.back().push_back(index);
    } else if (groups.empty()) {
      leading.push_back(index);
    } else {
      groups.back().push_back(index);
    }
  }
  return groups;
}

} // namespace

bool import::differInUnitDimsOnly(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return withoutUnitDims(a) == withoutUnitDims(b);
}

Value import::findUnitDimReshape(Value value, RankedTensorType type) {
  while (value) {
    if (value.getType() == type)
      return value;
    Operation *def = value.getDefiningOp();
    if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(def))
      value = expand.getSrc();
    else if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(def))
      value = collapse.getSrc();
    else
      return nullptr;
  }
  return nullptr;
}

Value import::reshapeUnitDims(OpBuilder &builder, Location loc, Value value,
                              RankedTensorType type) {
  if (Value found = findUnitDimReshape(value, type))
    return found;
  auto sourceType = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> squeezed = withoutUnitDims(sourceType.getShape());
  if (squeezed.size() != static_cast<size_t>(sourceType.getRank()))
    value = tensor::CollapseShapeOp::create(
        builder, loc, sourceType.clone(squeezed), value,
        getUnitDimGroups(sourceType.getShape()));
  if (squeezed.size() != static_cast<size_t>(type.getRank()))
    value = tensor::ExpandShapeOp::create(builder, loc, type, value,
                                          getUnitDimGroups(type.getShape()));
  return value;
}
