//===- Tensor.h - Dense tensors of the semantics engines --------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_TENSOR_H
#define MIRAGE_SEMANTICS_TENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace mlir::mirage::sem {

/// Number of elements of a shape (1 for a scalar).
inline int64_t getNumElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// Row-major strides of a shape.
inline llvm::SmallVector<int64_t, 4> getStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// A dense, row-major tensor of values of some number system.
template <typename V> struct Tensor {
  llvm::SmallVector<int64_t, 4> shape;
  std::vector<V> data;

  Tensor() = default;
  explicit Tensor(llvm::ArrayRef<int64_t> shape, V fill = V())
      : shape(shape), data(getNumElements(shape), fill) {}

  int64_t size() const { return static_cast<int64_t>(data.size()); }
};

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_TENSOR_H
