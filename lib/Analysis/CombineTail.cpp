//===- CombineTail.cpp - A kernel run by another's last blocks ------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/CombineTail.h"

#include "Mirage/Analysis/TileLayout.h"
#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// The output_saver of `graph` that writes its result `index`.
block::OutputSaverOp getSaver(kernel::GraphDefOp graph, unsigned index) {
  Operation *yield = graph.getBodyBlock().getTerminator();
  return yield->getOperand(index).getDefiningOp<block::OutputSaverOp>();
}

/// What is known of how the first grid's axes pair with the tail's: for
/// each first axis, unknown (no tensor said yet), -1 (one group along it)
/// or the tail axis it pairs with.
constexpr int32_t kUnknown = -2;

/// Merges into `pairs` what tail loader `load` of the tensor that `save`
/// writes says: fails where a tail block would read what two groups wrote.
LogicalResult pairAxes(block::OutputSaverOp save, block::InputLoaderOp load,
                       ArrayRef<int32_t> firstGrid, ArrayRef<int32_t> tailGrid,
                       std::array<int32_t, 3> &pairs) {
  SmallVector<int32_t, 3> omap = save.getOmap().getDims();
  SmallVector<int32_t, 3> imap = load.getImap().getDims();
  for (unsigned a = 0; a < 3; ++a) {
    if (firstGrid[a] == 1)
      continue;
    int32_t dim = omap[a];
    if (dim < 0)
      return failure();
    int32_t paired = -1;
    for (unsigned b = 0; b < 3; ++b) {
      if (tailGrid[b] == 1 || imap[b] != dim)
        continue;
      // A tail axis cutting the dimension into other chunks reads across
      // the first grid's chunks.
      if (tailGrid[b] != firstGrid[a])
        return failure();
      paired = int32_t(b);
    }
    if (pairs[a] != kUnknown && pairs[a] != paired)
      return failure();
    pairs[a] = paired;
  }
  return success();
}

} // namespace

std::optional<CombineTail> mirage::getCombineTail(kernel::GraphDefOp first,
                                                  kernel::GraphDefOp second) {
  if (first->getNextNode() != second.getOperation() || first.getCluster() ||
      second.getCluster() || first.getBlock() != second.getBlock() ||
      first.getNumThreads() % kWarpSize != 0)
    return std::nullopt;
  Block &tailBody = second.getBodyBlock();
  for (auto load : tailBody.getOps<block::InputLoaderOp>())
    if (load.isLoopVarying())
      return std::nullopt;
  for (Value result : first.getResults())
    if (result.use_empty() ||
        llvm::any_of(result.getUsers(), [&](Operation *user) {
          return user != second.getOperation();
        }))
      return std::nullopt;

  ArrayRef<int32_t> firstGrid = first.getGrid();
  ArrayRef<int32_t> tailGrid = second.getGrid();
  std::array<int32_t, 3> pairs = {kUnknown, kUnknown, kUnknown};
  bool readsFirst = false;
  for (auto [input, argument] :
       llvm::zip_equal(second.getInputs(), tailBody.getArguments())) {
    auto result = dyn_cast<OpResult>(input);
    if (!result || result.getOwner() != first.getOperation())
      continue;
    block::OutputSaverOp save = getSaver(first, result.getResultNumber());
    if (!save)
      return std::nullopt;
    for (Operation *user : argument.getUsers()) {
      auto load = dyn_cast<block::InputLoaderOp>(user);
      if (!load || failed(pairAxes(save, load, firstGrid, tailGrid, pairs)))
        return std::nullopt;
      readsFirst = true;
    }
  }
  if (!readsFirst)
    return std::nullopt;

  CombineTail tail;
  std::array<bool, 3> pairedTailAxes = {false, false, false};
  for (unsigned a = 0; a < 3; ++a) {
    // An axis of one block, or one no tensor constrains, groups nothing.
    tail.groupAxes[a] = pairs[a] < 0 ? -1 : pairs[a];
    if (tail.groupAxes[a] >= 0) {
      tail.groups *= firstGrid[a];
      pairedTailAxes[tail.groupAxes[a]] = true;
    } else {
      tail.blocksPerGroup *= firstGrid[a];
    }
  }
  for (unsigned b = 0; b < 3; ++b)
    if (!pairedTailAxes[b])
      tail.tailBlocksPerGroup *= tailGrid[b];
  if (tail.tailBlocksPerGroup > kMaxTailBlocksPerGroup)
    return std::nullopt;
  return tail;
}

int64_t mirage::getTailSharedOffset(int64_t firstSharedBytes) {
  return llvm::alignTo(firstSharedBytes, 1024);
}

int64_t mirage::getTailSharedStride(int64_t tailSharedBytes) {
  return llvm::alignTo(tailSharedBytes, 128);
}

int64_t mirage::getCombinedSharedBytes(int64_t firstSharedBytes,
                                       int64_t tailSharedBytes,
                                       int64_t threads) {
  if (tailSharedBytes == 0)
    return firstSharedBytes;
  return getTailSharedOffset(firstSharedBytes) +
         threads / kWarpSize * getTailSharedStride(tailSharedBytes);
}
