// Benchmark mha_bs1: multi-head (MHA), batch 1, attention (f16).
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
// Q (32,16,64), K (32,64,4096), V (32,4096,64) -> O (32,16,64).
// Softmax is exp / sum(exp), no scaling and no max-subtraction (as in the paper).

// CHECK-LABEL: func.func @mha_bs1
// CHECK-SAME: (%{{.*}}: tensor<32x16x64xf16>, %{{.*}}: tensor<32x64x4096xf16>, %{{.*}}: tensor<32x4096x64xf16>) -> tensor<32x16x64xf16>
func.func @mha_bs1(%Q: tensor<32x16x64xf16>, %K: tensor<32x64x4096xf16>, %V: tensor<32x4096x64xf16>) -> tensor<32x16x64xf16> {
  // CHECK: %[[S:.*]] = mirage_kernel.matmul %{{.*}}, %{{.*}} : tensor<32x16x64xf16>, tensor<32x64x4096xf16> -> tensor<32x16x4096xf16>
  %S = mirage_kernel.matmul %Q, %K : tensor<32x16x64xf16>, tensor<32x64x4096xf16> -> tensor<32x16x4096xf16>
  // CHECK: %[[E:.*]] = mirage_kernel.exp %[[S]] : tensor<32x16x4096xf16>
  %E = mirage_kernel.exp %S : tensor<32x16x4096xf16>
  // CHECK: %[[R:.*]] = mirage_kernel.reduction %[[E]] dim 2 : tensor<32x16x4096xf16> -> tensor<32x16x1xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<32x16x4096xf16> -> tensor<32x16x1xf16>
  // CHECK: %[[P:.*]] = mirage_kernel.div %[[E]], %[[R]] : tensor<32x16x4096xf16>, tensor<32x16x1xf16> -> tensor<32x16x4096xf16>
  %P = mirage_kernel.div %E, %R : tensor<32x16x4096xf16>, tensor<32x16x1xf16> -> tensor<32x16x4096xf16>
  // CHECK: %[[O:.*]] = mirage_kernel.matmul %[[P]], %{{.*}} : tensor<32x16x4096xf16>, tensor<32x4096x64xf16> -> tensor<32x16x64xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<32x16x4096xf16>, tensor<32x4096x64xf16> -> tensor<32x16x64xf16>
  // CHECK: return %[[O]] : tensor<32x16x64xf16>
  return %O : tensor<32x16x64xf16>
}
