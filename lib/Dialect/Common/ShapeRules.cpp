//===- ShapeRules.cpp - Shape rules shared by kernel and block ops --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Common/ShapeRules.h"
#include "Mirage/Dialect/Common/Traits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mirage;

std::string mlir::mirage::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  return llvm::join(
      llvm::map_range(shape, [](int64_t d) { return std::to_string(d); }), "x");
}

LogicalResult mlir::mirage::verifyDimInRange(EmitErrorFn emitError,
                                             StringRef what, int64_t dim,
                                             int64_t rank) {
  if (dim >= 0 && dim < rank)
    return success();
  return emitError() << what << " " << dim << " is out of range for rank "
                     << rank;
}

/// Checks that two operands and a result share their element type.
static LogicalResult verifySameElementType(EmitErrorFn emitError,
                                           ShapedType lhs, ShapedType rhs,
                                           ShapedType result) {
  if (lhs.getElementType() == rhs.getElementType() &&
      lhs.getElementType() == result.getElementType())
    return success();
  return emitError() << "element types differ: " << lhs.getElementType() << ", "
                     << rhs.getElementType() << " -> "
                     << result.getElementType();
}

FailureOr<SmallVector<int64_t>>
mlir::mirage::inferBroadcastShape(EmitErrorFn emitError, TypeRange operands) {
  auto first = cast<ShapedType>(operands.front());
  SmallVector<int64_t> shape(first.getShape());
  for (Type type : operands.drop_front()) {
    auto other = cast<ShapedType>(type);
    if (other.getRank() != first.getRank())
      return emitError() << "operand ranks differ: " << first.getRank()
                         << " vs " << other.getRank();
    for (auto [i, d] : llvm::enumerate(other.getShape())) {
      if (shape[i] == d || d == 1)
        continue;
      if (shape[i] != 1)
        return emitError() << "dimension " << i
                           << " does not broadcast: " << shape[i] << " vs "
                           << d;
      shape[i] = d;
    }
  }
  return shape;
}

LogicalResult mlir::mirage::verifyBroadcast(EmitErrorFn emitError,
                                            ShapedType lhs, ShapedType rhs,
                                            ShapedType result) {
  if (failed(verifySameElementType(emitError, lhs, rhs, result)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      inferBroadcastShape(emitError, TypeRange{lhs, rhs});
  if (failed(shape))
    return failure();
  if (result.getShape() != ArrayRef<int64_t>(*shape))
    return emitError() << "result shape is " << formatShape(result.getShape())
                       << ", expected " << formatShape(*shape);
  return success();
}

LogicalResult mlir::mirage::verifyMatmul(EmitErrorFn emitError, ShapedType lhs,
                                         ShapedType rhs, ShapedType result) {
  int64_t rank = lhs.getRank();
  if (rank < 2)
    return emitError() << "operands must have rank >= 2, got " << rank;
  if (rhs.getRank() != rank || result.getRank() != rank)
    return emitError() << "operand and result ranks differ: " << rank << ", "
                       << rhs.getRank() << " -> " << result.getRank();
  if (lhs.getElementType() != rhs.getElementType())
    return emitError() << "operand element types differ: "
                       << lhs.getElementType() << " vs "
                       << rhs.getElementType();
  Type out = result.getElementType();
  if (out != lhs.getElementType() && !out.isF32())
    return emitError() << "result element type " << out
                       << " must be the operands' (" << lhs.getElementType()
                       << ") or f32";
  ArrayRef<int64_t> a = lhs.getShape(), b = rhs.getShape(),
                    c = result.getShape();
  for (int64_t i = 0; i < rank - 2; ++i)
    if (a[i] != b[i])
      return emitError() << "batch dimension " << i << " differs: " << a[i]
                         << " vs " << b[i];
  if (a[rank - 1] != b[rank - 2])
    return emitError() << "contracting dimensions differ: " << a[rank - 1]
                       << " vs " << b[rank - 2];
  SmallVector<int64_t> expected(a.drop_back());
  expected.push_back(b[rank - 1]);
  if (c != ArrayRef<int64_t>(expected))
    return emitError() << "result shape is " << formatShape(c) << ", expected "
                       << formatShape(expected);
  return success();
}

LogicalResult mlir::mirage::verifyReduction(EmitErrorFn emitError,
                                            ShapedType input, int64_t dim,
                                            int64_t size, ShapedType result) {
  if (failed(
          verifyDimInRange(emitError, "reduction dim", dim, input.getRank())))
    return failure();
  int64_t extent = input.getDimSize(dim);
  if (size <= 0 || extent % size != 0)
    return emitError() << "reduction size " << size
                       << " does not divide dimension " << dim << " of size "
                       << extent;
  if (input.getElementType() != result.getElementType())
    return emitError() << "result element type " << result.getElementType()
                       << " differs from the input's "
                       << input.getElementType();
  SmallVector<int64_t> expected(input.getShape());
  expected[dim] = size;
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitError() << "result shape is " << formatShape(result.getShape())
                       << ", expected " << formatShape(expected);
  return success();
}

LogicalResult mlir::mirage::multiplyDim(EmitErrorFn emitError, int64_t &dim,
                                        int64_t factor) {
  int64_t product;
  if (llvm::MulOverflow(dim, factor, product))
    return emitError() << "dimension " << dim << " times " << factor
                       << " overflows a 64-bit size";
  dim = product;
  return success();
}

LogicalResult mlir::mirage::verifyRmsNorm(EmitErrorFn emitError,
                                          ShapedType input, int64_t size,
                                          APFloat eps) {
  if (!eps.isFinite() || eps.isNegative())
    return emitError() << "eps must be a finite non-negative number, got "
                       << eps.convertToFloat();
  int64_t trailing = 1;
  for (int64_t d : llvm::reverse(input.getShape())) {
    // The running product only grows, so stop before it can overflow.
    if (d != 0 && trailing > size / d)
      break;
    trailing *= d;
    if (trailing == size)
      return success();
  }
  return emitError() << "normalised size " << size
                     << " is not the product of trailing dimensions of "
                     << formatShape(input.getShape());
}

LogicalResult mlir::mirage::verifyConcat(EmitErrorFn emitError, ShapedType lhs,
                                         ShapedType rhs, int64_t dim,
                                         ShapedType result) {
  if (failed(verifySameElementType(emitError, lhs, rhs, result)))
    return failure();
  if (lhs.getRank() != rhs.getRank())
    return emitError() << "operand ranks differ: " << lhs.getRank() << " vs "
                       << rhs.getRank();
  if (failed(verifyDimInRange(emitError, "concat dim", dim, lhs.getRank())))
    return failure();
  SmallVector<int64_t> expected(lhs.getShape());
  for (auto [i, l, r] : llvm::enumerate(lhs.getShape(), rhs.getShape())) {
    if (static_cast<int64_t>(i) == dim) {
      if (llvm::AddOverflow(l, r, expected[i]))
        return emitError() << "concatenated dimension " << l << " + " << r
                           << " overflows a 64-bit size";
    } else if (l != r)
      return emitError() << "dimension " << i << " differs: " << l << " vs "
                         << r;
  }
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitError() << "result shape is " << formatShape(result.getShape())
                       << ", expected " << formatShape(expected);
  return success();
}

LogicalResult
mlir::mirage::detail::verifyBroadcastingElementwise(Operation *op) {
  auto emitError = [op] { return op->emitOpError(); };
  return verifyBroadcast(emitError,
                         cast<ShapedType>(op->getOperand(0).getType()),
                         cast<ShapedType>(op->getOperand(1).getType()),
                         cast<ShapedType>(op->getResult(0).getType()));
}
