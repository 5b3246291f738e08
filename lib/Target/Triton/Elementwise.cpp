//===- Elementwise.cpp - Elementwise functions as Python ------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "TileIndexing.h"

#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::triton;

FailureOr<std::string> triton::elementwiseExpr(Operation *op,
                                               ArrayRef<std::string> operands,
                                               ArrayLibrary library,
                                               bool &usesLibdevice) {
  std::optional<ElementwiseKind> kind = getElementwiseKind(op);
  if (!kind || operands.size() != getElementwiseArity(*kind))
    return op->emitOpError("is not an elementwise function");
  bool triton = library == ArrayLibrary::Triton;
  std::string lib = triton ? "tl." : "torch.";
  const std::string &x = operands[0];
  auto binary = [&](StringRef symbol) {
    return "(" + x + " " + symbol.str() + " " + operands[1] + ")";
  };
  switch (*kind) {
  case ElementwiseKind::Exp:
    return lib + "exp(" + x + ")";
  case ElementwiseKind::Square:
    return "(" + x + " * " + x + ")";
  case ElementwiseKind::Sqrt:
    return lib + "sqrt(" + x + ")";
  case ElementwiseKind::Rsqrt:
    return "(1.0 / " + lib + "sqrt(" + x + "))";
  case ElementwiseKind::Silu:
    return "(" + x + " / (1.0 + " + lib + "exp(-" + x + ")))";
  case ElementwiseKind::Gelu:
    // The exact GELU: x / 2 * (1 + erf(x / sqrt(2))).
    return "(0.5 * " + x + " * (1.0 + " + lib + "erf(" + x +
           " * 0.7071067811865476)))";
  case ElementwiseKind::Relu:
    return triton ? "tl.maximum(" + x + ", 0.0)" : "torch.relu(" + x + ")";
  case ElementwiseKind::Neg:
    return "(-" + x + ")";
  case ElementwiseKind::MulScalar: {
    auto value = op->getAttrOfType<FloatAttr>("value");
    return "(" + x + " * " + floatLiteral(value.getValueAsDouble()) + ")";
  }
  case ElementwiseKind::Add:
    return binary("+");
  case ElementwiseKind::Sub:
    return binary("-");
  case ElementwiseKind::Mul:
    return binary("*");
  case ElementwiseKind::Div:
    return binary("/");
  case ElementwiseKind::Pow:
    usesLibdevice |= triton;
    return (triton ? "libdevice.pow(" : "torch.pow(") + x + ", " + operands[1] +
           ")";
  }
  llvm_unreachable("unknown elementwise kind");
}
