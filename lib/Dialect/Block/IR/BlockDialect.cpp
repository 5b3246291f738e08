//===- BlockDialect.cpp - mirage_block dialect, types and attributes ------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Block/IR/BlockDialect.h"

#include "Mirage/Dialect/Block/IR/BlockAttrs.h"
#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Block/IR/BlockTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mirage::block;

#include "Mirage/Dialect/Block/IR/BlockDialect.cpp.inc"
#include "Mirage/Dialect/Block/IR/BlockEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Mirage/Dialect/Block/IR/BlockTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Mirage/Dialect/Block/IR/BlockAttrs.cpp.inc"

void MirageBlockDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Mirage/Dialect/Block/IR/BlockTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Mirage/Dialect/Block/IR/BlockAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Mirage/Dialect/Block/IR/BlockOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// STensorType
//===----------------------------------------------------------------------===//

Type STensorType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType);
}

void STensorType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t d : getShape())
    printer << d << 'x';
  printer << getElementType() << '>';
}

LogicalResult STensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "a tile must have rank >= 1";
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "tile dimensions must be positive, got " << d;
  if (!elementType.isF16() && !elementType.isBF16() && !elementType.isF32())
    return emitError() << "tile element type must be f16, bf16 or f32, got "
                       << elementType;
  return success();
}

STensorType STensorType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                   Type elementType) const {
  return STensorType::get(shape.value_or(getShape()), elementType);
}

//===----------------------------------------------------------------------===//
// GridMapAttr
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kGridAxes[] = {"x", "y", "z"};

int32_t GridMapAttr::getDim(unsigned axis) const { return getDims()[axis]; }

Attribute GridMapAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  int32_t dims[3] = {-1, -1, -1};
  bool seen[3] = {false, false, false};
  auto parseEntry = [&]() -> ParseResult {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    const StringLiteral *axis = llvm::find(kGridAxes, key);
    if (axis == std::end(kGridAxes))
      return parser.emitError(keyLoc)
             << "expected grid axis 'x', 'y' or 'z', got '" << key << "'";
    unsigned index = axis - std::begin(kGridAxes);
    if (seen[index])
      return parser.emitError(keyLoc)
             << "grid axis '" << key << "' is mapped twice";
    seen[index] = true;
    return failure(parser.parseEqual() || parser.parseInteger(dims[index]));
  };
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater()) &&
      (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater()))
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    dims[0], dims[1], dims[2]);
}

void GridMapAttr::print(AsmPrinter &printer) const {
  printer << '<';
  bool first = true;
  for (auto [name, dim] : llvm::zip(kGridAxes, getDims())) {
    if (dim < 0)
      continue;
    printer << (first ? "" : ", ") << name << " = " << dim;
    first = false;
  }
  printer << '>';
}

LogicalResult GridMapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int32_t x, int32_t y, int32_t z) {
  int32_t dims[] = {x, y, z};
  for (auto [name, dim] : llvm::zip(kGridAxes, dims))
    if (dim < -1)
      return emitError() << "grid axis " << name
                         << " must map a dimension index or -1, got " << dim;
  return success();
}
