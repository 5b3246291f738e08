// Benchmark gqa_bs1: grouped-query (GQA), batch 1, attention (f16).
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
// Q (2,256,64), K (2,64,4096), V (2,4096,64) -> O (2,256,64).
// Softmax is exp / sum(exp), no scaling and no max-subtraction (as in the paper).

// CHECK-LABEL: func.func @gqa_bs1
// CHECK-SAME: (%{{.*}}: tensor<2x256x64xf16>, %{{.*}}: tensor<2x64x4096xf16>, %{{.*}}: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16>
func.func @gqa_bs1(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  // CHECK: %[[S:.*]] = mirage_kernel.matmul %{{.*}}, %{{.*}} : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
  %S = mirage_kernel.matmul %Q, %K : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
  // CHECK: %[[E:.*]] = mirage_kernel.exp %[[S]] : tensor<2x256x4096xf16>
  %E = mirage_kernel.exp %S : tensor<2x256x4096xf16>
  // CHECK: %[[R:.*]] = mirage_kernel.reduction %[[E]] dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  // CHECK: %[[P:.*]] = mirage_kernel.div %[[E]], %[[R]] : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
  %P = mirage_kernel.div %E, %R : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
  // CHECK: %[[O:.*]] = mirage_kernel.matmul %[[P]], %{{.*}} : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
  // CHECK: return %[[O]] : tensor<2x256x64xf16>
  return %O : tensor<2x256x64xf16>
}
