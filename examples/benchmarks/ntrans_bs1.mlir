// Benchmark ntrans_bs1: nTransformer (normalized Transformer) residual update, batch 1 (f16).
//   O = rms_norm(add(X, mul(alpha, add(rms_norm(H, 4096), X))), 4096)
// H, X, alpha (8,4096) -> O (8,4096). rms_norm has no weight and eps 0.

// CHECK-LABEL: func.func @ntrans_bs1
// CHECK-SAME: (%{{.*}}: tensor<8x4096xf16>, %{{.*}}: tensor<8x4096xf16>, %{{.*}}: tensor<8x4096xf16>) -> tensor<8x4096xf16>
func.func @ntrans_bs1(%H: tensor<8x4096xf16>, %X: tensor<8x4096xf16>, %alpha: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
  // CHECK: %[[HN:.*]] = mirage_kernel.rms_norm %{{.*}} size 4096 : tensor<8x4096xf16>
  %Hn = mirage_kernel.rms_norm %H size 4096 : tensor<8x4096xf16>
  // CHECK: %[[D:.*]] = mirage_kernel.add %[[HN]], %{{.*}} : tensor<8x4096xf16>
  %D = mirage_kernel.add %Hn, %X : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  // CHECK: %[[AD:.*]] = mirage_kernel.mul %{{.*}}, %[[D]] : tensor<8x4096xf16>
  %AD = mirage_kernel.mul %alpha, %D : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  // CHECK: %[[Y:.*]] = mirage_kernel.add %{{.*}}, %[[AD]] : tensor<8x4096xf16>
  %Y = mirage_kernel.add %X, %AD : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  // CHECK: %[[O:.*]] = mirage_kernel.rms_norm %[[Y]] size 4096 : tensor<8x4096xf16>
  %O = mirage_kernel.rms_norm %Y size 4096 : tensor<8x4096xf16>
  // CHECK: return %[[O]] : tensor<8x4096xf16>
  return %O : tensor<8x4096xf16>
}
