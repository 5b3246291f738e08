//===- ExpandToBlocks.cpp - mirage-kernel-expand-to-blocks ----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Kernel/Transforms/Passes.h"

#include "Mirage/Analysis/KernelSchedule.h"
#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Support/Chip.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

namespace mlir::mirage::kernel {
#define GEN_PASS_DEF_EXPANDTOBLOCKSPASS
#include "Mirage/Dialect/Kernel/Transforms/Passes.h.inc"
} // namespace mlir::mirage::kernel

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// The grid aims for this many blocks...
constexpr int64_t kMinBlocks = 256;
/// ...as long as each block keeps this many result elements.
constexpr int64_t kMinTileElements = 32;

/// How the result of a kernel op may be cut across a grid: whether each
/// result dimension may be split, the order in which the grid takes them,
/// and for each operand the operand dimension that follows result dimension
/// `k` (-1: the operand is replicated along it).
struct Tiling {
  SmallVector<bool, 4> splittable;
  SmallVector<int64_t, 4> order;
  SmallVector<SmallVector<int64_t, 4>, 2> operandDims;
};

ArrayRef<int64_t> getShape(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

/// The dimension `op` reduces, for a `reduction` or a `reduction_max`.
std::optional<int64_t> getReducedDim(Operation *op) {
  if (auto sum = dyn_cast<kernel::ReductionOp>(op))
    return sum.getDim();
  if (auto max = dyn_cast<kernel::ReductionMaxOp>(op))
    return max.getDim();
  return std::nullopt;
}

/// The tiling of the result of `group`'s root (its last op) when the
/// graph_def's operands are `operands` (a single op's own, or the leaves of
/// a fused group rooted there).
Tiling analyzeTiling(ArrayRef<Operation *> group, ValueRange operands) {
  Operation *op = group.back();
  ArrayRef<int64_t> shape = getShape(op->getResult(0));
  int64_t rank = shape.size();
  Tiling tiling;
  tiling.splittable.assign(rank, true);
  tiling.order.resize(rank);
  std::iota(tiling.order.begin(), tiling.order.end(), 0);
  // By default result dimension k follows operand dimension k where their
  // extents agree (broadcast dimensions replicate).
  for (Value operand : operands) {
    SmallVector<int64_t, 4> dims;
    for (int64_t k = 0; k < rank; ++k)
      dims.push_back(getShape(operand)[k] == shape[k] ? k : -1);
    tiling.operandDims.push_back(dims);
  }
  TypeSwitch<Operation *>(op)
      .Case([&](kernel::MatmulOp) {
        // [.., m, k] x [.., k, n]: m follows the lhs only, n the rhs only.
        tiling.operandDims[0][rank - 1] = -1;
        tiling.operandDims[0][rank - 2] = rank - 2;
        tiling.operandDims[1][rank - 2] = -1;
        tiling.operandDims[1][rank - 1] = rank - 1;
        // Splitting m makes every block read the rhs tile of its columns,
        // splitting n the lhs tile of its rows: the larger of m and n goes
        // first, so the larger operand is read fewer times (a GEMV's
        // weights once).
        if (shape[rank - 1] > shape[rank - 2])
          std::swap(tiling.order[rank - 2], tiling.order[rank - 1]);
      })
      .Case([&](kernel::ConcatOp concat) {
        tiling.splittable[concat.getDim()] = false;
      })
      .Case([&](kernel::RmsNormOp norm) {
        // A split must not cut a group of `size` trailing elements.
        int64_t trailing = 1;
        for (int64_t k = rank - 1; k >= 0; --k) {
          tiling.splittable[k] = trailing % norm.getSize() == 0;
          trailing *= shape[k];
        }
      });
  // A reduced dimension is never split: a block sums whole rows (a single
  // reduction's own, or those of a row group's reductions, whose results
  // broadcast back into the root along that dimension).
  for (Operation *member : group)
    if (std::optional<int64_t> dim = getReducedDim(member))
      tiling.splittable[*dim] = false;
  return tiling;
}

/// The smallest divisor of `extent` that is at least `wanted`, else `extent`.
int64_t chooseSplit(int64_t extent, int64_t wanted, int64_t limit) {
  for (int64_t d = std::min(wanted, extent); d <= extent && d <= limit; ++d)
    if (extent % d == 0)
      return d;
  for (int64_t d = std::min(extent, limit); d > 1; --d)
    if (extent % d == 0)
      return d;
  return 1;
}

/// The elementwise kernel ops that one graph_def computes with `root`, in
/// program order, `root` last: `root` and, recursively, the elementwise ops
/// defining their operands whose only use is in the group and whose result
/// has root's type (shape and element type), none of them `kept` (left for
/// the GEMM library). The chain's intermediate
/// tensors then never reach global memory, as in torch.compile's fused
/// pointwise kernels; every op keeps its element type, so the values are
/// those of the ops one by one.
SmallVector<Operation *>
collectElementwiseTree(Operation *root, const DenseSet<Operation *> &kept) {
  SmallVector<Operation *> group = {root};
  if (!getElementwiseKind(root))
    return group;
  Type type = root->getResult(0).getType();
  for (size_t i = 0; i < group.size(); ++i)
    for (Value operand : group[i]->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && getElementwiseKind(def) && operand.hasOneUse() &&
          operand.getType() == type && def->getBlock() == root->getBlock() &&
          !kept.contains(def))
        group.push_back(def);
    }
  llvm::sort(group,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return group;
}

/// Whether `op` is a reduction (a sum or a maximum) whose result broadcasts
/// back into a tensor of shape `shape`: every other dimension keeps its
/// extent, and the reduced one becomes 1 or the extent it has in `shape`.
bool isBroadcastReduction(Operation *op, ArrayRef<int64_t> shape) {
  std::optional<int64_t> dim = getReducedDim(op);
  if (!dim)
    return false;
  ArrayRef<int64_t> result = getShape(op->getResult(0));
  if (result.size() != shape.size())
    return false;
  for (auto [k, extent] : llvm::enumerate(result))
    if (extent != shape[k] && (int64_t(k) != *dim || extent != 1))
      return false;
  return true;
}

/// The row group of `root`, in program order, `root` last: an elementwise
/// `root` and, transitively, the ops defining the operands of the group's
/// ops that are elementwise ops of root's type (shape and element type) or
/// reductions whose result broadcasts back into root's shape, none of them
/// `kept` (left for the GEMM library), as long as every value the group
/// computes but root's has all its uses in the group (ops that would have
/// one outside are left out, and then so are those whose uses they were).
/// Empty unless the group holds a reduction: then the elementwise tree
/// (collectElementwiseTree) is the group, as before.
///
/// The row softmax as models write it, `exp`, the sum of each row and the
/// division by it, is one group: one kernel reads each row once and writes
/// the result, as torch.compile's fused softmax does, where the ops one by
/// one write the exp tensor and read it twice. The grid never splits a
/// reduced dimension (analyzeTiling), so each block holds whole rows. Every
/// op keeps its element type: each intermediate value (the exp, the sum) is
/// rounded to it as the kernel-level program rounds it, so the values are
/// those of the ops one by one.
SmallVector<Operation *> collectRowGroup(Operation *root,
                                         const DenseSet<Operation *> &kept) {
  if (!getElementwiseKind(root))
    return {};
  Type type = root->getResult(0).getType();
  ArrayRef<int64_t> shape = getShape(root->getResult(0));
  llvm::SetVector<Operation *> candidates;
  candidates.insert(root);
  for (size_t i = 0; i < candidates.size(); ++i)
    for (Value operand : candidates[i]->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != root->getBlock() || kept.contains(def))
        continue;
      if ((getElementwiseKind(def) && operand.getType() == type) ||
          isBroadcastReduction(def, shape))
        candidates.insert(def);
    }
  // Leave out the ops with a use outside until none has one.
  llvm::SmallPtrSet<Operation *, 8> members(candidates.begin(),
                                            candidates.end());
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *candidate : candidates) {
      if (candidate == root || !members.contains(candidate))
        continue;
      if (llvm::any_of(candidate->getUsers(), [&](Operation *user) {
            return !members.contains(user);
          })) {
        members.erase(candidate);
        changed = true;
      }
    }
  }
  if (llvm::none_of(
          members, [](Operation *op) { return getReducedDim(op).has_value(); }))
    return {};
  SmallVector<Operation *> group(members.begin(), members.end());
  llvm::sort(group,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return group;
}

/// A graph_def, inserted before the last op of `group` (one op, or an
/// elementwise tree or row group whose root comes last), that computes
/// `group`'s root: it runs the block ops of the same mnemonics on tiles of at
/// most about `tileElements` result elements, one per block. The kernel ops
/// stay (replaceByGraphDef removes them).
kernel::GraphDefOp buildGraphDef(ArrayRef<Operation *> group, int32_t threads,
                                 int64_t tileElements) {
  Operation *op = group.back();
  OpBuilder builder(op);
  Location loc = op->getLoc();
  MLIRContext *ctx = op->getContext();
  ArrayRef<int64_t> shape = getShape(op->getResult(0));
  // The graph_def's operands: a single op's own, else those of the group's
  // ops that the group does not compute, once each (one loader per value).
  SmallVector<Value> operands(op->getOperands());
  if (group.size() > 1) {
    llvm::SmallPtrSet<Operation *, 8> members(group.begin(), group.end());
    llvm::SetVector<Value> leaves;
    for (Operation *member : group)
      for (Value operand : member->getOperands())
        if (!members.contains(operand.getDefiningOp()))
          leaves.insert(operand);
    operands.assign(leaves.begin(), leaves.end());
  }
  Tiling tiling = analyzeTiling(group, operands);

  // Grid axes x, y, z take the outermost splittable dimensions until the
  // result tile is small enough, and the GPU has enough blocks to keep busy
  // (as long as each still has a few result elements).
  // The elements of work: the result's, but the input's of a reduction,
  // each of whose result elements sums a row (a row sum of 128 rows of 4096
  // is 128 blocks of one row, not 4 of 32).
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  for (Operation *member : group)
    if (getReducedDim(member))
      count = std::max(
          count,
          cast<ShapedType>(member->getOperand(0).getType()).getNumElements());
  int64_t wanted = std::max<int64_t>(
      llvm::divideCeil(count, tileElements),
      std::min<int64_t>(kMinBlocks, llvm::divideCeil(count, kMinTileElements)));
  SmallVector<int32_t, 3> grid{1, 1, 1}, resultDims{-1, -1, -1};
  unsigned axis = 0;
  for (int64_t k : tiling.order) {
    int64_t extent = shape[k];
    if (wanted <= 1 || axis == 3)
      break;
    if (!tiling.splittable[k] || extent == 1)
      continue;
    int64_t split = chooseSplit(extent, wanted, axis == 0 ? INT32_MAX : 65535);
    if (split == 1)
      continue;
    grid[axis] = split;
    resultDims[axis] = k;
    wanted = llvm::divideCeil(wanted, split);
    ++axis;
  }
  auto mapOf = [&](ArrayRef<int64_t> dims) {
    SmallVector<int32_t, 3> map{-1, -1, -1};
    for (unsigned a = 0; a < 3; ++a)
      if (resultDims[a] >= 0)
        map[a] = dims[resultDims[a]];
    return block::GridMapAttr::get(ctx, map[0], map[1], map[2]);
  };
  auto tileOf = [&](Type tensor, block::GridMapAttr map) {
    auto shaped = cast<ShapedType>(tensor);
    SmallVector<int64_t, 4> tile(shaped.getShape());
    for (unsigned a = 0; a < 3; ++a)
      if (map.getDim(a) >= 0)
        tile[map.getDim(a)] /= grid[a];
    return block::STensorType::get(tile, shaped.getElementType());
  };

  auto graph = kernel::GraphDefOp::create(
      builder, loc, op->getResultTypes(), operands,
      builder.getDenseI32ArrayAttr(grid),
      builder.getDenseI32ArrayAttr({threads, 1, 1}),
      builder.getI64IntegerAttr(1), /*cluster=*/nullptr,
      /*non_portable_cluster=*/nullptr, /*async_copies=*/nullptr);
  Block *body = new Block();
  graph.getBody().push_back(body);
  builder.setInsertionPointToStart(body);

  SmallVector<Value> loaded;
  for (auto [operand, dims] : llvm::zip(operands, tiling.operandDims)) {
    Value arg = body->addArgument(operand.getType(), loc);
    block::GridMapAttr imap = mapOf(dims);
    loaded.push_back(block::InputLoaderOp::create(
        builder, loc, tileOf(operand.getType(), imap), arg, imap,
        builder.getI64IntegerAttr(-1)));
  }
  // A tree's operands are distinct; a single op's may repeat (`mul %x, %x`
  // loads %x twice).
  IRMapping tiles;
  tiles.map(ValueRange(operands), ValueRange(loaded));
  // Kernel and block ops share mnemonics and attribute names. Each result's
  // tile is that of its kernel type under omap: a reduction's result keeps
  // the root's extents but along its reduced dimension, which no grid axis
  // splits.
  SmallVector<int64_t, 4> identity =
      llvm::to_vector<4>(llvm::seq<int64_t>(0, shape.size()));
  block::GridMapAttr omap = mapOf(identity);
  Operation *compute = nullptr;
  for (Operation *member : group) {
    OperationState state(
        loc, ("mirage_block." + member->getName().stripDialect()).str());
    if (group.size() == 1)
      state.addOperands(loaded);
    else
      for (Value operand : member->getOperands())
        state.addOperands(tiles.lookup(operand));
    for (Type type : member->getResultTypes())
      state.addTypes(tileOf(type, omap));
    state.addAttributes(member->getAttrs());
    compute = builder.create(state);
    tiles.map(member->getResults(), compute->getResults());
  }
  SmallVector<Value> saved;
  for (auto [tile, type] :
       llvm::zip(compute->getResults(), op->getResultTypes()))
    saved.push_back(
        block::OutputSaverOp::create(builder, loc, type, tile, omap));
  block::YieldOp::create(builder, loc, saved);
  return graph;
}

/// Whether the code generator can schedule `graph` within the shared memory
/// of every chip (a bundle's default targets). A row group keeps whole rows
/// in shared memory (the exp that both the sum and the division read): a
/// long enough row does not fit, where the ops one by one, reading in
/// place, do.
bool fitsEveryChip(kernel::GraphDefOp graph) {
  // The schedule's refusal is expected, and not the user's: it is dropped
  // (only it: other functions' diagnostics, which threads may emit
  // meanwhile, go on to the other handlers).
  Location loc = graph.getLoc();
  ScopedDiagnosticHandler quiet(graph.getContext(), [loc](Diagnostic &diag) {
    return success(diag.getLocation() == loc);
  });
  SmallVector<const Chip *> chips = getDefaultChips(/*usesClusters=*/false);
  ScheduleOptions options = {/*maxStages=*/0, /*tensorCores=*/true,
                             /*warpgroupMatmuls=*/false,
                             /*tensorCopies=*/false,
                             getSharedBytesPerBlock(chips)};
  return llvm::all_of(chips, [&](const Chip *chip) {
    return succeeded(scheduleKernel(graph, *chip, options));
  });
}

/// Replaces the root of `group` (its last op) by `graph`'s result and
/// erases the ops of `group`.
void replaceByGraphDef(ArrayRef<Operation *> group, kernel::GraphDefOp graph) {
  group.back()->replaceAllUsesWith(graph.getResults());
  for (Operation *member : llvm::reverse(group))
    member->erase();
}

struct ExpandToBlocksPass
    : kernel::impl::ExpandToBlocksPassBase<ExpandToBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    if (tileElements < 1) {
      getOperation().emitError("tile-elements must be positive, got ")
          << static_cast<int64_t>(tileElements);
      return signalPassFailure();
    }
    if (threads < 1 || threads > kMaxThreadsPerBlock) {
      getOperation().emitError("threads must be in [1, ")
          << kMaxThreadsPerBlock << "], got " << static_cast<int64_t>(threads);
      return signalPassFailure();
    }
    // With library matmuls, matmuls stay, and so does each add that their
    // calls compute as an epilogue.
    DenseSet<Operation *> kept;
    SmallVector<Operation *> ops;
    for (Operation &op : getOperation().getBody().getOps()) {
      auto add = dyn_cast<kernel::AddOp>(op);
      if (libraryMatmuls && (isa<kernel::MatmulOp>(op) ||
                             (add && kernel::getLibraryEpilogueMatmul(add))))
        kept.insert(&op);
      else if (kernel::isPredefinedKernelOp(&op))
        ops.push_back(&op);
    }
    // Roots go last to first, so that each takes the chain before it.
    DenseSet<Operation *> fused;
    for (Operation *op : llvm::reverse(ops)) {
      if (fused.contains(op))
        continue;
      if (isa<kernel::ChunkOp, kernel::AllReduceOp>(op)) {
        op->emitOpError("has no block-level form to expand into yet");
        return signalPassFailure();
      }
      // A row group that the code generator could not schedule gives way to
      // the elementwise tree (its reductions then run alone, reading their
      // rows in place).
      SmallVector<Operation *> group = collectRowGroup(op, kept);
      kernel::GraphDefOp graph;
      if (!group.empty()) {
        graph = buildGraphDef(group, threads, tileElements);
        if (!fitsEveryChip(graph)) {
          graph.erase();
          graph = nullptr;
        }
      }
      if (!graph) {
        group = collectElementwiseTree(op, kept);
        graph = buildGraphDef(group, threads, tileElements);
      }
      fused.insert(group.begin(), group.end());
      replaceByGraphDef(group, graph);
    }
  }
};

} // namespace
