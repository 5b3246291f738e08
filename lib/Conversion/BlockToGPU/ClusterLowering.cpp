//===- ClusterLowering.cpp - Cluster collectives --------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// cluster_reduce, cluster_reduce_scatter and cluster_gather read the peer
// blocks' shared tiles (distributed shared memory, `mapa`) between cluster
// barriers.
//
//===----------------------------------------------------------------------===//

#include "GraphDefLowering.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::lowering;

//===----------------------------------------------------------------------===//
// Cluster collectives
//===----------------------------------------------------------------------===//

void GraphDefLowering::lowerClusterCollective(Operation *op) {
  Value input = op->getOperand(0);
  // The dimension a gather concatenates or a reduce-scatter cuts (none for
  // cluster_reduce).
  auto scatter = dyn_cast<block::ClusterReduceScatterOp>(op);
  int64_t dim = scatter ? scatter.getDim() : -1;
  if (auto gather = dyn_cast<block::ClusterGatherOp>(op))
    dim = gather.getDim();
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  MLIRContext *ctx = b.getContext();
  // Peers read this block's tile from shared memory: copy a tile that is
  // still in global memory.
  Tile in = tiles[input];
  if (!in.isShared()) {
    Tile copy = emitter.allocateShared(in.shape, getElementType(input));
    emitter.forEachElement(
        in.shape,
        [&](ValueRange c) { emitter.store(copy, c, emitter.load(in, c)); },
        /*synchronize=*/false);
    in = copy;
  }
  ArrayRef<int32_t> cluster = *graph.getCluster();
  int64_t size = int64_t(cluster[0]) * cluster[1] * cluster[2];
  // Every block's tile is complete before any block reads it.
  auto clusterBarrier = [&] {
    NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/UnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/UnitAttr());
  };
  clusterBarrier();
  Type elementType = in.getStorageType();
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, 3);
  auto clusterPtr = LLVM::LLVMPointerType::get(ctx, 7);
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, in.buffer);
  Value local = LLVM::IntToPtrOp::create(
      b, loc, sharedPtr,
      arith::IndexCastOp::create(b, loc, b.getI64Type(), address).getResult());
  SmallVector<Value> peers;
  for (int64_t rank = 0; rank < size; ++rank)
    peers.push_back(NVVM::MapaOp::create(
        b, loc, clusterPtr, local,
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(rank))));
  auto loadPeer = [&](Value peer, ValueRange c) -> Value {
    Value position = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                                emitter.linearize(in, c));
    Value element = LLVM::GEPOp::create(b, loc, clusterPtr, elementType, peer,
                                        ValueRange{position});
    Value value = LLVM::LoadOp::create(b, loc, elementType, element);
    return elementType.isF32()
               ? value
               : arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  };
  Tile out = allocateResult(op->getResult(0));
  // A reduce-scatter keeps chunk `rank` of the sum: its element c is the sum
  // at c[dim] + rank * extent.
  Value chunkOffset;
  if (scatter) {
    Value rank = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        NVVM::ClusterId::create(b, loc, b.getI32Type()));
    chunkOffset =
        arith::MulIOp::create(b, loc, rank, emitter.index(out.shape[dim]));
  }
  emitter.forEachElement(
      out.shape,
      [&](ValueRange c) {
        if (dim < 0 || scatter) {
          SmallVector<Value, 4> ic(c);
          if (scatter)
            ic[dim] = arith::AddIOp::create(b, loc, c[dim], chunkOffset);
          // Sum in rank order, the same in every block.
          Value sum = loadPeer(peers[0], ic);
          for (Value peer : ArrayRef(peers).drop_front())
            sum = arith::AddFOp::create(b, loc, sum, loadPeer(peer, ic));
          emitter.store(out, c, sum);
          return;
        }
        // Element c comes from rank c[dim] / extent, at c[dim] % extent.
        int64_t extent = in.shape[dim];
        SmallVector<Value, 4> ic(c);
        Value rank =
            arith::DivUIOp::create(b, loc, c[dim], emitter.index(extent));
        ic[dim] = arith::RemUIOp::create(b, loc, c[dim], emitter.index(extent));
        Value value = loadPeer(peers[0], ic);
        for (int64_t r = 1; r < size; ++r) {
          Value isRank = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                               rank, emitter.index(r));
          // Read only the owning peer: the others' addresses are not loaded.
          auto branch = scf::IfOp::create(b, loc, b.getF32Type(), isRank, true);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(branch.thenBlock());
          scf::YieldOp::create(b, loc, loadPeer(peers[r], ic));
          b.setInsertionPointToStart(branch.elseBlock());
          scf::YieldOp::create(b, loc, value);
          value = branch.getResult(0);
        }
        emitter.store(out, c, value);
      },
      /*synchronize=*/false);
  // No block leaves or overwrites its tile while a peer may still read it.
  clusterBarrier();
}

void lowering::populateClusterLowerings(BlockLowerings &lowerings) {
  lowerings.add<block::ClusterReduceOp, block::ClusterReduceScatterOp,
                block::ClusterGatherOp>([](GraphDefLowering &l, Operation *op) {
    l.lowerClusterCollective(op);
    return success();
  });
}
