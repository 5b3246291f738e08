//===- MatmulAccumulator.cpp - Matmul sums kept in registers --------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "MatmulAccumulator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mirage;

SmallVector<Value> mlir::mirage::emitItemOfRound(
    KernelEmitter &emitter, Value worker, int64_t workers, int64_t items,
    int64_t round, ValueRange fallback,
    function_ref<SmallVector<Value>(Value item)> body) {
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Value item = round == 0
                   ? worker
                   : arith::AddIOp::create(builder, loc, worker,
                                           emitter.index(round * workers))
                         .getResult();
  if ((round + 1) * workers <= items)
    return body(item);
  Value exists = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                       item, emitter.index(items));
  auto guarded = scf::IfOp::create(builder, loc, fallback.getTypes(), exists,
                                   /*withElseRegion=*/!fallback.empty());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(guarded.thenBlock());
  SmallVector<Value> values = body(item);
  if (fallback.empty())
    return {};
  scf::YieldOp::create(builder, loc, values);
  builder.setInsertionPointToStart(guarded.elseBlock());
  scf::YieldOp::create(builder, loc, fallback);
  return SmallVector<Value>(guarded.getResults());
}
