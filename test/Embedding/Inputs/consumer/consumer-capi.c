/*===- consumer-capi.c - Mirage through the C API -------------------------===*\
|*                                                                            *|
|* Part of the Mirage-MLIR project, under the Apache License v2.0.            *|
|* SPDX-License-Identifier: Apache-2.0                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* Registers the Mirage dialects and passes through the C API, parses a TOSA
 * function, runs mirage-import-pipeline on it and prints the result. */

#include "Mirage-c/Dialects.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Tosa.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>

static const char *kProgram =
    "func.func @f(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> "
    "tensor<16x8xf32> {\n"
    "  %e = tosa.exp %x : (tensor<8x16xf32>) -> tensor<8x16xf32>\n"
    "  %a = tosa.add %e, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> "
    "tensor<8x16xf32>\n"
    "  %t = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<8x16xf32>) "
    "-> tensor<16x8xf32>\n"
    "  return %t : tensor<16x8xf32>\n"
    "}\n";

static void print(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

int main(void) {
  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mirageRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__func__(), registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__tosa__(), registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  mirageRegisterAllPasses();

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kProgram));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "error: cannot parse the program\n");
    return 1;
  }
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "builtin.module(mirage-import-pipeline{from=tosa})"),
      print, NULL);
  if (mlirLogicalResultIsFailure(parsed) ||
      mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "error: the pipeline failed\n");
    return 1;
  }
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return 0;
}
