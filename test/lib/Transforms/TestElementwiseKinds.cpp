//===- TestElementwiseKinds.cpp - mirage-test-elementwise-kinds -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"

namespace mlir::mirage::test {
#define GEN_PASS_DEF_TESTELEMENTWISEKINDSPASS
#include "TestPasses.h.inc"
} // namespace mlir::mirage::test

using namespace mlir;
using namespace mlir::mirage;

namespace {

struct TestElementwiseKindsPass
    : mirage::test::impl::TestElementwiseKindsPassBase<
          TestElementwiseKindsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      StringRef mnemonic = op->getName().stripDialect();
      std::optional<ElementwiseKind> kind = getElementwiseKind(op);
      if (!kind) {
        StringRef dialect = op->getName().getDialectNamespace();
        if (dialect.starts_with("mirage_") &&
            symbolizeElementwiseKind(mnemonic))
          op->emitError("is named like an elementwise function but has no "
                        "ElementwiseKind");
        return;
      }
      StringRef name = stringifyElementwiseKind(*kind);
      unsigned arity = getElementwiseArity(*kind);
      op->emitRemark() << name << ", " << arity
                       << (arity == 1 ? " operand" : " operands");
      if (mnemonic != name)
        op->emitError() << "reports kind " << name;
      if (op->getNumOperands() != arity)
        op->emitError() << "has " << op->getNumOperands() << " operands";
    });
  }
};

} // namespace
