//===- Dialects.cpp - C API for the Mirage dialects and passes ------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage-c/Dialects.h"

#include "Mirage/InitAllDialects.h"
#include "Mirage/InitAllPasses.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(MirageKernel, mirage_kernel,
                                      mlir::mirage::kernel::MirageKernelDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(MirageBlock, mirage_block,
                                      mlir::mirage::block::MirageBlockDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(MirageThread, mirage_thread,
                                      mlir::mirage::thread::MirageThreadDialect)

void mirageRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::mirage::registerAllDialects(*unwrap(registry));
}

void mirageRegisterAllPasses(void) { mlir::mirage::registerAllPasses(); }
