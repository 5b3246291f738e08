// RUN: mirage-opt %s --split-input-file --mirage-kernel-expand-to-blocks | FileCheck %s

// A matmul's grid splits the larger of m and n first, so that the larger
// operand is read by fewer blocks.

// A GEMV-like matmul (16 rows, 6144 columns): every block takes all rows and
// its own columns; the weights are read once.
// CHECK-LABEL: func.func @wide
// CHECK: grid [256, 1, 1]
// CHECK-NEXT: input_loader %{{.*}} imap <> : tensor<16x4096xf16> -> !mirage_block.stensor<16x4096xf16>
// CHECK-NEXT: input_loader %{{.*}} imap <x = 1> : tensor<4096x6144xf16> -> !mirage_block.stensor<4096x24xf16>
func.func @wide(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %o = mirage_kernel.matmul %x, %w : tensor<16x4096xf16>, tensor<4096x6144xf16> -> tensor<16x6144xf16>
  return %o : tensor<16x6144xf16>
}

// -----

// A tall one (4096 rows, 16 columns): rows first, the small rhs replicated.
// CHECK-LABEL: func.func @tall
// CHECK: grid [256, 1, 1]
// CHECK-NEXT: input_loader %{{.*}} imap <x = 0> : tensor<4096x64xf16> -> !mirage_block.stensor<16x64xf16>
// CHECK-NEXT: input_loader %{{.*}} imap <> : tensor<64x16xf16> -> !mirage_block.stensor<64x16xf16>
func.func @tall(%x: tensor<4096x64xf16>, %w: tensor<64x16xf16>) -> tensor<4096x16xf16> {
  %o = mirage_kernel.matmul %x, %w : tensor<4096x64xf16>, tensor<64x16xf16> -> tensor<4096x16xf16>
  return %o : tensor<4096x16xf16>
}
