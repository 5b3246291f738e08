//===- ReductionLowering.cpp - Sums: reductions, rms_norm, accumulators ---===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every sum (a reduction, an rms_norm's squares, a SIMT matmul's products, a
// forloop_accum's step) and every row maximum goes through emitSums, which
// splits long sums over the block's threads, except an rms_norm whose groups
// stay in registers (RegisterRowsNorm: shuffles over each group's lanes);
// forloop_accum state lives in shared memory unless a matmul keeps it in
// registers (MatmulLowering.cpp).
//
//===----------------------------------------------------------------------===//

#include "GraphDefLowering.h"
#include <limits>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::lowering;

void GraphDefLowering::emitSums(
    ArrayRef<int64_t> shape, int64_t terms, int64_t width,
    function_ref<SmallVector<Value, 8>(ValueRange c, Value k)> term,
    function_ref<void(ValueRange c, ValueRange sums)> finish, int64_t termRun,
    KernelEmitter::Combine combine) {
  assert((termRun == 1 || width == 1) && terms % termRun == 0 &&
         "runs of terms sum one element at a time");
  SmallVector<int64_t, 4> groupShape(shape);
  groupShape.back() /= width;
  int64_t groups = 1;
  for (int64_t extent : groupShape)
    groups *= extent;
  int64_t slices =
      getSumSlices(groups, terms, emitter.getNumThreads(), termRun);
  int64_t sliceLength = terms / slices;
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  // The first element of group `g`.
  auto firstOf = [&](ValueRange g) {
    SmallVector<Value, 4> c(g);
    if (width != 1)
      c.back() =
          arith::MulIOp::create(builder, loc, c.back(), emitter.index(width));
    return c;
  };
  auto index = [&](int64_t value) { return emitter.index(value); };
  // The group from element `c` summed over slice `slice` of its terms (null:
  // all of them).
  auto sumSlice = [&](ValueRange c, Value slice) -> SmallVector<Value, 8> {
    if (termRun == 1) {
      // Terms [slice * sliceLength, (slice + 1) * sliceLength).
      Value first =
          slice ? arith::MulIOp::create(builder, loc, slice, index(sliceLength))
                : Value();
      return emitter.sequentialSum(
          sliceLength, width,
          [&](Value i) {
            Value k = first ? arith::AddIOp::create(builder, loc, first, i) : i;
            return term(c, k);
          },
          combine);
    }
    // Step i takes run `slice + i * slices`; each position of a run keeps
    // its own sum, and the positions' sums are added last.
    SmallVector<Value, 8> sums = emitter.sequentialSum(
        sliceLength / termRun, termRun,
        [&](Value i) {
          Value run = i;
          if (slice)
            run = arith::AddIOp::create(
                builder, loc,
                arith::MulIOp::create(builder, loc, i, index(slices)), slice);
          return term(c,
                      arith::MulIOp::create(builder, loc, run, index(termRun)));
        },
        combine);
    return {emitter.combinePairwise(sums, combine)};
  };
  if (slices == 1) {
    emitter.forEachElement(groupShape, [&](ValueRange g) {
      SmallVector<Value, 4> c = firstOf(g);
      finish(c, sumSlice(c, Value()));
    });
    return;
  }
  // Threads take (slice, group) pairs: consecutive threads consecutive
  // groups (coalesced reads along the last dimension) or, for runs of
  // terms, consecutive slices of one group.
  SmallVector<int64_t, 4> partialShape = {slices};
  llvm::append_range(partialShape, shape);
  Tile partials = emitter.allocateShared(partialShape, builder.getF32Type());
  SmallVector<int64_t, 4> pairShape;
  if (termRun == 1)
    pairShape.push_back(slices);
  llvm::append_range(pairShape, groupShape);
  if (termRun != 1)
    pairShape.push_back(slices);
  emitter.forEachElement(pairShape, [&](ValueRange pg) {
    Value slice = termRun == 1 ? pg.front() : pg.back();
    SmallVector<Value, 5> pc = {slice};
    llvm::append_range(
        pc, firstOf(termRun == 1 ? pg.drop_front() : pg.drop_back()));
    emitter.storeVector(partials, pc,
                        sumSlice(ArrayRef(pc).drop_front(), slice));
  });
  if (slices % kWarpSize == 0 && emitter.getNumThreads() % kWarpSize == 0) {
    // A warp per element: lane l adds partials l, l + 32, ..., then the
    // warp adds its lanes' sums with shuffles, and lane 0 finishes.
    SmallVector<int64_t, 5> laneShape(shape);
    laneShape.push_back(kWarpSize);
    emitter.forEachElement(laneShape, [&](ValueRange cl) {
      ValueRange c = cl.drop_back();
      Value lane = cl.back();
      Value sum;
      for (int64_t slice = 0; slice < slices; slice += kWarpSize) {
        SmallVector<Value, 5> pc = {
            slice == 0 ? lane
                       : arith::AddIOp::create(builder, loc, lane,
                                               emitter.index(slice))
                             .getResult()};
        llvm::append_range(pc, c);
        Value partial = emitter.load(partials, pc);
        sum = sum ? emitter.combine(sum, partial, combine) : partial;
      }
      sum = emitter.warpCombine(sum, kWarpSize, combine);
      Value first = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, lane, emitter.index(0));
      auto finishing = scf::IfOp::create(builder, loc, first);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(finishing.thenBlock()->getTerminator());
      finish(c, sum);
    });
    return;
  }
  // One thread per element adds its partials.
  emitter.forEachElement(shape, [&](ValueRange c) {
    Value sum = emitter.identity(combine);
    for (int64_t slice = 0; slice < slices; ++slice) {
      SmallVector<Value, 5> pc = {emitter.index(slice)};
      llvm::append_range(pc, c);
      sum = emitter.combine(sum, emitter.load(partials, pc), combine);
    }
    finish(c, sum);
  });
}

void GraphDefLowering::lowerReduction(Operation *op) {
  // out[.., j, ..] = sum_k in[.., j + k * size, ..]: the strided rule (a
  // maximum reduces to size 1).
  // Groups of consecutive elements along the last dimension read
  // consecutive inputs when the last dimension is not reduced or `size` is
  // a multiple of the group.
  Tile in = tiles[op->getOperand(0)];
  auto [dim, size] = block::getReductionShape(op);
  Tile out = allocateResult(op->getResult(0));
  int64_t width = getSumWidth(in, out.shape, emitter.getNumThreads(),
                              schedule.choices.vectorSums);
  int64_t terms = in.shape[dim] / size;
  // A reduction of the whole last dimension sums consecutive terms.
  bool lastDim = dim == int64_t(in.shape.size()) - 1;
  int64_t termRun = lastDim && size == 1 ? getTermRun(in, terms) : 1;
  if (lastDim)
    width = getGroupWidth(width, size);
  emitSums(
      out.shape, terms, width,
      [&](ValueRange c, Value k) {
        SmallVector<Value, 4> ic(c);
        ic[dim] = addScaled(c[dim], k, size);
        // `width` elements' terms, or a run of one element's (one is 1).
        return emitter.loadVector(in, ic, width * termRun);
      },
      [&](ValueRange c, ValueRange sums) { emitter.storeVector(out, c, sums); },
      termRun,
      isa<block::ReductionMaxOp>(op) ? KernelEmitter::Combine::Max
                                     : KernelEmitter::Combine::Add);
}

namespace {

/// Emits an rms_norm whose groups stay in registers (RegisterRows).
class RegisterRowsNorm : IndexArithmetic {
public:
  RegisterRowsNorm(KernelEmitter &emitter, const RegisterRows &rows)
      : IndexArithmetic(emitter), rows(rows) {}

  /// Normalizes each group of `size` elements of `in` into `out`;
  /// `partials` holds one f32 per warp when a group spans several warps.
  void emit(const Tile &in, const Tile &out, const Tile *partials, int64_t size,
            double eps);

private:
  const RegisterRows &rows;
};

} // namespace

void RegisterRowsNorm::emit(const Tile &in, const Tile &out,
                            const Tile *partials, int64_t size, double eps) {
  Value thread = emitter.getThreadId();
  Value lane = rem(thread, rows.lanes);
  Value group = div(thread, rows.lanes);
  Value first = mul(group, size);
  int64_t runs = size / rows.width;
  // The first element of run `run` of this thread's group.
  auto at = [&](Value run) {
    return emitter.delinearize(add(first, mul(run, rows.width)), in.shape);
  };
  // Round `j` of this thread is run `lane + j * lanes` of its group; only
  // the last may lie past the group's end, where it reads as zeros.
  SmallVector<SmallVector<Value>> held;
  SmallVector<Value> zeros(rows.width, emitter.f32(0.0));
  for (int64_t j = 0; j < rows.runsPerThread; ++j)
    held.push_back(emitItemOfRound(
        emitter, lane, rows.lanes, runs, j, zeros, [&](Value run) {
          return SmallVector<Value>(
              emitter.loadVector(in, at(run), rows.width));
        }));
  // The thread's squares, then its group's, added in a fixed order.
  SmallVector<Value> squares;
  for (ArrayRef<Value> run : held)
    for (Value x : run)
      squares.push_back(arith::MulFOp::create(builder, loc, x, x));
  Value sum =
      emitter.groupSum(emitter.addPairwise(squares), rows.lanes, partials);
  Value factor = emitRmsFactor(builder, loc, sum, size, eps);
  for (int64_t j = 0, e = held.size(); j < e; ++j)
    emitItemOfRound(emitter, lane, rows.lanes, runs, j, {}, [&](Value run) {
      SmallVector<Value, 8> results;
      for (Value x : held[j])
        results.push_back(arith::MulFOp::create(builder, loc, x, factor));
      emitter.storeVector(out, at(run), results);
      return SmallVector<Value>();
    });
  emitter.barrier();
}

void GraphDefLowering::lowerRmsNorm(block::RmsNormOp op) {
  // Each group of `size` trailing elements: x / sqrt(sum(x^2) / size + eps).
  Tile in = tiles[op.getInput()];
  int64_t size = op.getSize();
  double eps = op.getEps().convertToDouble();
  if (auto rows = schedule.registerRows.find(op);
      rows != schedule.registerRows.end()) {
    std::optional<Tile> partials;
    if (rows->second.lanes > kWarpSize)
      partials = emitter.allocateShared({emitter.getNumThreads() / kWarpSize},
                                        emitter.getBuilder().getF32Type());
    Tile out = getResultTile(op, op.getResult());
    RegisterRowsNorm(emitter, rows->second)
        .emit(in, out, partials ? &*partials : nullptr, size, eps);
    return;
  }
  int64_t count = 1;
  for (int64_t d : in.shape)
    count *= d;
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  // The reciprocal of each group's root mean square.
  Tile scale = emitter.allocateShared({count / size}, b.getF32Type());
  int64_t termRun = getTermRun(in, size);
  emitSums(
      scale.shape, size, /*width=*/1,
      [&](ValueRange group, Value i) -> SmallVector<Value, 8> {
        Value first =
            arith::MulIOp::create(b, loc, group[0], emitter.index(size));
        Value linear = arith::AddIOp::create(b, loc, first, i);
        SmallVector<Value, 8> squares;
        for (Value x : emitter.loadVector(
                 in, emitter.delinearize(linear, in.shape), termRun))
          squares.push_back(arith::MulFOp::create(b, loc, x, x));
        return squares;
      },
      [&](ValueRange group, ValueRange sum) {
        emitter.store(scale, group, emitRmsFactor(b, loc, sum[0], size, eps));
      },
      termRun);
  Tile out = allocateResult(op.getResult());
  Tile contiguous;
  contiguous.shape = in.shape;
  contiguous.strides = getContiguousStrides(in.shape);
  // Runs lie in one group: the width divides the group size.
  int64_t width =
      getRunWidth(out.shape, {in.getStorageType(), out.getStorageType()}, size);
  emitter.forEachRun(out.shape, width, [&](ValueRange c) {
    Value linear = emitter.linearize(contiguous, c);
    Value group = arith::DivUIOp::create(b, loc, linear, emitter.index(size));
    Value factor = emitter.load(scale, ValueRange{group});
    SmallVector<Value, 8> results;
    for (Value x : emitter.loadVector(in, c, width))
      results.push_back(arith::MulFOp::create(b, loc, x, factor));
    emitter.storeVector(out, c, results);
  });
}

void GraphDefLowering::initAccumulator(block::ForloopAccumOp op) {
  Tile acc = emitter.allocateShared(getShape(op.getResult()),
                                    emitter.getBuilder().getF32Type());
  accumulators[op] = acc;
  // In the loop, a running maximum is read as the maximum so far.
  if (schedule.runningMaxima.contains(op)) {
    tiles[op.getResult()] = acc;
    runningFactors[op] =
        emitter.allocateShared(acc.shape, emitter.getBuilder().getF32Type());
  }
  // Lane partials: one f32 slot per thread, each zeroed by the thread that
  // adds to it.
  if (schedule.lanePartials.contains(op)) {
    Tile slots = emitter.allocateShared({emitter.getNumThreads()},
                                        emitter.getBuilder().getF32Type());
    lanePartialSlots[op] = slots;
    emitter.forEachElement(
        slots.shape,
        [&](ValueRange c) { emitter.store(slots, c, emitter.f32(0.0)); },
        /*synchronize=*/false);
  }
  double init = op.getKind() == block::AccumKind::Max
                    ? -std::numeric_limits<double>::infinity()
                    : 0.0;
  int64_t width = getRunWidth(acc.shape, acc.getStorageType());
  emitter.forEachRun(acc.shape, width, [&](ValueRange c) {
    emitter.storeVector(acc, c,
                        SmallVector<Value, 8>(width, emitter.f32(init)));
  });
}

void GraphDefLowering::accumulateRunningMax(block::ForloopAccumOp op) {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  const Tile &in = tiles[op.getInput()];
  const Tile &acc = accumulators[op];
  const Tile &factors = runningFactors[op];
  emitter.forEachElement(acc.shape, [&](ValueRange c) {
    Value old = emitter.load(acc, c);
    Value max = arith::MaximumFOp::create(b, loc, old, emitter.load(in, c));
    emitter.store(acc, c, max);
    emitter.store(factors, c, emitExpOfDifference(b, loc, old, max));
  });
  emitter.barrier();
  // The factor of a row of a sum, given the row's coordinates (the sum's
  // but the last): the maximum's tile has a last dimension of 1.
  auto factorOf = [&](ValueRange row) {
    SmallVector<Value, 4> c(row);
    c.push_back(emitter.index(0));
    return emitter.load(factors, c);
  };
  for (Operation *sum : schedule.runningMaxima.lookup(op)) {
    if (auto found = registerSums.find(sum); found != registerSums.end()) {
      const RegisterSum &plan = schedule.registerSums.lookup(sum);
      MutableArrayRef<Value> state = MutableArrayRef(registers).slice(
          plan.firstRegister, plan.numRegisters);
      SmallVector<Value> scaled = found->second->scaleRows(
          emitter, state, [&](ValueRange batch, Value row) {
            SmallVector<Value, 4> c(batch);
            c.push_back(row);
            return factorOf(c);
          });
      llvm::copy(scaled, state.begin());
      continue;
    }
    const Tile &state = accumulators[sum];
    emitter.forEachElement(state.shape, [&](ValueRange c) {
      emitter.store(state, c,
                    arith::MulFOp::create(b, loc, emitter.load(state, c),
                                          factorOf(c.drop_back())));
    });
  }
  emitter.barrier();
}

void GraphDefLowering::accumulate(block::ForloopAccumOp op) {
  if (schedule.runningMaxima.contains(op))
    return accumulateRunningMax(op);
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Tile in = tiles[op.getInput()];
  Tile acc = accumulators[op];
  size_t last = in.shape.size() - 1;
  block::AccumKind kind = op.getKind();
  auto combine = [&](Value previous, Value step) -> Value {
    if (kind == block::AccumKind::Max)
      return arith::MaximumFOp::create(b, loc, previous, step);
    return arith::AddFOp::create(b, loc, previous, step);
  };
  if (kind == block::AccumKind::Sum || kind == block::AccumKind::Max) {
    int64_t width =
        getRunWidth(acc.shape, {acc.getStorageType(), in.getStorageType()});
    emitter.forEachRun(acc.shape, width, [&](ValueRange c) {
      SmallVector<Value, 8> next;
      for (auto [previous, step] : llvm::zip(emitter.loadVector(acc, c, width),
                                             emitter.loadVector(in, c, width)))
        next.push_back(combine(previous, step));
      emitter.storeVector(acc, c, next);
    });
    return;
  }
  auto square = [&](SmallVector<Value, 8> values) {
    if (kind == block::AccumKind::RmsLast)
      for (Value &x : values)
        x = arith::MulFOp::create(b, loc, x, x);
    return values;
  };
  if (auto found = schedule.lanePartials.find(op);
      found != schedule.lanePartials.end())
    return accumulateLanePartials(op, found->second, square);
  // The strided reduction of the last dimension down to `size` (1 for the
  // sum_last kinds), squares first for rms_last, its terms split over the
  // threads like any sum.
  int64_t size = kind == block::AccumKind::SumLastTo ? *op.getSize() : 1;
  int64_t terms = in.shape[last] / size;
  int64_t termRun = size == 1 ? getTermRun(in, terms) : 1;
  emitSums(
      acc.shape, terms, 1,
      [&](ValueRange c, Value k) -> SmallVector<Value, 8> {
        SmallVector<Value, 4> ic(c);
        ic[last] = addScaled(c[last], k, size);
        return square(emitter.loadVector(in, ic, termRun));
      },
      [&](ValueRange c, ValueRange sums) {
        emitter.store(acc, c, combine(emitter.load(acc, c), sums[0]));
      },
      termRun);
}

void GraphDefLowering::accumulateLanePartials(
    block::ForloopAccumOp op, const LanePartials &plan,
    function_ref<SmallVector<Value, 8>(SmallVector<Value, 8>)> square) {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  const Tile &in = tiles[op.getInput()];
  const Tile &slots = lanePartialSlots[op];
  int64_t last = int64_t(in.shape.size()) - 1;
  int64_t runs = in.shape[last] / plan.termRun;
  assert(getTermRun(in, in.shape[last]) == plan.termRun &&
         runs % plan.lanes == 0 && "lane partials planned for another layout");
  // (result, lane) pairs, lane fastest: the lanes of a result read
  // consecutive runs of its row. Pair p is thread p's, as its slot is.
  Tile pairs;
  pairs.shape.assign(getShape(op.getResult()).begin(),
                     getShape(op.getResult()).end());
  pairs.shape.back() = plan.lanes;
  pairs.strides = getContiguousStrides(pairs.shape);
  emitter.forEachElement(
      pairs.shape,
      [&](ValueRange c) {
        Value lane = c.back();
        SmallVector<Value, 8> sums = emitter.sequentialSum(
            runs / plan.lanes, plan.termRun, [&](Value i) {
              SmallVector<Value, 4> ic(c);
              Value run = arith::AddIOp::create(
                  b, loc,
                  arith::MulIOp::create(b, loc, i, emitter.index(plan.lanes)),
                  lane);
              ic.back() = arith::MulIOp::create(b, loc, run,
                                                emitter.index(plan.termRun));
              return square(emitter.loadVector(in, ic, plan.termRun));
            });
        Value slot = emitter.linearize(pairs, c);
        emitter.store(slots, slot,
                      arith::AddFOp::create(b, loc, emitter.load(slots, slot),
                                            emitter.addPairwise(sums)));
      },
      // A pipeline's barrier opens every iteration; without one, the next
      // iteration's tiles must wait for this step's reads.
      /*synchronize=*/schedule.stages == 0);
}

void GraphDefLowering::finishAccumulator(block::ForloopAccumOp op) {
  if (const RegisterChain *chain = schedule.getChain(op)) {
    Operation *second = schedule.getReader(chain->first);
    ValueRange chainRegisters =
        ArrayRef(registers).slice(chain->firstRegister, chain->numRegisters);
    const ChainedMatmulSum &sum = *registerChains.find(second)->second;
    Tile &out = allocateResult(op.getResult());
    // The running maximum comes first in the body: its shift reads it.
    if (op == chain->runningMax) {
      sum.finishMaxima(emitter, chainRegisters, out);
      return;
    }
    block::ForloopAccumOp runningMax = chain->runningMax;
    const Tile *maxima = runningMax ? &tiles[runningMax.getResult()] : nullptr;
    if (op.getInput() == second->getResult(0))
      sum.finishProduct(emitter, chainRegisters, out, maxima);
    else
      sum.finishRowSums(emitter, chainRegisters, out, maxima);
    return;
  }
  if (auto found = registerSums.find(op); found != registerSums.end()) {
    const RegisterSum &plan = schedule.registerSums.lookup(op);
    found->second->finish(
        emitter,
        ArrayRef(registers).slice(plan.firstRegister, plan.numRegisters),
        allocateResult(op.getResult()));
    return;
  }
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Tile acc = accumulators[op];
  if (auto found = schedule.lanePartials.find(op);
      found != schedule.lanePartials.end()) {
    // Once every thread's last step is in: each result's slots, added
    // pairwise (their loads in flight together, log2(lanes) adds deep).
    emitter.barrier();
    int64_t lanes = found->second.lanes;
    const Tile &slots = lanePartialSlots[op];
    emitter.forEachElement(acc.shape, [&](ValueRange c) {
      Value first = arith::MulIOp::create(b, loc, emitter.linearize(acc, c),
                                          emitter.index(lanes));
      SmallVector<Value> partials;
      for (int64_t lane = 0; lane < lanes; ++lane)
        partials.push_back(emitter.load(
            slots, arith::AddIOp::create(b, loc, first, emitter.index(lane))
                       .getResult()));
      emitter.store(acc, c,
                    arith::AddFOp::create(b, loc, emitter.load(acc, c),
                                          emitter.addPairwise(partials)));
    });
  }
  Type type = getElementType(op.getResult());
  // rms_last: sqrt(sum / (forloop * n) + eps); every kind: rounded to the
  // result's element type, in place.
  double count =
      double(graph.getForloop()) * double(getShape(op.getInput()).back());
  bool isRms = op.getKind() == block::AccumKind::RmsLast;
  double eps = op.getEps().convertToDouble();
  int64_t width = getRunWidth(acc.shape, acc.getStorageType());
  emitter.forEachRun(acc.shape, width, [&](ValueRange c) {
    SmallVector<Value, 8> values;
    for (Value value : emitter.loadVector(acc, c, width)) {
      if (isRms) {
        value = emitDivide(b, loc, value, emitter.f32(count));
        if (eps != 0.0)
          value = arith::AddFOp::create(b, loc, value, emitter.f32(eps));
        value = math::SqrtOp::create(b, loc, value);
      }
      values.push_back(value);
    }
    emitter.storeVector(acc, c, emitter.roundTo(values, type));
  });
  tiles[op.getResult()] = acc;
}

void lowering::populateReductionLowerings(BlockLowerings &lowerings) {
  lowerings.add<block::ReductionOp, block::ReductionMaxOp>(
      [](GraphDefLowering &l, Operation *op) {
        l.lowerReduction(op);
        return success();
      });
  lowerings.add<block::RmsNormOp>([](GraphDefLowering &l, Operation *op) {
    l.lowerRmsNorm(cast<block::RmsNormOp>(op));
    return success();
  });
}
