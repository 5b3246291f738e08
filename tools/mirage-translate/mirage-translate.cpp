//===- mirage-translate.cpp - Mirage import/export driver -----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mlir-translate with the Mirage translations: the public implementation's
// µGraph JSON, imported and exported, and Triton Python modules. Bundles, which
// are directories, are written by mirage-bundle.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Support/LargeStack.h"
#include "Mirage/Target/MirageJSON.h"
#include "Mirage/Target/Triton.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::mirage::registerMirageJSONTranslations();
  mlir::mirage::registerTritonTranslation();
  return mlir::mirage::runWithLargeStack([&] {
    return mlir::failed(
        mlir::mlirTranslateMain(argc, argv, "Mirage translation driver\n"));
  });
}
