//===- OutlineKernelGraphs.cpp - mirage-outline-kernel-graphs -------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Partitions the kernel ops of a block into regions that can each become one
// call, outlines every region into a kernel-graph function and orders the
// calls and the other ops of the block by their dependences.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/Passes.h"

#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

#include <queue>

namespace mlir::mirage {
#define GEN_PASS_DEF_OUTLINEKERNELGRAPHSPASS
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// True for an op a kernel-graph function may hold: a mirage_kernel op on
/// tensors (not a launch or a library call on buffers).
bool isKernelGraphOp(Operation &op) {
  return isa<kernel::MirageKernelDialect>(op.getDialect()) &&
         !isa<kernel::LaunchOp, kernel::LibraryMatmulOp>(op);
}

/// True for a function whose body is made of kernel ops only.
bool isKernelGraph(func::FuncOp function) {
  return llvm::all_of(function.getBody().getOps(), [](Operation &op) {
    return isKernelGraphOp(op) || isa<func::ReturnOp>(op);
  });
}

/// The ops of one block (its terminator aside), their dependences, and the
/// regions their kernel ops are partitioned into.
class BlockPartition {
public:
  explicit BlockPartition(Block &block);

  /// Starts every kernel op in the region of its level, then merges regions
  /// while no path through another op separates them.
  void partition();

  /// The ops of the block in an order that respects every dependence, each
  /// region's ops together, regions and other ops as early as their
  /// position allows; each entry is one op or one region.
  SmallVector<SmallVector<Operation *>> schedule();

private:
  /// True when a path from region `from` to region `to` passes through an
  /// op in neither.
  bool separates(unsigned from, unsigned to);
  /// The node of op `i` in the graph of regions and other ops.
  unsigned node(unsigned i) {
    return kernel[i] ? regions.getLeaderValue(i) : i;
  }

  SmallVector<Operation *> ops;
  SmallVector<bool> kernel;
  SmallVector<SmallVector<unsigned>> preds, succs;
  /// Kernel ops by region; each region is named by its first op.
  llvm::EquivalenceClasses<unsigned> regions;
};

BlockPartition::BlockPartition(Block &block) {
  DenseMap<Operation *, unsigned> index;
  for (Operation &op : block.without_terminator()) {
    index[&op] = ops.size();
    ops.push_back(&op);
    kernel.push_back(isKernelGraphOp(op));
  }
  preds.resize(ops.size());
  succs.resize(ops.size());
  std::optional<unsigned> lastEffect;
  for (unsigned i = 0; i < ops.size(); ++i) {
    Operation *op = ops[i];
    SetVector<unsigned> from;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        Operation *ancestor = def ? block.findAncestorOpInBlock(*def) : nullptr;
        if (ancestor && ancestor != op)
          from.insert(index.lookup(ancestor));
      }
    });
    // Ops with memory effects keep their order.
    if (!kernel[i] && !isMemoryEffectFree(op)) {
      if (lastEffect)
        from.insert(*lastEffect);
      lastEffect = i;
    }
    for (unsigned pred : from) {
      preds[i].push_back(pred);
      succs[pred].push_back(i);
    }
  }
}

void BlockPartition::partition() {
  // An op's level: the most other ops on a path to it. Kernel ops of one
  // level form a region no such path enters twice.
  SmallVector<unsigned> level(ops.size(), 0);
  DenseMap<unsigned, unsigned> firstOfLevel;
  SmallVector<unsigned> leaders;
  for (unsigned i = 0; i < ops.size(); ++i) {
    for (unsigned pred : preds[i])
      level[i] = std::max(level[i], level[pred] + (kernel[pred] ? 0 : 1));
    if (!kernel[i])
      continue;
    regions.insert(i);
    auto [first, inserted] = firstOfLevel.try_emplace(level[i], i);
    if (inserted)
      leaders.push_back(i);
    else
      regions.unionSets(first->second, i);
  }
  llvm::sort(leaders,
             [&](unsigned a, unsigned b) { return level[a] < level[b]; });
  SmallVector<bool> merged(leaders.size(), false);
  for (unsigned a = 0; a < leaders.size(); ++a) {
    if (merged[a])
      continue;
    for (unsigned b = a + 1; b < leaders.size(); ++b) {
      if (merged[b] || separates(leaders[a], leaders[b]) ||
          separates(leaders[b], leaders[a]))
        continue;
      regions.unionSets(leaders[a], leaders[b]);
      merged[b] = true;
    }
  }
}

bool BlockPartition::separates(unsigned from, unsigned to) {
  unsigned source = node(from), target = node(to);
  SmallVector<bool> seen(ops.size(), false);
  SmallVector<unsigned> stack;
  // Start from the ops outside both regions that the first feeds.
  for (unsigned i = 0; i < ops.size(); ++i)
    if (kernel[i] && node(i) == source)
      for (unsigned succ : succs[i])
        if (node(succ) != source && node(succ) != target && !seen[succ]) {
          seen[succ] = true;
          stack.push_back(succ);
        }
  while (!stack.empty()) {
    unsigned i = stack.pop_back_val();
    for (unsigned succ : succs[i]) {
      if (node(succ) == target)
        return true;
      if (!seen[succ]) {
        seen[succ] = true;
        stack.push_back(succ);
      }
    }
  }
  return false;
}

SmallVector<SmallVector<Operation *>> BlockPartition::schedule() {
  // Kahn's algorithm over regions and other ops, earliest position first.
  DenseMap<unsigned, unsigned> waiting;
  DenseMap<unsigned, SmallVector<unsigned>> after;
  DenseMap<unsigned, SmallVector<Operation *>> members;
  // Nodes by the position of their first op.
  SmallVector<unsigned> nodes;
  DenseMap<unsigned, unsigned> position;
  for (unsigned i = 0; i < ops.size(); ++i) {
    unsigned n = node(i);
    if (members[n].empty()) {
      position[n] = nodes.size();
      nodes.push_back(n);
    }
    members[n].push_back(ops[i]);
    for (unsigned pred : preds[i])
      if (node(pred) != n) {
        after[node(pred)].push_back(n);
        ++waiting[n];
      }
  }
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>>
      ready;
  for (unsigned n : nodes)
    if (waiting[n] == 0)
      ready.push(position[n]);
  SmallVector<SmallVector<Operation *>> order;
  while (!ready.empty()) {
    unsigned n = nodes[ready.top()];
    ready.pop();
    order.push_back(members[n]);
    for (unsigned next : after[n])
      if (--waiting[next] == 0)
        ready.push(position[next]);
  }
  return order;
}

/// Moves `ops` (kernel ops of one block, in order) into a new kernel-graph
/// function inserted into `symbols` after `insertAfter`, and calls it at
/// `builder`'s insertion point. Returns the function.
func::FuncOp outline(ArrayRef<Operation *> ops, StringRef name,
                     SymbolTable &symbols, Operation *insertAfter,
                     OpBuilder &builder) {
  llvm::SmallPtrSet<Operation *, 16> inside(ops.begin(), ops.end());
  Block *block = ops.front()->getBlock();
  SetVector<Value> inputs;
  SmallVector<Value> outputs;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (!inside.contains(operand.getDefiningOp()))
        inputs.insert(operand);
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inside.contains(block->findAncestorOpInBlock(*user));
          }))
        outputs.push_back(result);
  }
  Location loc = ops.front()->getLoc();
  auto type = FunctionType::get(builder.getContext(),
                                ValueRange(inputs.getArrayRef()).getTypes(),
                                ValueRange(outputs).getTypes());
  auto function = func::FuncOp::create(loc, name, type);
  symbols.insert(function, std::next(Block::iterator(insertAfter)));
  OpBuilder body = OpBuilder::atBlockBegin(function.addEntryBlock());
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), function.getArguments());
  for (Operation *op : ops)
    body.clone(*op, mapping);
  SmallVector<Value> returned;
  for (Value output : outputs)
    returned.push_back(mapping.lookup(output));
  func::ReturnOp::create(body, loc, returned);

  auto call =
      func::CallOp::create(builder, loc, function, inputs.getArrayRef());
  for (auto [output, result] : llvm::zip(outputs, call.getResults()))
    output.replaceAllUsesWith(result);
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return function;
}

struct OutlineKernelGraphsPass
    : public mirage::impl::OutlineKernelGraphsPassBase<
          OutlineKernelGraphsPass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    for (auto function :
         llvm::to_vector(getOperation().getOps<func::FuncOp>())) {
      if (function.isExternal() || isKernelGraph(function))
        continue;
      SmallVector<Block *> blocks;
      function.walk([&](Block *block) {
        if (!isa<kernel::MirageKernelDialect>(
                block->getParentOp()->getDialect()) &&
            llvm::any_of(*block, isKernelGraphOp))
          blocks.push_back(block);
      });
      Operation *last = function;
      unsigned count = 0;
      for (Block *block : blocks) {
        BlockPartition partition(*block);
        partition.partition();
        OpBuilder builder = OpBuilder::atBlockTerminator(block);
        if (block->empty() || !block->back().hasTrait<OpTrait::IsTerminator>())
          builder.setInsertionPointToEnd(block);
        for (ArrayRef<Operation *> entry : partition.schedule()) {
          if (!isKernelGraphOp(*entry.front())) {
            entry.front()->moveBefore(builder.getInsertionBlock(),
                                      builder.getInsertionPoint());
            continue;
          }
          std::string name =
              (function.getSymName() + "_graph" + Twine(count++)).str();
          last = outline(entry, name, symbols, last, builder);
        }
      }
    }
  }
};

} // namespace
