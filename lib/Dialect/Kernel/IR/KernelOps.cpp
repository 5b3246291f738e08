//===- KernelOps.cpp - mirage_kernel operations ---------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Kernel/IR/KernelOps.h"

#include "Mirage/Dialect/Common/ShapeRules.h"
#include "Mirage/Support/Chip.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::kernel;

//===----------------------------------------------------------------------===//
// Tensor ops
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  return verifyMatmul([&] { return emitOpError(); }, getLhs().getType(),
                      getRhs().getType(), getResult().getType());
}

LogicalResult LibraryMatmulOp::verify() {
  for (Value buffer : getOperands())
    if (!cast<MemRefType>(buffer.getType()).getLayout().isIdentity())
      return emitOpError("takes row-major buffers (the identity layout), got ")
             << buffer.getType();
  if (Value addend = getAddend()) {
    if (addend.getType() != getResult().getType())
      return emitOpError("adds ")
             << addend.getType() << " to a result of type "
             << getResult().getType() << "; the addend has the result's type";
    if (addend == getResult())
      return emitOpError("adds its result buffer to itself; the addend is "
                         "another buffer");
  }
  return verifyMatmul([&] { return emitOpError(); }, getLhs().getType(),
                      getRhs().getType(), getResult().getType());
}

MatmulOp mlir::mirage::kernel::getLibraryEpilogueMatmul(AddOp add) {
  Type type = add.getResult().getType();
  if (add.getLhs().getType() != type || add.getRhs().getType() != type)
    return nullptr;
  MatmulOp chosen;
  for (Value operand : add->getOperands()) {
    auto matmul = operand.getDefiningOp<MatmulOp>();
    if (matmul && operand.hasOneUse() &&
        matmul->getBlock() == add->getBlock() &&
        (!chosen || chosen->isBeforeInBlock(matmul)))
      chosen = matmul;
  }
  return chosen;
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

LogicalResult ChunkOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t dim = getDim();
  if (failed(verifyDimInRange([&] { return emitOpError(); }, "chunk dim", dim,
                              input.getRank())))
    return failure();
  int64_t parts = getParts();
  if (input.getDimSize(dim) % parts != 0)
    return emitOpError() << parts << " parts do not divide dimension " << dim
                         << " of size " << input.getDimSize(dim);
  if (static_cast<int64_t>(getNumResults()) != parts)
    return emitOpError() << "expected " << parts << " results, got "
                         << getNumResults();
  SmallVector<int64_t> expected(input.getShape());
  expected[dim] /= parts;
  RankedTensorType expectedType = input.clone(expected);
  for (auto [i, type] : llvm::enumerate(getResultTypes()))
    if (type != expectedType)
      return emitOpError() << "result " << i << " has type " << type
                           << ", expected " << expectedType;
  return success();
}

//===----------------------------------------------------------------------===//
// GraphDefOp
//===----------------------------------------------------------------------===//

StringRef GraphDefOp::getDefaultDialect() { return "mirage_block"; }

int64_t GraphDefOp::getNumBlocks() {
  int64_t n = 1;
  for (int32_t d : getGrid())
    n *= d;
  return n;
}

int64_t GraphDefOp::getNumThreads() {
  int64_t n = 1;
  for (int32_t d : getBlock())
    n *= d;
  return n;
}

/// Parses `[a, b, c]` into a dense i32 array attribute.
static ParseResult parseDims(OpAsmParser &parser, DenseI32ArrayAttr &attr) {
  SmallVector<int32_t> dims;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            return parser.parseInteger(dims.emplace_back());
          }))
    return failure();
  attr = parser.getBuilder().getDenseI32ArrayAttr(dims);
  return success();
}

static void printDims(OpAsmPrinter &p, ArrayRef<int32_t> dims) {
  p << '[';
  llvm::interleaveComma(dims, p);
  p << ']';
}

static void printDims(OpAsmPrinter &p, Operation *, DenseI32ArrayAttr dims) {
  printDims(p, dims.asArrayRef());
}

ParseResult GraphDefOp::parse(OpAsmParser &parser, OperationState &result) {
  // (%arg = %operand : type, ...)
  SmallVector<OpAsmParser::Argument> bodyArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> operandTypes;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument &arg = bodyArgs.emplace_back();
            if (parser.parseArgument(arg) || parser.parseEqual() ||
                parser.parseOperand(operands.emplace_back()) ||
                parser.parseColonType(arg.type))
              return failure();
            operandTypes.push_back(arg.type);
            return success();
          }))
    return failure();
  if (parser.resolveOperands(operands, operandTypes, parser.getNameLoc(),
                             result.operands))
    return failure();

  SmallVector<Type> resultTypes;
  if (parser.parseArrowTypeList(resultTypes))
    return failure();
  result.addTypes(resultTypes);

  // grid [..] block [..] forloop N (cluster [..] non_portable?)?
  // async_copies?
  Properties &props = result.getOrAddProperties<Properties>();
  int64_t forloop = 0;
  if (parser.parseKeyword("grid") || parseDims(parser, props.grid) ||
      parser.parseKeyword("block") || parseDims(parser, props.block) ||
      parser.parseKeyword("forloop") || parser.parseInteger(forloop))
    return failure();
  props.forloop = parser.getBuilder().getI64IntegerAttr(forloop);
  if (succeeded(parser.parseOptionalKeyword("cluster"))) {
    DenseI32ArrayAttr cluster;
    if (parseDims(parser, cluster))
      return failure();
    props.cluster = cluster;
    if (succeeded(parser.parseOptionalKeyword("non_portable")))
      props.non_portable_cluster = parser.getBuilder().getUnitAttr();
  }
  if (succeeded(parser.parseOptionalKeyword("async_copies")))
    props.async_copies = parser.getBuilder().getUnitAttr();
  SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  // The launch configuration is written in the header only; an entry of the
  // same name in the dictionary would silently override or vanish.
  for (StringRef name : getAttributeNames())
    if (result.attributes.get(name))
      return parser.emitError(attrLoc)
             << "'" << name
             << "' belongs in the graph_def header, not in its attributes";

  Region *body = result.addRegion();
  return parser.parseRegion(*body, bodyArgs, /*enableNameShadowing=*/false);
}

void GraphDefOp::print(OpAsmPrinter &p) {
  p << '(';
  llvm::interleaveComma(
      llvm::zip(getBodyBlock().getArguments(), getInputs()), p, [&](auto it) {
        auto [arg, operand] = it;
        p << arg << " = " << operand << " : " << operand.getType();
      });
  p << ") -> ";
  if (getNumResults() == 1)
    p << getResult(0).getType();
  else
    p << '(' << getResultTypes() << ')';
  p << " grid ";
  printDims(p, getGrid());
  p << " block ";
  printDims(p, getBlock());
  p << " forloop " << getForloop();
  if (std::optional<ArrayRef<int32_t>> cluster = getCluster()) {
    p << " cluster ";
    printDims(p, *cluster);
    if (getNonPortableCluster())
      p << " non_portable";
  }
  if (getAsyncCopies())
    p << " async_copies";
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), getAttributeNames());
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

/// Checks a `[x, y, z]` launch dimension: three entries, each in
/// `[1, limits[i]]`.
static LogicalResult verifyLaunchDims(Operation *op, StringRef name,
                                      ArrayRef<int32_t> dims,
                                      ArrayRef<int64_t> limits) {
  if (dims.size() != 3)
    return op->emitOpError()
           << name << " must have 3 entries (x, y, z), got " << dims.size();
  static constexpr char axes[] = {'x', 'y', 'z'};
  for (auto [axis, d, limit] : llvm::zip(axes, dims, limits))
    if (d < 1 || d > limit)
      return op->emitOpError() << name << " " << axis << " is " << d
                               << ", expected a value in [1, " << limit << "]";
  return success();
}

/// Checks the grid and block of a launch: CUDA's per-axis limits and at most
/// 1024 threads per block.
static LogicalResult verifyGridAndBlock(Operation *op, ArrayRef<int32_t> grid,
                                        ArrayRef<int32_t> block) {
  if (failed(verifyLaunchDims(op, "grid", grid, {INT32_MAX, 65535, 65535})) ||
      failed(verifyLaunchDims(op, "block", block, {1024, 1024, 64})))
    return failure();
  int64_t threads = int64_t(block[0]) * block[1] * block[2];
  if (threads > kMaxThreadsPerBlock)
    return op->emitOpError() << "block has " << threads << " threads, at most "
                             << kMaxThreadsPerBlock << " are allowed";
  return success();
}

LogicalResult GraphDefOp::verify() {
  if (failed(verifyGridAndBlock(*this, getGrid(), getBlock())))
    return failure();
  if (getNumResults() == 0)
    return emitOpError() << "must produce at least one result";

  if (std::optional<ArrayRef<int32_t>> cluster = getCluster()) {
    if (failed(verifyLaunchDims(
            *this, "cluster", *cluster,
            {getMaxClusterSize(), getMaxClusterSize(), getMaxClusterSize()})))
      return failure();
    int64_t size = 1;
    for (auto [axis, c, g] : llvm::zip(StringRef("xyz"), *cluster, getGrid())) {
      size *= c;
      if (g % c != 0)
        return emitOpError()
               << "cluster " << axis << " (" << c << ") does not divide grid "
               << axis << " (" << g << ")";
    }
    if (size > getMaxClusterSize())
      return emitOpError() << "cluster of " << size
                           << " blocks exceeds the limit of "
                           << getMaxClusterSize()
                           << (getNonPortableCluster()
                                   ? ""
                                   : " (16 with 'non_portable')");
  } else if (getNonPortableCluster()) {
    return emitOpError() << "'non_portable_cluster' requires a cluster";
  }

  Block &body = getBodyBlock();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << body.getNumArguments()
                         << " arguments for " << getInputs().size()
                         << " inputs";
  for (auto [i, arg, input] : llvm::enumerate(body.getArguments(), getInputs()))
    if (arg.getType() != input.getType())
      return emitOpError() << "body argument " << i << " has type "
                           << arg.getType() << ", but input " << i
                           << " has type " << input.getType();
  return success();
}

LogicalResult GraphDefOp::verifyRegions() {
  Block &body = getBodyBlock();
  for (Operation &op : body) {
    if (op.getDialect() && op.getDialect()->getNamespace() == "mirage_block")
      continue;
    return op.emitOpError()
           << "is not allowed in a graph_def body: only mirage_block ops are";
  }
  // The region verifier has already checked that the body has a terminator.
  Operation *yield = body.getTerminator();
  if (yield->getOperandTypes() != getResultTypes())
    return yield->emitOpError() << "yields (" << yield->getOperandTypes()
                                << ") but the enclosing graph_def returns ("
                                << getResultTypes() << ")";
  return success();
}

bool mlir::mirage::kernel::isPredefinedKernelOp(Operation *op) {
  return isa_and_present<MirageKernelDialect>(op->getDialect()) &&
         !isa<GraphDefOp, LaunchOp, LibraryMatmulOp>(op);
}

bool mlir::mirage::kernel::containsKernelOps(Operation *root) {
  return root
      ->walk([](Operation *op) {
        return isa_and_present<MirageKernelDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  if (failed(verifyGridAndBlock(*this, getGrid(), getBlock())) ||
      failed(verifyLaunchDims(*this, "cluster", getCluster(), {16, 16, 16})))
    return failure();
  for (auto [axis, c, g] : llvm::zip(StringRef("xyz"), getCluster(), getGrid()))
    if (g % c != 0)
      return emitOpError() << "cluster " << axis << " (" << c
                           << ") does not divide grid " << axis << " (" << g
                           << ")";
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *kernel = symbolTable.lookupNearestSymbolFrom(*this, getKernel());
  auto function = dyn_cast_if_present<FunctionOpInterface>(kernel);
  if (!function)
    return emitOpError() << "kernel " << getKernel()
                         << " does not name a function";
  // After the buffers, a kernel that runs a combine tail takes its groups'
  // counters (`mirage.combine_counters`, Mirage/Conversion/Passes.h), then a
  // kernel that copies with the TMA unit one descriptor per entry of its
  // `mirage.tensor_maps` (Mirage/Conversion/TensorMaps.h).
  size_t descriptors = 0;
  if (auto maps = kernel->getAttrOfType<ArrayAttr>("mirage.tensor_maps"))
    descriptors = maps.size();
  bool counters = kernel->hasAttr("mirage.combine_counters");
  size_t expected =
      getInputs().size() + getNumResults() + descriptors + (counters ? 1 : 0);
  if (function.getNumArguments() != expected)
    return emitOpError() << "kernel " << getKernel() << " takes "
                         << function.getNumArguments() << " buffers, expected "
                         << expected << " (one per input, then one per result"
                         << (counters ? ", then the counters" : "")
                         << (descriptors ? ", then one per TMA descriptor" : "")
                         << ")";
  return success();
}

#define GET_OP_CLASSES
#include "Mirage/Dialect/Kernel/IR/KernelOps.cpp.inc"
