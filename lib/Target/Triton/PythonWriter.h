//===- PythonWriter.h - Indented Python source lines ------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_TARGET_TRITON_PYTHONWRITER_H
#define MIRAGE_LIB_TARGET_TRITON_PYTHONWRITER_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mirage::triton {

/// Writes Python source one line at a time, at the current indentation of
/// four spaces per level.
class PythonWriter {
public:
  explicit PythonWriter(llvm::raw_ostream &os) : os(os) {}

  /// Writes `text` as one line at the current indentation.
  void line(const llvm::Twine &text) { os.indent(4 * depth) << text << "\n"; }
  /// Writes an empty line.
  void blank() { os << "\n"; }
  /// Indents the lines that follow one level deeper.
  void indent() { ++depth; }
  /// Undoes one `indent`.
  void dedent() { --depth; }

private:
  llvm::raw_ostream &os;
  unsigned depth = 0;
};

} // namespace mlir::mirage::triton

#endif // MIRAGE_LIB_TARGET_TRITON_PYTHONWRITER_H
