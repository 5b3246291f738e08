// Benchmark mqa_bs8: multi-query (MQA), batch 8, attention (f16).
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
// Q (8,1024,64), K (8,64,4096), V (8,4096,64) -> O (8,1024,64).
// Softmax is exp / sum(exp), no scaling and no max-subtraction (as in the paper).

// CHECK-LABEL: func.func @mqa_bs8
// CHECK-SAME: (%{{.*}}: tensor<8x1024x64xf16>, %{{.*}}: tensor<8x64x4096xf16>, %{{.*}}: tensor<8x4096x64xf16>) -> tensor<8x1024x64xf16>
func.func @mqa_bs8(%Q: tensor<8x1024x64xf16>, %K: tensor<8x64x4096xf16>, %V: tensor<8x4096x64xf16>) -> tensor<8x1024x64xf16> {
  // CHECK: %[[S:.*]] = mirage_kernel.matmul %{{.*}}, %{{.*}} : tensor<8x1024x64xf16>, tensor<8x64x4096xf16> -> tensor<8x1024x4096xf16>
  %S = mirage_kernel.matmul %Q, %K : tensor<8x1024x64xf16>, tensor<8x64x4096xf16> -> tensor<8x1024x4096xf16>
  // CHECK: %[[E:.*]] = mirage_kernel.exp %[[S]] : tensor<8x1024x4096xf16>
  %E = mirage_kernel.exp %S : tensor<8x1024x4096xf16>
  // CHECK: %[[R:.*]] = mirage_kernel.reduction %[[E]] dim 2 : tensor<8x1024x4096xf16> -> tensor<8x1024x1xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<8x1024x4096xf16> -> tensor<8x1024x1xf16>
  // CHECK: %[[P:.*]] = mirage_kernel.div %[[E]], %[[R]] : tensor<8x1024x4096xf16>, tensor<8x1024x1xf16> -> tensor<8x1024x4096xf16>
  %P = mirage_kernel.div %E, %R : tensor<8x1024x4096xf16>, tensor<8x1024x1xf16> -> tensor<8x1024x4096xf16>
  // CHECK: %[[O:.*]] = mirage_kernel.matmul %[[P]], %{{.*}} : tensor<8x1024x4096xf16>, tensor<8x4096x64xf16> -> tensor<8x1024x64xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<8x1024x4096xf16>, tensor<8x4096x64xf16> -> tensor<8x1024x64xf16>
  // CHECK: return %[[O]] : tensor<8x1024x64xf16>
  return %O : tensor<8x1024x64xf16>
}
