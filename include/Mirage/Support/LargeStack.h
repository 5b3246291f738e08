//===- LargeStack.h - Run a tool's main on a large stack --------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPPORT_LARGESTACK_H
#define MIRAGE_SUPPORT_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/thread.h"

#include <optional>

namespace mlir::mirage {

/// Runs `body` on a thread with a 512 MiB stack and returns its result.
/// MLIR's parser recurses once per nesting level of its input; on the
/// default 8 MiB stack about 10,000 nested brackets overflow it. With this
/// stack, inputs nested hundreds of thousands of levels deep get a
/// diagnostic instead.
inline int runWithLargeStack(llvm::function_ref<int()> body) {
  constexpr unsigned kStackSize = 512u << 20;
  int status = 0;
  llvm::thread worker(std::optional<unsigned>(kStackSize),
                      [&] { status = body(); });
  worker.join();
  return status;
}

} // namespace mlir::mirage

#endif // MIRAGE_SUPPORT_LARGESTACK_H
