//===- CombineTailLowering.cpp - One kernel for a graph_def and its tail --===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Joins the kernels of a graph_def and of its combine tail
// (Mirage/Analysis/CombineTail.h) into one: the first kernel's body, then
// the arrival of the block at its group's counter, then, in the group's
// last block only, the tail's body once per tail block of the group, in one
// warp each (docs/CodeGeneration.md, "Combine tails").
//
//===----------------------------------------------------------------------===//

#include "GraphDefLowering.h"

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Conversion/TensorMaps.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::lowering;

namespace {

/// Which argument of the combined kernel each argument of the two kernels
/// becomes. The combined kernel takes the first graph_def's inputs, the
/// tail's inputs that are not the first's results, the first's results, the
/// tail's results, the counters and the first kernel's TMA descriptors: its
/// launch's inputs, then its results, then the counters and the
/// descriptors, as convert-mirage-kernel-to-gpu passes them.
struct ArgumentMap {
  SmallVector<unsigned> first, tail;
  SmallVector<Type> types;
  unsigned countersAt;

  ArgumentMap(kernel::GraphDefOp firstGraph, kernel::GraphDefOp tailGraph,
              gpu::GPUFuncOp firstKernel, gpu::GPUFuncOp tailKernel,
              Type counters) {
    unsigned inputs = firstGraph.getInputs().size();
    unsigned results = firstGraph.getNumResults();
    SmallVector<unsigned> external = getTailOwnInputs(firstGraph, tailGraph);
    unsigned resultsAt = inputs + external.size();
    unsigned tailResultsAt = resultsAt + results;
    countersAt = tailResultsAt + tailGraph.getNumResults();
    unsigned mapsAt = countersAt + 1;
    first.resize(firstKernel.getNumArguments());
    tail.resize(tailKernel.getNumArguments());
    for (unsigned i = 0; i < first.size(); ++i)
      first[i] = i < inputs             ? i
                 : i < inputs + results ? resultsAt + (i - inputs)
                                        : mapsAt + (i - inputs - results);
    for (auto [k, j] : llvm::enumerate(external))
      tail[j] = inputs + k;
    unsigned tailInputs = tailGraph.getInputs().size();
    for (auto [j, input] : llvm::enumerate(tailGraph.getInputs()))
      if (input.getDefiningOp() == firstGraph.getOperation())
        tail[j] = resultsAt + cast<OpResult>(input).getResultNumber();
    for (unsigned j = tailInputs; j < tail.size(); ++j)
      tail[j] = tailResultsAt + (j - tailInputs);
    types.resize(mapsAt + (first.size() - inputs - results));
    for (auto [i, to] : llvm::enumerate(first))
      types[to] = firstKernel.getArgument(i).getType();
    for (auto [j, to] : llvm::enumerate(tail))
      types[to] = tailKernel.getArgument(j).getType();
    types[countersAt] = counters;
  }
};

/// Moves the operations of `from`'s body but its gpu.return before
/// `before`, its arguments replaced by `arguments[map[i]]`.
void moveBody(gpu::GPUFuncOp from, ArrayRef<unsigned> map, ValueRange arguments,
              Operation *before) {
  Block &body = from.getBody().front();
  for (auto [i, argument] : llvm::enumerate(body.getArguments()))
    argument.replaceAllUsesWith(arguments[map[i]]);
  body.getTerminator()->erase();
  before->getBlock()->getOperations().splice(before->getIterator(),
                                             body.getOperations());
}

/// The tail's byte offsets into dynamic shared memory, moved by `offset`
/// (an index).
void offsetSharedMemory(gpu::GPUFuncOp tail, Value offset) {
  tail.walk([&](gpu::DynamicSharedMemoryOp base) {
    for (Operation *user : base->getUsers()) {
      auto view = cast<memref::ViewOp>(user);
      OpBuilder b(view);
      view.getByteShiftMutable().assign(
          arith::AddIOp::create(b, view.getLoc(), view.getByteShift(), offset));
    }
  });
}

/// Makes the body of `tail`, a kernel of one warp, run in each warp of a
/// larger block: its thread is the lane `lane`, and its barriers wait for
/// the warp only.
void runInWarp(gpu::GPUFuncOp tail, Value lane, Value zero) {
  SmallVector<Operation *> replaced;
  tail.walk([&](Operation *op) {
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      id.replaceAllUsesWith(id.getDimension() == gpu::Dimension::x ? lane
                                                                   : zero);
      replaced.push_back(op);
    } else if (isa<gpu::BarrierOp>(op)) {
      OpBuilder b(op);
      NVVM::SyncWarpOp::create(
          b, op->getLoc(),
          arith::ConstantIntOp::create(b, op->getLoc(), b.getI32Type(), -1));
      replaced.push_back(op);
    }
  });
  for (Operation *op : replaced)
    op->erase();
}

} // namespace

SmallVector<unsigned> lowering::getTailOwnInputs(kernel::GraphDefOp firstGraph,
                                                 kernel::GraphDefOp tailGraph) {
  SmallVector<unsigned> own;
  for (auto [j, input] : llvm::enumerate(tailGraph.getInputs()))
    if (input.getDefiningOp() != firstGraph.getOperation())
      own.push_back(j);
  return own;
}

FailureOr<gpu::GPUFuncOp> lowering::combineTailKernels(
    kernel::GraphDefOp firstGraph, kernel::GraphDefOp tailGraph,
    gpu::GPUFuncOp firstKernel, gpu::GPUFuncOp tailKernel,
    const CombineTail &combine, int64_t tailSharedOffset,
    int64_t tailSharedStride, StringRef name) {
  if (tailKernel->hasAttr(kTensorMapsAttrName) ||
      !firstKernel.getBody().hasOneBlock() ||
      !tailKernel.getBody().hasOneBlock())
    return tailGraph.emitOpError(
        "internal error: a combine tail's kernel copies by TMA or has "
        "branches");
  MLIRContext *ctx = firstKernel.getContext();
  Location loc = firstGraph.getLoc();
  auto counters = MemRefType::get({combine.groups}, IntegerType::get(ctx, 32));
  ArgumentMap map(firstGraph, tailGraph, firstKernel, tailKernel, counters);

  OpBuilder b(firstKernel);
  auto fused =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(map.types, {}));
  for (NamedAttribute attr : firstKernel->getDiscardableAttrs())
    fused->setAttr(attr.getName(), attr.getValue());
  fused.setKnownBlockSizeAttr(firstKernel.getKnownBlockSizeAttr());
  if (auto maps = firstKernel->getAttrOfType<ArrayAttr>(kTensorMapsAttrName)) {
    SmallVector<Attribute> moved;
    for (Attribute attr : maps) {
      std::optional<TensorMapParam> param = TensorMapParam::fromAttr(attr);
      assert(param && "malformed tensor map entry");
      param->argument = map.first[param->argument];
      moved.push_back(param->toAttr(ctx));
    }
    fused->setAttr(kTensorMapsAttrName, b.getArrayAttr(moved));
  }
  fused->setAttr(kCombineCountersAttrName, b.getI64IntegerAttr(combine.groups));
  Block &entry = fused.getBody().front();
  b.setInsertionPointToEnd(&entry);
  auto ret = gpu::ReturnOp::create(b, loc);
  moveBody(firstKernel, map.first, entry.getArguments(), ret);

  // The arrival: every thread's stores are done (barrier); one thread makes
  // them visible to the GPU, counts the block in and learns whether it is
  // the group's last (then it resets the counter for the next launch and
  // sees the group's stores), and the block learns it with a barrier.
  b.setInsertionPoint(ret);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto i32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  };
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value, 3> blockIds;
  for (gpu::Dimension dim :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    blockIds.push_back(gpu::BlockIdOp::create(b, loc, dim));
  // The linear thread id (x fastest), its warp and lane.
  ArrayRef<int32_t> threads = firstGraph.getBlock();
  Value yz = arith::AddIOp::create(
      b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y),
      arith::MulIOp::create(b, loc,
                            gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z),
                            index(threads[1])));
  Value thread = arith::AddIOp::create(
      b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
      arith::MulIOp::create(b, loc, yz, index(threads[0])));
  Value leader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, index(0));
  Value warp = arith::DivUIOp::create(b, loc, thread, index(kWarpSize));
  Value lane = arith::RemUIOp::create(b, loc, thread, index(kWarpSize));
  ArrayRef<int32_t> grid = firstGraph.getGrid();
  Value group = index(0);
  int64_t stride = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (combine.groupAxes[a] < 0)
      continue;
    group = arith::AddIOp::create(
        b, loc, group,
        arith::MulIOp::create(b, loc, blockIds[a], index(stride)));
    stride *= grid[a];
  }
  Value counter = entry.getArgument(map.countersAt);
  auto arrive = scf::IfOp::create(b, loc, b.getI1Type(), leader,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(arrive.thenBlock());
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    Value before = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::addi, i32(1), counter, group);
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, before,
                                       i32(combine.blocksPerGroup - 1));
    auto reset = scf::IfOp::create(b, loc, last);
    b.setInsertionPoint(reset.thenBlock()->getTerminator());
    memref::StoreOp::create(b, loc, i32(0), counter, group);
    b.setInsertionPointAfter(reset);
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    scf::YieldOp::create(b, loc, ValueRange{last});
    b.setInsertionPointToStart(arrive.elseBlock());
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0)
                       .getResult()});
  }
  Value lastAnywhere =
      NVVM::BarrierOp::create(
          b, loc, b.getI32Type(), Value(), Value(),
          NVVM::BarrierReductionAttr::get(ctx, NVVM::BarrierReduction::OR),
          arith::ExtUIOp::create(b, loc, b.getI32Type(), arrive.getResult(0)))
          .getRes();
  auto isLast =
      scf::IfOp::create(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                              lastAnywhere, i32(0)));

  // The tail blocks of the group, one per warp at a time: the paired axes'
  // indices are the block's own, the others those of tail block `t` (x
  // fastest); each warp has its own shared memory.
  b.setInsertionPoint(isLast.thenBlock()->getTerminator());
  int64_t warps = firstGraph.getNumThreads() / kWarpSize;
  Value sharedOffset = arith::AddIOp::create(
      b, loc, index(tailSharedOffset),
      arith::MulIOp::create(b, loc, warp, index(tailSharedStride)));
  auto rounds = scf::ForOp::create(
      b, loc, index(0),
      index(llvm::divideCeil(combine.tailBlocksPerGroup, warps)), index(1));
  b.setInsertionPoint(rounds.getBody()->getTerminator());
  // The warp is done with its shared memory of the round before.
  NVVM::SyncWarpOp::create(b, loc, i32(-1));
  Value t = arith::AddIOp::create(
      b, loc, warp,
      arith::MulIOp::create(b, loc, rounds.getInductionVar(), index(warps)));
  auto inRange = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t,
                            index(combine.tailBlocksPerGroup)));
  b.setInsertionPoint(inRange.thenBlock()->getTerminator());
  SmallVector<Value, 3> tailIds(3);
  for (unsigned a = 0; a < 3; ++a)
    if (combine.groupAxes[a] >= 0)
      tailIds[combine.groupAxes[a]] = blockIds[a];
  Value rest = t;
  ArrayRef<int32_t> tailGrid = tailGraph.getGrid();
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (tailIds[axis])
      continue;
    tailIds[axis] = arith::RemUIOp::create(b, loc, rest, index(tailGrid[axis]));
    rest = arith::DivUIOp::create(b, loc, rest, index(tailGrid[axis]));
  }
  SmallVector<Operation *> dropped;
  tailKernel.walk([&](Operation *op) {
    if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      id.replaceAllUsesWith(tailIds[unsigned(id.getDimension())]);
      dropped.push_back(op);
    } else if (isa<NVVM::GriddepcontrolOp>(op)) {
      // Both kernels are one launch: it waited at the start.
      dropped.push_back(op);
    }
  });
  for (Operation *op : dropped)
    op->erase();
  offsetSharedMemory(tailKernel, sharedOffset);
  runInWarp(tailKernel, lane, index(0));
  moveBody(tailKernel, map.tail, entry.getArguments(),
           inRange.thenBlock()->getTerminator());
  return fused;
}
