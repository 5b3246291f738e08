//===- mirage-translate.cpp - Mirage import/export driver -----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mlir-translate with the Mirage translations: the public implementation's
// µGraph JSON (import and export), and `--mirage-to-bundle`, which writes a
// directory and so has its own driver (lib/Target/Bundle/BundleMain.cpp).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Support/LargeStack.h"
#include "Mirage/Target/Bundle.h"
#include "Mirage/Target/MirageJSON.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/StringRef.h"

int main(int argc, char **argv) {
  bool toBundle = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    toBundle |= arg == "--mirage-to-bundle" || arg == "-mirage-to-bundle";
  }
  if (toBundle)
    return mlir::mirage::runWithLargeStack(
        [&] { return mlir::mirage::runBundleMain(argc, argv); });

  mlir::mirage::registerMirageJSONTranslations();
  return mlir::mirage::runWithLargeStack([&] {
    return mlir::failed(
        mlir::mlirTranslateMain(argc, argv, "Mirage translation driver\n"));
  });
}
