//===- BlockOps.cpp - mirage_block operations -----------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Block/IR/BlockOps.h"

#include "Mirage/Dialect/Common/ShapeRules.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::block;

static constexpr char kAxisNames[] = {'x', 'y', 'z'};

/// The graph_def that encloses `op` (guaranteed by the HasParent trait).
static kernel::GraphDefOp getGraph(Operation *op) {
  return cast<kernel::GraphDefOp>(op->getParentOp());
}

//===----------------------------------------------------------------------===//
// Tile maps
//===----------------------------------------------------------------------===//

/// Checks that `map` sends each mapped grid axis to a distinct, in-range
/// dimension of a value of rank `rank`. `mapName` names the map.
static LogicalResult verifyGridMap(EmitErrorFn emitError, StringRef mapName,
                                   GridMapAttr map, int64_t rank) {
  SmallVector<int32_t, 3> dims = map.getDims();
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (dims[axis] < 0)
      continue;
    if (dims[axis] >= rank)
      return emitError() << mapName << " maps grid axis " << kAxisNames[axis]
                         << " to dimension " << dims[axis]
                         << ", out of range for rank " << rank;
    for (unsigned other = 0; other < axis; ++other)
      if (dims[other] == dims[axis])
        return emitError() << mapName << " maps grid axes " << kAxisNames[other]
                           << " and " << kAxisNames[axis]
                           << " to the same dimension " << dims[axis];
  }
  return success();
}

FailureOr<SmallVector<int64_t>> mlir::mirage::block::computeLoadedTileShape(
    EmitErrorFn emitError, ArrayRef<int64_t> tensorShape, GridMapAttr imap,
    ArrayRef<int32_t> grid, int64_t fmap, int64_t forloopRange) {
  int64_t rank = tensorShape.size();
  if (failed(verifyGridMap(emitError, "imap", imap, rank)))
    return failure();
  SmallVector<int64_t> shape(tensorShape);
  for (unsigned axis = 0; axis < 3; ++axis) {
    int32_t dim = imap.getDim(axis);
    if (dim < 0)
      continue;
    if (shape[dim] % grid[axis] != 0)
      return emitError() << "grid " << kAxisNames[axis] << " (" << grid[axis]
                         << " blocks) does not divide dimension " << dim
                         << " of size " << shape[dim];
    shape[dim] /= grid[axis];
  }
  if (fmap < 0)
    return shape;
  if (fmap >= rank)
    return emitError() << "fmap " << fmap << " is out of range for rank "
                       << rank;
  if (shape[fmap] % forloopRange != 0)
    return emitError() << "for-loop range " << forloopRange
                       << " does not divide dimension " << fmap
                       << " of the block's tile (size " << shape[fmap] << ")";
  shape[fmap] /= forloopRange;
  return shape;
}

FailureOr<SmallVector<int64_t>> mlir::mirage::block::computeSavedTensorShape(
    EmitErrorFn emitError, ArrayRef<int64_t> tileShape, GridMapAttr omap,
    ArrayRef<int32_t> grid) {
  if (failed(verifyGridMap(emitError, "omap", omap, tileShape.size())))
    return failure();
  SmallVector<int64_t> shape(tileShape);
  for (unsigned axis = 0; axis < 3; ++axis) {
    int32_t dim = omap.getDim(axis);
    if (dim >= 0) {
      if (failed(multiplyDim(emitError, shape[dim], grid[axis])))
        return failure();
      continue;
    }
    if (grid[axis] > 1)
      return emitError() << "grid axis " << kAxisNames[axis] << " has "
                         << grid[axis]
                         << " blocks but omap does not map it, so they would "
                            "write the same elements";
  }
  return shape;
}

//===----------------------------------------------------------------------===//
// InputLoaderOp / OutputSaverOp
//===----------------------------------------------------------------------===//

LogicalResult InputLoaderOp::verify() {
  kernel::GraphDefOp graph = getGraph(*this);
  auto source = dyn_cast<BlockArgument>(getSource());
  if (!source || source.getOwner() != &graph.getBodyBlock())
    return emitOpError() << "source must be an argument of the enclosing "
                            "graph_def (a kernel input)";
  RankedTensorType sourceType = getSource().getType();
  if (sourceType.getRank() == 0 || sourceType.getNumElements() == 0)
    return emitOpError() << "source " << sourceType
                         << " has no tile: it needs rank >= 1 and no "
                            "zero-sized dimension";
  FailureOr<SmallVector<int64_t>> shape = computeLoadedTileShape(
      [&] { return emitOpError(); }, sourceType.getShape(), getImap(),
      graph.getGrid(), getFmap(), graph.getForloop());
  if (failed(shape))
    return failure();
  auto expected = STensorType::get(*shape, sourceType.getElementType());
  if (getResult().getType() != expected)
    return emitOpError() << "result type is " << getResult().getType()
                         << ", expected " << expected;
  return success();
}

LogicalResult OutputSaverOp::verify() {
  kernel::GraphDefOp graph = getGraph(*this);
  STensorType tile = getInput().getType();
  FailureOr<SmallVector<int64_t>> shape =
      computeSavedTensorShape([&] { return emitOpError(); }, tile.getShape(),
                              getOmap(), graph.getGrid());
  if (failed(shape))
    return failure();
  auto expected = RankedTensorType::get(*shape, tile.getElementType());
  if (getResult().getType() != expected)
    return emitOpError() << "result type is " << getResult().getType()
                         << ", expected " << expected;
  if (getResult().use_empty())
    return emitOpError() << "result must be yielded by the graph_def";
  for (Operation *user : getResult().getUsers())
    if (!isa<YieldOp>(user))
      return emitOpError() << "result may only be used by 'mirage_block.yield'";
  return success();
}

block::ReductionShape mlir::mirage::block::getReductionShape(Operation *op) {
  if (auto sum = dyn_cast<ReductionOp>(op))
    return {static_cast<int64_t>(sum.getDim()),
            static_cast<int64_t>(sum.getSize())};
  return {static_cast<int64_t>(cast<ReductionMaxOp>(op).getDim()), 1};
}

//===----------------------------------------------------------------------===//
// Compute ops
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  return verifyMatmul([&] { return emitOpError(); }, getLhs().getType(),
                      getRhs().getType(), getResult().getType());
}

LogicalResult ReductionOp::verify() {
  return verifyReduction([&] { return emitOpError(); }, getInput().getType(),
                         getDim(), getSize(), getResult().getType());
}

LogicalResult ReductionMaxOp::verify() {
  return verifyReduction([&] { return emitOpError(); }, getInput().getType(),
                         getDim(), /*size=*/1, getResult().getType());
}

LogicalResult RmsNormOp::verify() {
  return verifyRmsNorm([&] { return emitOpError(); }, getInput().getType(),
                       getSize(), getEps());
}

LogicalResult ConcatOp::verify() {
  return verifyConcat([&] { return emitOpError(); }, getLhs().getType(),
                      getRhs().getType(), getDim(), getResult().getType());
}

//===----------------------------------------------------------------------===//
// ForloopAccumOp
//===----------------------------------------------------------------------===//

/// Parses the accumulator kind as a bare keyword (`sum`, `rms_last`, ...).
static ParseResult parseAccumKind(OpAsmParser &parser, AccumKindAttr &kind) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<AccumKind> value = symbolizeAccumKind(keyword);
  if (!value)
    return parser.emitError(loc)
           << "unknown accumulator kind '" << keyword
           << "', expected sum, sum_last, sum_last_to, rms_last or max";
  kind = AccumKindAttr::get(parser.getContext(), *value);
  return success();
}

static void printAccumKind(OpAsmPrinter &printer, Operation *,
                           AccumKindAttr kind) {
  printer << stringifyAccumKind(kind.getValue());
}

LogicalResult ForloopAccumOp::verify() {
  STensorType input = getInput().getType();
  STensorType result = getResult().getType();
  if (result.getElementType() != input.getElementType() &&
      !result.getElementType().isF32())
    return emitOpError() << "result element type " << result.getElementType()
                         << " must be the input's (" << input.getElementType()
                         << ") or f32";
  AccumKind kind = getKind();
  if (getSize() && kind != AccumKind::SumLastTo)
    return emitOpError() << "a size is only allowed with 'sum_last_to'";
  double eps = getEps().convertToDouble();
  if (eps != 0.0 && kind != AccumKind::RmsLast)
    return emitOpError() << "an eps is only allowed with 'rms_last'";
  if (!(eps >= 0.0))
    return emitOpError() << "eps " << eps << " is negative";
  SmallVector<int64_t> expected(input.getShape());
  switch (kind) {
  case AccumKind::Sum:
  case AccumKind::Max:
    break;
  case AccumKind::SumLast:
  case AccumKind::RmsLast:
    expected.back() = 1;
    break;
  case AccumKind::SumLastTo: {
    if (!getSize())
      return emitOpError() << "'sum_last_to' requires a size";
    int64_t size = *getSize();
    if (expected.back() % size != 0)
      return emitOpError() << "size " << size
                           << " does not divide the last dimension ("
                           << expected.back() << ")";
    expected.back() = size;
    break;
  }
  }
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape is " << formatShape(result.getShape())
                         << ", expected " << formatShape(expected) << " for '"
                         << stringifyAccumKind(kind) << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// ThreadGraphOp
//===----------------------------------------------------------------------===//

StringRef ThreadGraphOp::getDefaultDialect() { return "mirage_thread"; }

LogicalResult ThreadGraphOp::verify() {
  if (getInputs().empty() || getResults().empty())
    return emitOpError() << "needs at least one input and one result";
  FailureOr<SmallVector<int64_t>> shape = inferBroadcastShape(
      [&] { return emitOpError(); }, getInputs().getTypes());
  if (failed(shape))
    return failure();
  for (auto [i, type] : llvm::enumerate(getResultTypes()))
    if (cast<STensorType>(type).getShape() != ArrayRef<int64_t>(*shape))
      return emitOpError() << "result " << i << " has shape "
                           << formatShape(cast<STensorType>(type).getShape())
                           << ", expected the broadcast shape "
                           << formatShape(*shape);
  return success();
}

LogicalResult ThreadGraphOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << body.getNumArguments()
                         << " arguments for " << getInputs().size()
                         << " inputs";
  for (auto [i, arg, input] :
       llvm::enumerate(body.getArguments(), getInputs())) {
    Type element = cast<STensorType>(input.getType()).getElementType();
    if (arg.getType() != element)
      return emitOpError() << "body argument " << i << " has type "
                           << arg.getType() << ", expected the element type "
                           << element << " of input " << i;
  }
  for (Operation &op : body)
    if (!op.getDialect() || op.getDialect()->getNamespace() != "mirage_thread")
      return op.emitOpError() << "is not allowed in a thread_graph body: only "
                                 "mirage_thread ops are";
  // The region verifier has already checked that the body has a terminator.
  Operation *yield = body.getTerminator();
  if (yield->getNumOperands() != getNumResults())
    return yield->emitOpError()
           << "yields " << yield->getNumOperands() << " values for "
           << getNumResults() << " results";
  for (auto [i, value, result] :
       llvm::enumerate(yield->getOperands(), getResults())) {
    Type element = cast<STensorType>(result.getType()).getElementType();
    if (value.getType() != element)
      return yield->emitOpError()
             << "operand " << i << " has type " << value.getType()
             << ", expected the element type " << element << " of result " << i;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Cluster collectives
//===----------------------------------------------------------------------===//

/// The number of blocks per cluster of the graph enclosing `op`, or an error
/// when it has no cluster.
static FailureOr<int64_t> getClusterSize(Operation *op) {
  std::optional<ArrayRef<int32_t>> cluster = getGraph(op).getCluster();
  if (!cluster)
    return op->emitOpError()
           << "requires a 'cluster' on the enclosing graph_def";
  int64_t size = 1;
  for (int32_t c : *cluster)
    size *= c;
  return size;
}

LogicalResult ClusterReduceOp::verify() {
  return failure(failed(getClusterSize(*this)));
}

/// Verifies a collective whose result is its input with dimension `dim`
/// multiplied (gather) or divided (reduce-scatter) by the cluster size.
static LogicalResult verifyClusterResize(Operation *op, StringRef what,
                                         int64_t dim, STensorType input,
                                         STensorType result, bool gather) {
  FailureOr<int64_t> clusterSize = getClusterSize(op);
  if (failed(clusterSize))
    return failure();
  auto emitError = [op] { return op->emitOpError(); };
  if (failed(verifyDimInRange(emitError, what, dim, input.getRank())))
    return failure();
  SmallVector<int64_t> expected(input.getShape());
  if (gather) {
    if (failed(multiplyDim(emitError, expected[dim], *clusterSize)))
      return failure();
  } else {
    if (expected[dim] % *clusterSize != 0)
      return op->emitOpError() << "the cluster's " << *clusterSize
                               << " blocks do not divide dimension " << dim
                               << " of size " << expected[dim];
    expected[dim] /= *clusterSize;
  }
  auto expectedType = input.cloneWith(expected, input.getElementType());
  if (result != expectedType)
    return op->emitOpError()
           << "result type is " << result << ", expected " << expectedType;
  return success();
}

LogicalResult ClusterReduceScatterOp::verify() {
  return verifyClusterResize(*this, "scatter dim", getDim(),
                             getInput().getType(), getResult().getType(),
                             /*gather=*/false);
}

LogicalResult ClusterGatherOp::verify() {
  return verifyClusterResize(*this, "gather dim", getDim(),
                             getInput().getType(), getResult().getType(),
                             /*gather=*/true);
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  for (auto [i, value] : llvm::enumerate(getResults()))
    if (!value.getDefiningOp<OutputSaverOp>())
      return emitOpError() << "operand " << i
                           << " is not the result of an output_saver";
  kernel::GraphDefOp graph = getGraph(*this);
  return failure(
      failed(analyzeLoopPhases(graph.getBodyBlock(), graph.getForloop())));
}

#define GET_OP_CLASSES
#include "Mirage/Dialect/Block/IR/BlockOps.cpp.inc"
