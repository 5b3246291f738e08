//===- LinalgToKernel.cpp - convert-linalg-to-mirage-kernel ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/LinalgToKernel/LinalgToKernel.h"
#include "Mirage/Conversion/Passes.h"

#include "ImportPlan.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "UnitDims.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_CONVERTLINALGTOMIRAGEKERNELPASS
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::import;

namespace {

/// Creates the kernel op of `kind` on `operands`, of result type `type`.
Value createElementwise(OpBuilder &builder, Location loc, ElementwiseKind kind,
                        ValueRange operands, Type type, float scalar) {
  OperationState state(
      loc, ("mirage_kernel." + stringifyElementwiseKind(kind)).str());
  state.addOperands(operands);
  state.addTypes(type);
  if (kind == ElementwiseKind::MulScalar)
    state.addAttribute("value", builder.getF32FloatAttr(scalar));
  return builder.create(state)->getResult(0);
}

/// Builds the kernel ops of `plan`; returns the value that replaces the
/// linalg op's result.
Value buildPlan(OpBuilder &builder, Location loc, const ImportPlan &plan) {
  Type elementType = plan.resultType.getElementType();
  SmallVector<Value> values;
  for (const PlanValue &value : plan.values) {
    if (!value.kind) {
      auto sourceType = cast<RankedTensorType>(value.source.getType());
      values.push_back(reshapeUnitDims(builder, loc, value.source,
                                       sourceType.clone(value.shape)));
      continue;
    }
    SmallVector<Value, 2> operands;
    for (int operand : value.operands)
      operands.push_back(values[operand]);
    values.push_back(createElementwise(
        builder, loc, *value.kind, operands,
        RankedTensorType::get(value.shape, elementType), value.scalar));
  }

  Value result;
  if (plan.kind == ImportPlan::Kind::Matmul) {
    result = kernel::MatmulOp::create(
        builder, loc, RankedTensorType::get(plan.matmulShape, elementType),
        values[0], values[1]);
  } else {
    result = values[plan.root];
    for (int64_t dim : plan.reducedDims) {
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[dim] = 1;
      result = plan.maximum
                   ? kernel::ReductionMaxOp::create(
                         builder, loc, type.clone(shape), result, dim)
                   : kernel::ReductionOp::create(builder, loc,
                                                 type.clone(shape), result, dim,
                                                 /*size=*/1)
                         .getResult();
    }
  }
  if (plan.accumulator) {
    Value accumulator =
        reshapeUnitDims(builder, loc, plan.accumulator,
                        cast<RankedTensorType>(result.getType()));
    result = kernel::AddOp::create(builder, loc, result.getType(), accumulator,
                                   result);
  }
  return reshapeUnitDims(builder, loc, result, plan.resultType);
}

/// Rewrites a linalg op into the kernel ops of its plan.
struct LinalgOpToKernel : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    std::string reason;
    FailureOr<ImportPlan> plan = planImport(op, reason);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, reason);
    rewriter.replaceOp(op, buildPlan(rewriter, op.getLoc(), *plan));
    return success();
  }
};

/// Recognizes RMSNorm without eps in the kernel ops of its parts, `x *
/// rsqrt(sum(x²) * (1/n))` over the last dimension of extent `n` (how
/// frontends write it), and makes it one `rms_norm`.
struct RecognizeRmsNorm : public OpRewritePattern<kernel::MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(kernel::MulOp mul,
                                PatternRewriter &rewriter) const override {
    for (auto [x, factor] : {std::pair(mul.getLhs(), mul.getRhs()),
                             std::pair(mul.getRhs(), mul.getLhs())}) {
      auto type = cast<RankedTensorType>(x.getType());
      if (type != mul.getType() || !isRootMeanSquareReciprocal(factor, x))
        continue;
      rewriter.replaceOpWithNewOp<kernel::RmsNormOp>(
          mul, x, rewriter.getI64IntegerAttr(type.getShape().back()),
          rewriter.getF32FloatAttr(0.0f));
      return success();
    }
    return rewriter.notifyMatchFailure(mul, "not an RMSNorm");
  }

  /// True when `value` is `rsqrt(sum(x²) * (1/n))` over the last dimension.
  static bool isRootMeanSquareReciprocal(Value value, Value x) {
    auto rsqrt = value.getDefiningOp<kernel::RsqrtOp>();
    auto mean =
        rsqrt ? rsqrt.getInput().getDefiningOp<kernel::MulScalarOp>() : nullptr;
    auto sum =
        mean ? mean.getInput().getDefiningOp<kernel::ReductionOp>() : nullptr;
    auto square =
        sum ? sum.getInput().getDefiningOp<kernel::SquareOp>() : nullptr;
    if (!square || square.getInput() != x || sum.getSize() != 1)
      return false;
    auto type = cast<RankedTensorType>(x.getType());
    int64_t last = type.getRank() - 1;
    double n = type.getShape().back();
    return sum.getDim() == last &&
           std::abs(mean.getValue().convertToDouble() * n - 1.0) < 1e-6;
  }
};

/// Upstream's patterns that bring linalg ops into the forms the importer
/// reads best: elementwise fusion, unit dimensions dropped, contractions of
/// unit dimensions rank-reduced.
void populateLinalgNormalizationPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [](OpOperand *operand) {
        Operation *producer = operand->get().getDefiningOp();
        return producer && producer->hasOneUse();
      });
  // A fused body reads a tensor both ops read through two arguments;
  // deduplicating them lets the body's patterns see one value.
  linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
  linalg::FillOp::getCanonicalizationPatterns(patterns, context);
  linalg::ControlDropUnitDims dropUnitDims;
  linalg::populateFoldUnitExtentDimsPatterns(patterns, dropUnitDims);
  linalg::populateContractionOpRankReducingPatterns(patterns);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
}

struct ConvertLinalgToMirageKernelPass
    : public mirage::impl::ConvertLinalgToMirageKernelPassBase<
          ConvertLinalgToMirageKernelPass> {
  using Base::Base;

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (normalize) {
      RewritePatternSet normalization(&getContext());
      populateLinalgNormalizationPatterns(normalization);
      (void)applyPatternsGreedily(getOperation(), std::move(normalization),
                                  config);
    }
    RewritePatternSet patterns(&getContext());
    populateLinalgToMirageKernelPatterns(patterns);
    // Ops the patterns leave are reported below.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
    if (failed(reportUnconvertedLinalgOps(getOperation(), strict)))
      signalPassFailure();
  }
};

} // namespace

void mirage::populateLinalgToMirageKernelPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<LinalgOpToKernel, RecognizeRmsNorm>(context);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
}

LogicalResult mirage::reportUnconvertedLinalgOps(Operation *root, bool strict) {
  bool found = false;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa<linalg::LinalgDialect>(op->getDialect()))
      return WalkResult::advance();
    std::string reason = "the importer has no rule for it";
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      if (succeeded(planImport(linalgOp, reason)))
        reason = "its rewrite did not converge";
    InFlightDiagnostic diagnostic = strict ? op->emitError() : op->emitRemark();
    diagnostic << op->getName() << " left unconverted: " << reason;
    found = true;
    // Ops of its body are part of it.
    return WalkResult::skip();
  });
  return success(!(strict && found));
}
