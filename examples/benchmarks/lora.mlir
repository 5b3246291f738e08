// Benchmark lora: linear layer with a low-rank (LoRA) adapter (f16).
//   O = add(matmul(X, W), matmul(matmul(X, A), B))
// X (16,256), W (256,4096), A (256,16), B (16,4096) -> O (16,4096).

// CHECK-LABEL: func.func @lora
// CHECK-SAME: (%{{.*}}: tensor<16x256xf16>, %{{.*}}: tensor<256x4096xf16>, %{{.*}}: tensor<256x16xf16>, %{{.*}}: tensor<16x4096xf16>) -> tensor<16x4096xf16>
func.func @lora(%X: tensor<16x256xf16>, %W: tensor<256x4096xf16>, %A: tensor<256x16xf16>, %B: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  // CHECK: %[[XW:.*]] = mirage_kernel.matmul %{{.*}}, %{{.*}} : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
  %XW = mirage_kernel.matmul %X, %W : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
  // CHECK: %[[XA:.*]] = mirage_kernel.matmul %{{.*}}, %{{.*}} : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
  %XA = mirage_kernel.matmul %X, %A : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
  // CHECK: %[[XAB:.*]] = mirage_kernel.matmul %[[XA]], %{{.*}} : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  %XAB = mirage_kernel.matmul %XA, %B : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  // CHECK: %[[O:.*]] = mirage_kernel.add %[[XW]], %[[XAB]] : tensor<16x4096xf16>
  %O = mirage_kernel.add %XW, %XAB : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  // CHECK: return %[[O]] : tensor<16x4096xf16>
  return %O : tensor<16x4096xf16>
}
