//===- HostFloat.h - f16 and bf16 on the host -------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Conversions between float and the 16-bit formats, for host code that
// fills or reads bundle tensors (mirage-run). Rounding is to nearest, ties
// to even, as on the GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_HOSTFLOAT_H
#define MIRAGE_RUNTIME_HOSTFLOAT_H

#include <cstdint>

namespace mirage::runtime {

/// The IEEE binary16 bits nearest to `value` (overflow gives infinity).
uint16_t floatToHalf(float value);

/// The value of IEEE binary16 bits.
float halfToFloat(uint16_t bits);

/// The bfloat16 bits nearest to `value` (NaN stays NaN).
uint16_t floatToBFloat16(float value);

/// The value of bfloat16 bits.
float bfloat16ToFloat(uint16_t bits);

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_HOSTFLOAT_H
