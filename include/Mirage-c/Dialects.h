/*===-- Mirage-c/Dialects.h - C API for the Mirage dialects -------*- C -*-===*\
|*                                                                            *|
|* Part of the Mirage-MLIR project, under the Apache License v2.0.            *|
|* SPDX-License-Identifier: Apache-2.0                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MIRAGE_C_DIALECTS_H
#define MIRAGE_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Handles of the three Mirage dialects (mlirGetDialectHandle__mirage_kernel__
/// and so on), for mlirDialectHandleInsertDialect or
/// mlirDialectHandleRegisterDialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(MirageKernel, mirage_kernel);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(MirageBlock, mirage_block);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(MirageThread, mirage_thread);

/// Adds the three Mirage dialects to `registry`.
MLIR_CAPI_EXPORTED void mirageRegisterAllDialects(MlirDialectRegistry registry);

/// Registers every Mirage pass and pipeline (mirage-import-pipeline,
/// mirage-superoptimize, ...) with the global registry, so that
/// mlirParsePassPipeline and mlirOpPassManagerAddPipeline know them.
MLIR_CAPI_EXPORTED void mirageRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // MIRAGE_C_DIALECTS_H
