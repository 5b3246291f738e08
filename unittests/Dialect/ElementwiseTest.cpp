//===- ElementwiseTest.cpp - ElementwiseKind and its op interface ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The enum generated from ElementwiseOps.td round-trips through its string
// and integer forms, and each of the three dialects has exactly one op per
// kind, which reports that kind through ElementwiseOpInterface and is named
// by its string form.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Common/ElementwiseKind.h"
#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Dialect/Thread/IR/ThreadOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::mirage;

namespace {

TEST(ElementwiseKindTest, RoundTrips) {
  for (unsigned value = 0; value < kNumElementwiseKinds; ++value) {
    std::optional<ElementwiseKind> kind = symbolizeElementwiseKind(value);
    ASSERT_TRUE(kind) << value;
    EXPECT_EQ(static_cast<unsigned>(*kind), value);
    StringRef name = stringifyElementwiseKind(*kind);
    EXPECT_FALSE(name.empty()) << value;
    EXPECT_EQ(symbolizeElementwiseKind(name), kind) << name.str();
  }
  EXPECT_FALSE(symbolizeElementwiseKind(kNumElementwiseKinds));
  EXPECT_FALSE(symbolizeElementwiseKind("matmul"));
  EXPECT_FALSE(symbolizeElementwiseKind("Exp"));
  EXPECT_EQ(stringifyElementwiseKind(ElementwiseKind::MulScalar), "mul_scalar");
  EXPECT_EQ(symbolizeElementwiseKind("pow"), ElementwiseKind::Pow);
}

TEST(ElementwiseKindTest, Arity) {
  EXPECT_EQ(getElementwiseArity(ElementwiseKind::Exp), 1u);
  EXPECT_EQ(getElementwiseArity(ElementwiseKind::Neg), 1u);
  EXPECT_EQ(getElementwiseArity(ElementwiseKind::MulScalar), 1u);
  EXPECT_EQ(getElementwiseArity(ElementwiseKind::Add), 2u);
  EXPECT_EQ(getElementwiseArity(ElementwiseKind::Pow), 2u);
}

class ElementwiseOpInterfaceTest : public ::testing::Test {
protected:
  ElementwiseOpInterfaceTest() {
    context.loadDialect<kernel::MirageKernelDialect, block::MirageBlockDialect,
                        thread::MirageThreadDialect>();
  }

  MLIRContext context;
};

// Every op of each dialect: the elementwise ones implement the interface
// once per kind, named by the kind; no other op has a kind's name.
TEST_F(ElementwiseOpInterfaceTest, OneOpPerKindInEachDialect) {
  for (StringRef dialect : {"mirage_kernel", "mirage_block", "mirage_thread"}) {
    SCOPED_TRACE(dialect.str());
    std::vector<int> opsOfKind(kNumElementwiseKinds, 0);
    for (RegisteredOperationName name : context.getRegisteredOperations()) {
      if (name.getDialectNamespace() != dialect)
        continue;
      StringRef mnemonic = name.stripDialect();
      if (!name.hasInterface<ElementwiseOpInterface>()) {
        EXPECT_FALSE(symbolizeElementwiseKind(mnemonic))
            << name.getStringRef().str() << " lacks ElementwiseOpInterface";
        continue;
      }
      ElementwiseKind kind =
          name.getInterface<ElementwiseOpInterface>()->getElementwiseKind();
      EXPECT_EQ(stringifyElementwiseKind(kind), mnemonic);
      ++opsOfKind[static_cast<unsigned>(kind)];
    }
    for (unsigned value = 0; value < kNumElementwiseKinds; ++value)
      EXPECT_EQ(opsOfKind[value], 1)
          << stringifyElementwiseKind(static_cast<ElementwiseKind>(value))
                 .str();
  }
}

// getElementwiseKind on op instances: the kind for elementwise ops, nothing
// for the others.
TEST_F(ElementwiseOpInterfaceTest, GetElementwiseKindOfOps) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto type = RankedTensorType::get({8, 64}, builder.getF16Type());
  Block *block = new Block();
  module->getBodyRegion().push_back(block);
  Value x = block->addArgument(type, loc), y = block->addArgument(type, loc);
  builder.setInsertionPointToEnd(block);

  auto exp = kernel::ExpOp::create(builder, loc, x);
  EXPECT_EQ(getElementwiseKind(exp), ElementwiseKind::Exp);
  EXPECT_EQ(exp.getElementwiseKind(), ElementwiseKind::Exp);
  auto pow = kernel::PowOp::create(builder, loc, type, x, y);
  EXPECT_EQ(getElementwiseKind(pow), ElementwiseKind::Pow);
  auto scale = kernel::MulScalarOp::create(builder, loc, x,
                                           builder.getF32FloatAttr(0.5));
  EXPECT_EQ(getElementwiseKind(scale), ElementwiseKind::MulScalar);
  auto matmul = kernel::MatmulOp::create(builder, loc, type, x, y);
  EXPECT_EQ(getElementwiseKind(matmul), std::nullopt);
  EXPECT_EQ(getElementwiseKind(module->getOperation()), std::nullopt);

  static_assert(block::AddOp::getElementwiseKind() == ElementwiseKind::Add);
  static_assert(thread::MulScalarOp::getElementwiseKind() ==
                ElementwiseKind::MulScalar);
}

} // namespace
