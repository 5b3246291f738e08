//===- ImportPlan.cpp - What a linalg op becomes in a kernel graph --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ImportPlan.h"
#include "UnitDims.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::import;

namespace {

std::string toString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::string toString(AffineMap map) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "affine_map<" << map << ">";
  return text;
}

/// The float value of `value` when an arith.constant defines it: a float or
/// a splat tensor of floats.
std::optional<double> getConstant(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto number = dyn_cast<FloatAttr>(attr))
    return number.getValueAsDouble();
  return std::nullopt;
}

/// The float value every element of `tensor` holds when a linalg.fill of a
/// constant or a splat constant defines it, possibly reshaped.
std::optional<double> getSplatValue(Value tensor) {
  while (isa_and_present<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
      tensor.getDefiningOp()))
    tensor = tensor.getDefiningOp()->getOperand(0);
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    return getConstant(fill.getInputs().front());
  return getConstant(tensor);
}

/// `b` when `value` is `1 / b`, else null.
Value getReciprocalOperand(Value value) {
  auto div = value.getDefiningOp<arith::DivFOp>();
  return div && getConstant(div.getLhs()) == 1.0 ? div.getRhs() : Value();
}

/// True when `map` reads an operand of `shape` by broadcasting: its results
/// are loop dimensions in increasing order, or 0 on a dimension of size 1.
bool isBroadcast(AffineMap map, ArrayRef<int64_t> shape) {
  int64_t last = -1;
  for (auto [expr, size] : llvm::zip(map.getResults(), shape)) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (static_cast<int64_t>(dim.getPosition()) <= last)
        return false;
      last = dim.getPosition();
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0 || size != 1)
      return false;
  }
  return true;
}

/// The input operand whose elements an elementwise `op` forwards unchanged,
/// possibly broadcast (linalg.broadcast, linalg.copy, a generic yielding an
/// input); null for any other op.
OpOperand *getForwardedInput(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() != 0 ||
      op.getNumDpsInits() != 1 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return nullptr;
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  auto arg = dyn_cast<BlockArgument>(yield.getValues().front());
  if (!arg || arg.getOwner() != op.getBlock() ||
      arg.getArgNumber() >= static_cast<unsigned>(op.getNumDpsInputs()))
    return nullptr;
  OpOperand *input = op.getDpsInputOperand(arg.getArgNumber());
  auto type = dyn_cast<RankedTensorType>(input->get().getType());
  if (!type ||
      type.getElementType() !=
          getElementTypeOrSelf(op->getResult(0).getType()) ||
      !isBroadcast(op.getMatchingIndexingMap(input), type.getShape()))
    return nullptr;
  return input;
}

/// A scalar of an op's body in the plan: a kernel value or a constant.
struct Term {
  int value = -1;
  std::optional<double> constant;
};

/// Plans one linalg op.
class Planner {
public:
  Planner(linalg::LinalgOp op, std::string &reason) : op(op), reason(reason) {}

  FailureOr<ImportPlan> plan();

private:
  LogicalResult fail(const Twine &why) {
    reason = why.str();
    return failure();
  }

  LogicalResult checkOperandTypes(bool sameElementType);
  LogicalResult planMatmul(const linalg::ContractionDimensions &dims);
  LogicalResult planReduction();
  /// Checks that a maximum's init changes nothing.
  LogicalResult planMaximumInit();
  LogicalResult planElementwise();
  LogicalResult planAccumulator();
  LogicalResult checkRootShape(int root);

  /// The plan value of body argument `index` (an input).
  FailureOr<Term> read(unsigned index);
  /// The plan value of scalar `value` of the body.
  FailureOr<Term> analyze(Value value);
  FailureOr<Term> analyzeOp(Operation *def);
  /// analyze(`value`), which must not be a constant.
  FailureOr<int> analyzeValue(Value value, Operation *user);
  int addValue(ElementwiseKind kind, ArrayRef<int> operands, float scalar = 0);
  /// True when `value` is `1 / (1 + exp(-x))`.
  bool isSigmoidOf(Value value, Value x);
  /// True when `value` is `1 + exp(-x)`.
  bool isOnePlusExpNeg(Value value, Value x);

  linalg::LinalgOp op;
  std::string &reason;
  ImportPlan result;
  SmallVector<int64_t> loopShape;
  DenseMap<Value, Term> terms;
};

FailureOr<ImportPlan> Planner::plan() {
  if (isa<linalg::FillOp>(op.getOperation()))
    return fail("it creates a constant tensor, which the kernel dialect "
                "cannot");
  if (!op.hasPureTensorSemantics())
    return fail("it operates on buffers; kernel ops take tensors");
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1)
    return fail(llvm::formatv("it has {0} results; the kernel ops it could "
                              "become have one",
                              op->getNumResults()));
  result.resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (failed(checkOperandTypes(/*sameElementType=*/false)))
    return failure();
  loopShape = op.getStaticLoopRanges();
  if (loopShape.empty())
    return fail("its iteration space has no dimension; the importer makes "
                "kernel ops on tensors of rank 1 or more");

  if (op.getNumReductionLoops() != 0 && linalg::isaContractionOpInterface(op)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims))
      return fail("its contraction dimensions cannot be inferred");
    if (dims->k.size() != 1)
      return fail(llvm::formatv("the contraction has {0} reduced dimensions; "
                                "a kernel matmul has one",
                                dims->k.size()));
    if (dims->m.size() > 1 || dims->n.size() > 1)
      return fail(llvm::formatv("the contraction has {0} row and {1} column "
                                "dimensions; a kernel matmul has one of each",
                                dims->m.size(), dims->n.size()));
    // A matrix-vector product (no row or no column dimension) is a product
    // and a sum over the operands' own extent: a reduction below.
    if (dims->m.size() == 1 && dims->n.size() == 1) {
      if (failed(planMatmul(*dims)))
        return failure();
      return result;
    }
  }
  if (failed(checkOperandTypes(/*sameElementType=*/true)))
    return failure();
  if (op.getNumReductionLoops() != 0 ? failed(planReduction())
                                     : failed(planElementwise()))
    return failure();
  return result;
}

LogicalResult Planner::checkOperandTypes(bool sameElementType) {
  Type elementType = result.resultType.getElementType();
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned index = operand.getOperandNumber();
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type) {
      // A scalar input must be a constant, which the body reads as one.
      if (!getConstant(operand.get()))
        return fail(llvm::formatv("operand {0} is a scalar that is not a "
                                  "constant",
                                  index));
      continue;
    }
    if (!type.hasStaticShape())
      return fail(llvm::formatv("operand {0} has a dynamic shape ({1}); "
                                "kernel tensors are statically shaped",
                                index, toString(type)));
    Type element = type.getElementType();
    if (!element.isF16() && !element.isBF16() && !element.isF32())
      return fail(llvm::formatv("operand {0} has element type {1}; kernel "
                                "tensors hold f16, bf16 or f32",
                                index, toString(element)));
    if (sameElementType && element != elementType)
      return fail(llvm::formatv("operand {0} has element type {1} but the "
                                "result {2}; the kernel dialect has no cast",
                                index, toString(element),
                                toString(elementType)));
  }
  return success();
}

LogicalResult Planner::planMatmul(const linalg::ContractionDimensions &dims) {
  result.kind = ImportPlan::Kind::Matmul;
  SmallVector<unsigned> batch(dims.batch.begin(), dims.batch.end());
  unsigned m = dims.m.front(), n = dims.n.front(), k = dims.k.front();
  auto layout = [&](unsigned a, unsigned b) {
    SmallVector<unsigned> order = batch;
    order.append({a, b});
    return order;
  };
  SmallVector<unsigned> layouts[] = {layout(m, k), layout(k, n), layout(m, n)};
  for (auto [index, order] : llvm::enumerate(layouts)) {
    AffineMap map = op.getIndexingMapsArray()[index];
    auto isDim = [&](auto pair) {
      auto dim = dyn_cast<AffineDimExpr>(std::get<0>(pair));
      return dim && dim.getPosition() == std::get<1>(pair);
    };
    if (map.getNumResults() == order.size() &&
        llvm::all_of(llvm::zip(map.getResults(), order), isDim))
      continue;
    if (map.isProjectedPermutation() && map.getNumResults() == order.size())
      return fail(llvm::formatv("{0} of the contraction is transposed; the "
                                "kernel dialect has no transpose",
                                index == 2
                                    ? std::string("the result")
                                    : "operand " + std::to_string(index)));
    return fail(llvm::formatv("operand {0} of the contraction is read "
                              "through {1}, which is not the matmul layout "
                              "(batch dimensions, then rows and columns)",
                              index, toString(map)));
  }
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  Type resultElement = result.resultType.getElementType();
  if (lhsType.getElementType() != rhsType.getElementType())
    return fail(llvm::formatv("the contraction multiplies {0} by {1}; a "
                              "kernel matmul's operands have one element type",
                              toString(lhsType.getElementType()),
                              toString(rhsType.getElementType())));
  if (resultElement != lhsType.getElementType() && !resultElement.isF32())
    return fail(llvm::formatv("the contraction's result holds {0}; a kernel "
                              "matmul's holds its operands' type or f32",
                              toString(resultElement)));
  if (failed(planAccumulator()))
    return failure();

  SmallVector<int64_t> lhsShape(lhsType.getShape());
  SmallVector<int64_t> rhsShape(rhsType.getShape());
  result.matmulShape.assign(result.resultType.getShape().begin(),
                            result.resultType.getShape().end());
  // A batch of 1 whose operands exist as matrices is a matrix product.
  auto unitBatch = [&](ArrayRef<int64_t> shape) {
    return llvm::all_of(shape.drop_back(2), [](int64_t s) { return s == 1; });
  };
  auto matrix = [](ArrayRef<int64_t> shape) {
    return SmallVector<int64_t>(shape.take_back(2));
  };
  if (!batch.empty() && unitBatch(lhsShape) &&
      findUnitDimReshape(lhs, lhsType.clone(matrix(lhsShape))) &&
      findUnitDimReshape(rhs, rhsType.clone(matrix(rhsShape)))) {
    lhsShape = matrix(lhsShape);
    rhsShape = matrix(rhsShape);
    result.matmulShape = matrix(result.matmulShape);
  }
  PlanValue lhsRead, rhsRead;
  lhsRead.source = lhs;
  lhsRead.shape = lhsShape;
  rhsRead.source = rhs;
  rhsRead.shape = rhsShape;
  result.values = {lhsRead, rhsRead};
  return success();
}

LogicalResult Planner::planMaximumInit() {
  // max(init, x) = x for every x of the element type: -inf, or the lowest
  // finite value.
  Value init = op.getDpsInitOperand(0)->get();
  auto type = cast<FloatType>(result.resultType.getElementType());
  double lowest =
      -llvm::APFloat::getLargest(type.getFloatSemantics()).convertToDouble();
  if (std::optional<double> splat = getSplatValue(init);
      splat && *splat <= lowest)
    return success();
  return fail("it takes a maximum into a tensor that is not -inf or the "
              "lowest value of its type; the kernel dialect has no "
              "elementwise maximum to combine it with");
}

LogicalResult Planner::planAccumulator() {
  Value init = op.getDpsInitOperand(0)->get();
  if (std::optional<double> splat = getSplatValue(init)) {
    if (*splat == 0.0)
      return success();
  } else if (!init.getDefiningOp<tensor::EmptyOp>()) {
    result.accumulator = init;
    return success();
  }
  Operation *def = init.getDefiningOp();
  if (isa<tensor::EmptyOp>(def))
    return fail("it accumulates into an uninitialized tensor (tensor.empty)");
  return fail(llvm::formatv("it accumulates into a tensor that is neither "
                            "zero nor a kernel value ({0})",
                            def->getName().getStringRef()));
}

LogicalResult Planner::planReduction() {
  result.kind = ImportPlan::Kind::Reduction;
  Block *body = op.getBlock();
  Value yielded = body->getTerminator()->getOperand(0);
  BlockArgument accumulator =
      op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  // A sum, or a maximum (softmax's stabiliser, as tosa.reduce_max lowers).
  Operation *combine = yielded.getDefiningOp();
  if (!isa_and_present<arith::AddFOp, arith::MaximumFOp, arith::MaxNumFOp>(
          combine))
    return fail(llvm::formatv("the reduction combines with {0}; kernel "
                              "reductions sum or take the maximum",
                              combine ? combine->getName().getStringRef()
                                      : StringRef("a block argument")));
  result.maximum = !isa<arith::AddFOp>(combine);
  Value summand;
  if (combine->getOperand(0) == accumulator)
    summand = combine->getOperand(1);
  else if (combine->getOperand(1) == accumulator)
    summand = combine->getOperand(0);
  else
    return fail(llvm::formatv("the reduction's {0} does not combine with its "
                              "accumulator",
                              combine->getName().getStringRef()));
  // The result holds the parallel dimensions, in order.
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> parallel;
  op.getParallelDims(parallel);
  SmallVector<unsigned> written;
  for (AffineExpr expr : outMap.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      written.push_back(dim.getPosition());
  if (written != parallel || !isBroadcast(outMap, result.resultType.getShape()))
    return fail(llvm::formatv("its result is written through {0}; a "
                              "reduction's result keeps the other "
                              "dimensions in order",
                              toString(outMap)));
  if (failed(result.maximum ? planMaximumInit() : planAccumulator()))
    return failure();
  FailureOr<int> root = analyzeValue(summand, combine);
  if (failed(root))
    return failure();
  SmallVector<unsigned> reduced;
  op.getReductionDims(reduced);
  for (unsigned dim : reduced) {
    if (result.values[*root].shape[dim] != loopShape[dim])
      return fail(llvm::formatv("it sums over dimension {0}, along which its "
                                "operands are broadcast (a sum of copies)",
                                dim));
    result.reducedDims.push_back(dim);
  }
  result.root = *root;
  return checkRootShape(*root);
}

LogicalResult Planner::planElementwise() {
  result.kind = ImportPlan::Kind::Elementwise;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isIdentity())
    return fail(llvm::formatv("its result is written through {0}; the "
                              "kernel dialect has no transpose",
                              toString(outMap)));
  Value yielded = op.getBlock()->getTerminator()->getOperand(0);
  FailureOr<int> root = analyzeValue(yielded, op);
  if (failed(root))
    return failure();
  result.root = *root;
  return checkRootShape(*root);
}

LogicalResult Planner::checkRootShape(int root) {
  ArrayRef<int64_t> shape = result.values[root].shape;
  for (auto [index, size] : llvm::enumerate(shape))
    if (size != loopShape[index] &&
        !llvm::is_contained(result.reducedDims, (int64_t)index))
      return fail(llvm::formatv(
          "its result repeats a smaller value ({0}), which a kernel op only "
          "does inside an elementwise op",
          toString(RankedTensorType::get(shape,
                                         result.resultType.getElementType()))));
  return success();
}

FailureOr<Term> Planner::read(unsigned index) {
  OpOperand *operand = op.getDpsInputOperand(index);
  Value source = operand->get();
  if (std::optional<double> splat = getSplatValue(source))
    return Term{-1, *splat};
  AffineMap map = op.getMatchingIndexingMap(operand);
  // Read what a broadcast or copy forwards directly.
  while (auto producer = source.getDefiningOp<linalg::LinalgOp>()) {
    OpOperand *forwarded = getForwardedInput(producer);
    if (!forwarded)
      break;
    map = producer.getMatchingIndexingMap(forwarded).compose(map);
    source = forwarded->get();
  }
  auto type = cast<RankedTensorType>(source.getType());
  if (!isBroadcast(map, type.getShape())) {
    if (map.isProjectedPermutation())
      return fail(llvm::formatv("operand {0} is read through a permutation; "
                                "the kernel dialect has no transpose",
                                index));
    return fail(llvm::formatv("operand {0} is read through {1}, which is not "
                              "a broadcast of the iteration space",
                              index, toString(map)));
  }
  PlanValue value;
  value.source = source;
  value.shape.assign(loopShape.size(), 1);
  for (AffineExpr expr : map.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      value.shape[dim.getPosition()] = loopShape[dim.getPosition()];
  result.values.push_back(value);
  return Term{static_cast<int>(result.values.size()) - 1, std::nullopt};
}

int Planner::addValue(ElementwiseKind kind, ArrayRef<int> operands,
                      float scalar) {
  PlanValue value;
  value.kind = kind;
  value.operands.assign(operands.begin(), operands.end());
  value.scalar = scalar;
  value.shape = result.values[operands.front()].shape;
  for (int operand : operands.drop_front())
    for (auto [size, other] :
         llvm::zip(value.shape, result.values[operand].shape))
      size = std::max(size, other);
  result.values.push_back(value);
  return result.values.size() - 1;
}

FailureOr<int> Planner::analyzeValue(Value value, Operation *user) {
  FailureOr<Term> term = analyze(value);
  if (failed(term))
    return failure();
  if (term->constant)
    return fail(llvm::formatv("{0} computes a constant, which the kernel "
                              "dialect cannot create",
                              user->getName().getStringRef()));
  return term->value;
}

FailureOr<Term> Planner::analyze(Value value) {
  auto known = terms.find(value);
  if (known != terms.end())
    return known->second;
  FailureOr<Term> term;
  if (std::optional<double> constant = getConstant(value)) {
    term = Term{-1, *constant};
  } else if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != op.getBlock())
      return fail("its body reads a block argument of another region");
    if (arg.getArgNumber() >= static_cast<unsigned>(op.getNumDpsInputs()))
      return fail("its body reads the output tensor");
    term = read(arg.getArgNumber());
  } else if (!op->isProperAncestor(value.getDefiningOp())) {
    return fail("its body reads a value defined outside it");
  } else {
    term = analyzeOp(value.getDefiningOp());
  }
  if (succeeded(term))
    terms[value] = *term;
  return term;
}

bool Planner::isOnePlusExpNeg(Value value, Value x) {
  auto add = value.getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  auto isExpNeg = [&](Value v) {
    auto exp = v.getDefiningOp<math::ExpOp>();
    auto neg = exp ? exp.getOperand().getDefiningOp<arith::NegFOp>() : nullptr;
    return neg && neg.getOperand() == x;
  };
  return (getConstant(add.getLhs()) == 1.0 && isExpNeg(add.getRhs())) ||
         (getConstant(add.getRhs()) == 1.0 && isExpNeg(add.getLhs()));
}

bool Planner::isSigmoidOf(Value value, Value x) {
  auto div = value.getDefiningOp<arith::DivFOp>();
  return div && getConstant(div.getLhs()) == 1.0 &&
         isOnePlusExpNeg(div.getRhs(), x);
}

FailureOr<Term> Planner::analyzeOp(Operation *def) {
  StringRef name = def->getName().getStringRef();
  auto unary = [&](ElementwiseKind kind, Value x) -> FailureOr<Term> {
    FailureOr<int> operand = analyzeValue(x, def);
    if (failed(operand))
      return failure();
    return Term{addValue(kind, *operand), std::nullopt};
  };
  auto binary = [&](ElementwiseKind kind) -> FailureOr<Term> {
    FailureOr<Term> lhs = analyze(def->getOperand(0));
    FailureOr<Term> rhs = analyze(def->getOperand(1));
    if (failed(lhs) || failed(rhs))
      return failure();
    if (lhs->constant || rhs->constant)
      return fail(llvm::formatv("{0} of a constant has no kernel op (only "
                                "multiplication and division by a constant "
                                "do)",
                                name));
    return Term{addValue(kind, {lhs->value, rhs->value}), std::nullopt};
  };
  auto divided = [&](Value x, Value y) -> FailureOr<Term> {
    FailureOr<int> lhs = analyzeValue(x, def);
    if (failed(lhs))
      return failure();
    FailureOr<int> rhs = analyzeValue(y, def);
    if (failed(rhs))
      return failure();
    return Term{addValue(ElementwiseKind::Div, {*lhs, *rhs}), std::nullopt};
  };
  auto scaled = [&](Value x, double factor) -> FailureOr<Term> {
    FailureOr<int> operand = analyzeValue(x, def);
    if (failed(operand))
      return failure();
    return Term{addValue(ElementwiseKind::MulScalar, *operand, factor),
                std::nullopt};
  };

  if (auto mul = dyn_cast<arith::MulFOp>(def)) {
    Value lhs = mul.getLhs(), rhs = mul.getRhs();
    if (lhs == rhs)
      return unary(ElementwiseKind::Square, lhs);
    if (isSigmoidOf(rhs, lhs))
      return unary(ElementwiseKind::Silu, lhs);
    if (isSigmoidOf(lhs, rhs))
      return unary(ElementwiseKind::Silu, rhs);
    // a * (1 / b) is a / b.
    if (Value divisor = getReciprocalOperand(rhs))
      return divided(lhs, divisor);
    if (Value divisor = getReciprocalOperand(lhs))
      return divided(rhs, divisor);
    if (std::optional<double> c = getConstant(lhs))
      return scaled(rhs, *c);
    if (std::optional<double> c = getConstant(rhs))
      return scaled(lhs, *c);
    return binary(ElementwiseKind::Mul);
  }
  if (auto div = dyn_cast<arith::DivFOp>(def)) {
    Value lhs = div.getLhs(), rhs = div.getRhs();
    if (getConstant(lhs) == 1.0)
      if (auto sqrt = rhs.getDefiningOp<math::SqrtOp>())
        return unary(ElementwiseKind::Rsqrt, sqrt.getOperand());
    if (isOnePlusExpNeg(rhs, lhs))
      return unary(ElementwiseKind::Silu, lhs);
    std::optional<double> c = getConstant(rhs);
    if (c && *c != 0.0)
      return scaled(lhs, 1.0 / *c);
    if (getConstant(lhs))
      return fail("arith.divf of a constant by a value (a reciprocal) has no "
                  "kernel op");
    return binary(ElementwiseKind::Div);
  }
  if (isa<arith::AddFOp>(def))
    return binary(ElementwiseKind::Add);
  if (isa<arith::SubFOp>(def))
    return binary(ElementwiseKind::Sub);
  if (auto pow = dyn_cast<math::PowFOp>(def)) {
    if (getConstant(pow.getRhs()) == 2.0)
      return unary(ElementwiseKind::Square, pow.getLhs());
    return binary(ElementwiseKind::Pow);
  }
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(def)) {
    if (getConstant(def->getOperand(1)) == 0.0)
      return unary(ElementwiseKind::Relu, def->getOperand(0));
    if (getConstant(def->getOperand(0)) == 0.0)
      return unary(ElementwiseKind::Relu, def->getOperand(1));
    return fail(llvm::formatv("{0} of two values has no kernel op (relu is "
                              "the maximum with 0)",
                              name));
  }
  if (isa<arith::NegFOp>(def))
    return unary(ElementwiseKind::Neg, def->getOperand(0));
  if (isa<math::ExpOp>(def))
    return unary(ElementwiseKind::Exp, def->getOperand(0));
  if (isa<math::SqrtOp>(def))
    return unary(ElementwiseKind::Sqrt, def->getOperand(0));
  if (isa<math::RsqrtOp>(def))
    return unary(ElementwiseKind::Rsqrt, def->getOperand(0));
  return fail(llvm::formatv("{0} has no kernel op", name));
}

} // namespace

FailureOr<ImportPlan> import::planImport(linalg::LinalgOp op,
                                         std::string &reason) {
  return Planner(op, reason).plan();
}
