// Split-KV attention whose for-loop walks each block's chunk of keys: grid y
// splits the key dimension of K and V, and the for-loop splits the same
// dimension of the tile (the hand-written gqa_splitkv µGraphs and the
// public implementation's saved ones take this form). The overrides pin it.
// RUN: mirage-opt %s --mirage-superoptimize='single-kernels=false forloop-ranges=4 grid-sizes=4 imaps=-1,-1,-1,2,-1,1 fmaps=-1,2,1' 2>&1 | FileCheck %s

// CHECK: remark: superoptimized: {{.*}} {{[1-9][0-9]*}} of {{[0-9]+}} verified
// CHECK-LABEL: func.func @attention
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: grid [1, 4, 1] block [128, 1, 1] forloop 4
// CHECK: input_loader %{{.*}} imap <y = 2> fmap 2 : tensor<1x8x256xf16> -> !mirage_block.stensor<1x8x16xf16>
// CHECK: input_loader %{{.*}} imap <y = 1> fmap 1 : tensor<1x256x8xf16> -> !mirage_block.stensor<1x16x8xf16>
// CHECK: forloop_accum
// CHECK: mirage_kernel.graph_def
// CHECK: div
func.func @attention(%q: tensor<1x16x8xf16>, %k: tensor<1x8x256xf16>, %v: tensor<1x256x8xf16>) -> tensor<1x16x8xf16> {
  %s = mirage_kernel.matmul %q, %k : tensor<1x16x8xf16>, tensor<1x8x256xf16> -> tensor<1x16x256xf16>
  %e = mirage_kernel.exp %s : tensor<1x16x256xf16>
  %r = mirage_kernel.reduction %e dim 2 : tensor<1x16x256xf16> -> tensor<1x16x1xf16>
  %d = mirage_kernel.div %e, %r : tensor<1x16x256xf16>, tensor<1x16x1xf16> -> tensor<1x16x256xf16>
  %o = mirage_kernel.matmul %d, %v : tensor<1x16x256xf16>, tensor<1x256x8xf16> -> tensor<1x16x8xf16>
  return %o : tensor<1x16x8xf16>
}
