// Benchmark mha_bs8: multi-head (MHA), batch 8, attention (f16).
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
// Q (256,16,64), K (256,64,4096), V (256,4096,64) -> O (256,16,64).
// Softmax is exp / sum(exp), no scaling and no max-subtraction (as in the paper).

// CHECK-LABEL: func.func @mha_bs8
// CHECK-SAME: (%{{.*}}: tensor<256x16x64xf16>, %{{.*}}: tensor<256x64x4096xf16>, %{{.*}}: tensor<256x4096x64xf16>) -> tensor<256x16x64xf16>
func.func @mha_bs8(%Q: tensor<256x16x64xf16>, %K: tensor<256x64x4096xf16>, %V: tensor<256x4096x64xf16>) -> tensor<256x16x64xf16> {
  // CHECK: %[[S:.*]] = mirage_kernel.matmul %{{.*}}, %{{.*}} : tensor<256x16x64xf16>, tensor<256x64x4096xf16> -> tensor<256x16x4096xf16>
  %S = mirage_kernel.matmul %Q, %K : tensor<256x16x64xf16>, tensor<256x64x4096xf16> -> tensor<256x16x4096xf16>
  // CHECK: %[[E:.*]] = mirage_kernel.exp %[[S]] : tensor<256x16x4096xf16>
  %E = mirage_kernel.exp %S : tensor<256x16x4096xf16>
  // CHECK: %[[R:.*]] = mirage_kernel.reduction %[[E]] dim 2 : tensor<256x16x4096xf16> -> tensor<256x16x1xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<256x16x4096xf16> -> tensor<256x16x1xf16>
  // CHECK: %[[P:.*]] = mirage_kernel.div %[[E]], %[[R]] : tensor<256x16x4096xf16>, tensor<256x16x1xf16> -> tensor<256x16x4096xf16>
  %P = mirage_kernel.div %E, %R : tensor<256x16x4096xf16>, tensor<256x16x1xf16> -> tensor<256x16x4096xf16>
  // CHECK: %[[O:.*]] = mirage_kernel.matmul %[[P]], %{{.*}} : tensor<256x16x4096xf16>, tensor<256x4096x64xf16> -> tensor<256x16x64xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<256x16x4096xf16>, tensor<256x4096x64xf16> -> tensor<256x16x64xf16>
  // CHECK: return %[[O]] : tensor<256x16x64xf16>
  return %O : tensor<256x16x64xf16>
}
