// Block sizes are automatic (threads=0, the default). A body without a
// matmul gets enough threads for 8 elements of its largest tile each, from
// 128 up to 1024: a row softmax whose blocks hold one 1x8192 row gets 1024,
// two rows (2x8192) too, and 1x2048 rows get 256. A body with a matmul
// gets 128, and each such candidate is followed by its variant at 256
// threads for the tuner to measure. threads=N fixes every block at N and
// adds no such variants. On sm_90a (the default chip) a candidate whose
// staged tiles TMA copies (the 4-iteration GEMVs: their 16x256 and 256x32
// tiles fit TMA boxes; the 2-iteration ones' 512 rows do not) is followed
// by its cp.async variant, marked async_copies.
// RUN: mirage-opt %s --split-input-file --mirage-superoptimize='time-limit=20 emit-candidates=true max-candidates=2 extra-tilings=0' 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: mirage-opt %s --split-input-file --mirage-superoptimize='time-limit=20 emit-candidates=true max-candidates=2 extra-tilings=0 threads=64' 2>&1 | FileCheck %s --check-prefix=FIXED

// AUTO-LABEL: func.func @softmax_candidate_0
// AUTO: grid [4, 1, 1] block [1024, 1, 1]
// AUTO-LABEL: func.func @softmax_candidate_1
// AUTO: grid [2, 1, 1] block [1024, 1, 1]
// AUTO-NOT: candidate_2
// FIXED-LABEL: func.func @softmax_candidate_0
// FIXED: block [64, 1, 1]
// FIXED-LABEL: func.func @softmax_candidate_1
// FIXED: block [64, 1, 1]
func.func @softmax(%S: tensor<4x8192xf16>) -> tensor<4x8192xf16> {
  %E = mirage_kernel.exp %S : tensor<4x8192xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<4x8192xf16> -> tensor<4x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<4x8192xf16>, tensor<4x1xf16> -> tensor<4x8192xf16>
  return %P : tensor<4x8192xf16>
}

// -----

// AUTO-LABEL: func.func @short_rows_candidate_0
// AUTO: block [256, 1, 1]
func.func @short_rows(%S: tensor<4x2048xf16>) -> tensor<4x2048xf16> {
  %E = mirage_kernel.exp %S : tensor<4x2048xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<4x2048xf16> -> tensor<4x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<4x2048xf16>, tensor<4x1xf16> -> tensor<4x2048xf16>
  return %P : tensor<4x2048xf16>
}

// -----

// AUTO-LABEL: func.func @gemv_candidate_0
// AUTO: block [128, 1, 1] forloop 2 {
// AUTO-LABEL: func.func @gemv_candidate_1
// AUTO: block [256, 1, 1] forloop 2 {
// AUTO-LABEL: func.func @gemv_candidate_2
// AUTO: block [128, 1, 1] forloop 4 {
// AUTO-LABEL: func.func @gemv_candidate_3
// AUTO: block [128, 1, 1] forloop 4 async_copies {
// AUTO-LABEL: func.func @gemv_candidate_4
// AUTO: block [256, 1, 1] forloop 4 {
// AUTO-LABEL: func.func @gemv_candidate_5
// AUTO: block [256, 1, 1] forloop 4 async_copies {
// AUTO-NOT: candidate_6
// FIXED-LABEL: func.func @gemv_candidate_0
// FIXED: block [64, 1, 1] forloop 2 {
// FIXED-LABEL: func.func @gemv_candidate_1
// FIXED: block [64, 1, 1] forloop 4 {
// FIXED-LABEL: func.func @gemv_candidate_2
// FIXED: block [64, 1, 1] forloop 4 async_copies {
// FIXED-NOT: candidate_3
func.func @gemv(%X: tensor<16x1024xf16>, %W: tensor<1024x2048xf16>) -> tensor<16x2048xf16> {
  %Y = mirage_kernel.matmul %X, %W : tensor<16x1024xf16>, tensor<1024x2048xf16> -> tensor<16x2048xf16>
  return %Y : tensor<16x2048xf16>
}
