// Benchmark qknorm_gqa_bs8: GQA batch 8 shapes, Q-norm/V-norm attention (f16).
//   Qn = rms_norm(Q, 64), Vn = rms_norm(V, 64)
//   E = exp(matmul(Qn, K));  O = matmul(div(E, reduction(E, dim 2)), Vn)
// Q (16,256,64), K (16,64,4096), V (16,4096,64) -> O (16,256,64).
// Softmax is exp / sum(exp), no scaling and no max-subtraction (as in the paper).

// CHECK-LABEL: func.func @qknorm_gqa_bs8
// CHECK-SAME: (%{{.*}}: tensor<16x256x64xf16>, %{{.*}}: tensor<16x64x4096xf16>, %{{.*}}: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16>
func.func @qknorm_gqa_bs8(%Q: tensor<16x256x64xf16>, %K: tensor<16x64x4096xf16>, %V: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  // CHECK: %[[QN:.*]] = mirage_kernel.rms_norm %{{.*}} size 64 : tensor<16x256x64xf16>
  %Qn = mirage_kernel.rms_norm %Q size 64 : tensor<16x256x64xf16>
  // CHECK: %[[VN:.*]] = mirage_kernel.rms_norm %{{.*}} size 64 : tensor<16x4096x64xf16>
  %Vn = mirage_kernel.rms_norm %V size 64 : tensor<16x4096x64xf16>
  // CHECK: %[[S:.*]] = mirage_kernel.matmul %[[QN]], %{{.*}} : tensor<16x256x64xf16>, tensor<16x64x4096xf16> -> tensor<16x256x4096xf16>
  %S = mirage_kernel.matmul %Qn, %K : tensor<16x256x64xf16>, tensor<16x64x4096xf16> -> tensor<16x256x4096xf16>
  // CHECK: %[[E:.*]] = mirage_kernel.exp %[[S]] : tensor<16x256x4096xf16>
  %E = mirage_kernel.exp %S : tensor<16x256x4096xf16>
  // CHECK: %[[R:.*]] = mirage_kernel.reduction %[[E]] dim 2 : tensor<16x256x4096xf16> -> tensor<16x256x1xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<16x256x4096xf16> -> tensor<16x256x1xf16>
  // CHECK: %[[P:.*]] = mirage_kernel.div %[[E]], %[[R]] : tensor<16x256x4096xf16>, tensor<16x256x1xf16> -> tensor<16x256x4096xf16>
  %P = mirage_kernel.div %E, %R : tensor<16x256x4096xf16>, tensor<16x256x1xf16> -> tensor<16x256x4096xf16>
  // CHECK: %[[O:.*]] = mirage_kernel.matmul %[[P]], %[[VN]] : tensor<16x256x4096xf16>, tensor<16x4096x64xf16> -> tensor<16x256x64xf16>
  %O = mirage_kernel.matmul %P, %Vn : tensor<16x256x4096xf16>, tensor<16x4096x64xf16> -> tensor<16x256x64xf16>
  // CHECK: return %[[O]] : tensor<16x256x64xf16>
  return %O : tensor<16x256x64xf16>
}
