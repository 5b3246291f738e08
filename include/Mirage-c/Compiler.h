/*===-- Mirage-c/Compiler.h - The compiler as one C library -------*- C -*-===*\
|*                                                                            *|
|* Part of the Mirage-MLIR project, under the Apache License v2.0.            *|
|* SPDX-License-Identifier: Apache-2.0                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The compiler behind a string interface, for hosts that load one shared
 * library and call C (Python's `mirage.compiler` through ctypes, which
 * works with any Python version): MLIR text in, MLIR text or a bundle
 * directory out, every diagnostic as text. Each call has a context of its
 * own and runs on a thread with a large stack (the search and the verifier
 * recurse); calls may run on several threads at once.
 *
 * Example:
 *   MirageCompilerResult r = mirageCompilerRunPipeline(
 *       text, "program.mlir", "mirage-superoptimize{time-limit=30}");
 *   if (r.succeeded) puts(r.output); else fputs(r.diagnostics, stderr);
 *   mirageCompilerResultDestroy(&r);
 */

#ifndef MIRAGE_C_COMPILER_H
#define MIRAGE_C_COMPILER_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What one call produced: whether it succeeded, its output (the printed
/// module; empty for a bundle or on failure) and its diagnostics (errors,
/// warnings and remarks, one per line as `name:line:col: kind: message`).
/// Both strings are NUL-terminated and owned by the result.
typedef struct MirageCompilerResult {
  int succeeded;
  char *output;
  char *diagnostics;
} MirageCompilerResult;

/// The compiler's version, as tuning databases record it ("0.6.0+g...").
MLIR_CAPI_EXPORTED const char *mirageCompilerVersion(void);

/// Parses `source` (MLIR; `name` names it in diagnostics), verifies it, runs
/// `pipeline` on the module (a textual pass pipeline such as
/// "mirage-superoptimize{time-limit=30}"; empty: none) and prints the result.
MLIR_CAPI_EXPORTED MirageCompilerResult mirageCompilerRunPipeline(
    const char *source, const char *name, const char *pipeline);

/// Parses `source` and writes the bundle of its functions that hold Mirage
/// kernel ops into `directory` (created if needed), for the chips of the
/// comma-separated `chips` ("sm_80,sm_90a"; empty: every chip the program
/// can run on), as `mirage-bundle` does.
MLIR_CAPI_EXPORTED MirageCompilerResult
mirageCompilerWriteBundle(const char *source, const char *name,
                          const char *directory, const char *chips);

/// Parses `source` and describes its function `function` (empty: the only
/// one) as the JSON of the program it computes: its values (shape and
/// dtype), inputs, outputs and ops, the form bundles record in plan.json
/// (docs/Runtime.md).
MLIR_CAPI_EXPORTED MirageCompilerResult mirageCompilerDescribeFunction(
    const char *source, const char *name, const char *function);

/// Imports a µGraph file of the public Mirage implementation (`source`, its
/// JSON) as MLIR: graph `i` becomes `func.func @<prefix>_<i>`.
MLIR_CAPI_EXPORTED MirageCompilerResult mirageCompilerImportMirageJSON(
    const char *source, const char *name, const char *prefix);

/// Parses `source` and writes its kernel-graph functions as a µGraph file
/// of the public Mirage implementation (JSON), one graph per function.
MLIR_CAPI_EXPORTED MirageCompilerResult
mirageCompilerExportMirageJSON(const char *source, const char *name);

/// Parses `source` and writes it as one Triton Python module (a
/// `@triton.jit` kernel per graph_def and a host function per function), as
/// `mirage-translate --mirage-to-triton` does (docs/Triton.md).
MLIR_CAPI_EXPORTED MirageCompilerResult
mirageCompilerTranslateToTriton(const char *source, const char *name);

/// mirageCompilerTranslateToTriton, leaving out with a warning each function
/// the Triton backend does not support (listed in a comment of the module),
/// as `mirage-translate --mirage-to-triton --triton-skip-unsupported` does.
MLIR_CAPI_EXPORTED MirageCompilerResult
mirageCompilerTranslateSupportedToTriton(const char *source, const char *name);

/// Frees the strings of `result` and clears it.
MLIR_CAPI_EXPORTED void
mirageCompilerResultDestroy(MirageCompilerResult *result);

#ifdef __cplusplus
}
#endif

#endif // MIRAGE_C_COMPILER_H
