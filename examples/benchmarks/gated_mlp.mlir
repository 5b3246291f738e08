// Benchmark gated_mlp: gated MLP (SwiGLU-style, f16).
//   O = mul(silu(matmul(X, W1)), matmul(X, W2))
// X (8,4096), W1 (4096,4096), W2 (4096,4096) -> O (8,4096).

// CHECK-LABEL: func.func @gated_mlp
// CHECK-SAME: (%{{.*}}: tensor<8x4096xf16>, %{{.*}}: tensor<4096x4096xf16>, %{{.*}}: tensor<4096x4096xf16>) -> tensor<8x4096xf16>
func.func @gated_mlp(%X: tensor<8x4096xf16>, %W1: tensor<4096x4096xf16>, %W2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  // CHECK: %[[G:.*]] = mirage_kernel.matmul %{{.*}}, %{{.*}} : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %G = mirage_kernel.matmul %X, %W1 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  // CHECK: %[[A:.*]] = mirage_kernel.silu %[[G]] : tensor<8x4096xf16>
  %A = mirage_kernel.silu %G : tensor<8x4096xf16>
  // CHECK: %[[U:.*]] = mirage_kernel.matmul %{{.*}}, %{{.*}} : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %U = mirage_kernel.matmul %X, %W2 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  // CHECK: %[[O:.*]] = mirage_kernel.mul %[[A]], %[[U]] : tensor<8x4096xf16>
  %O = mirage_kernel.mul %A, %U : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  // CHECK: return %[[O]] : tensor<8x4096xf16>
  return %O : tensor<8x4096xf16>
}
