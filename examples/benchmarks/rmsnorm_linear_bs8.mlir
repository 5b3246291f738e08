// Benchmark rmsnorm_linear_bs8: RMSNorm + Linear, batch 8 (f16).
//   O = matmul(rms_norm(X, 4096), W)
// X (16,4096), W (4096,6144) -> O (16,6144). rms_norm has no weight and eps 0.

// CHECK-LABEL: func.func @rmsnorm_linear_bs8
// CHECK-SAME: (%{{.*}}: tensor<16x4096xf16>, %{{.*}}: tensor<4096x6144xf16>) -> tensor<16x6144xf16>
func.func @rmsnorm_linear_bs8(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  // CHECK: %[[N:.*]] = mirage_kernel.rms_norm %{{.*}} size 4096 : tensor<16x4096xf16>
  %N = mirage_kernel.rms_norm %X size 4096 : tensor<16x4096xf16>
  // CHECK: %[[O:.*]] = mirage_kernel.matmul %[[N]], %{{.*}} : tensor<16x4096xf16>, tensor<4096x6144xf16> -> tensor<16x6144xf16>
  %O = mirage_kernel.matmul %N, %W : tensor<16x4096xf16>, tensor<4096x6144xf16> -> tensor<16x6144xf16>
  // CHECK: return %[[O]] : tensor<16x6144xf16>
  return %O : tensor<16x6144xf16>
}
