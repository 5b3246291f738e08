// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s --mlir-print-op-generic | mirage-opt | FileCheck %s

// The fused RMSNorm + Linear block graph of the Mirage paper: the matmul and
// the RMS accumulate in one for-loop; the division runs after it.
// CHECK-LABEL: func.func @rmsnorm_linear
func.func @rmsnorm_linear(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  // CHECK: mirage_kernel.graph_def
  // CHECK-SAME: grid [256, 1, 1] block [128, 1, 1] forloop 32 {
  // CHECK: %[[X:.*]] = input_loader %{{.*}} imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x128xf16>
  // CHECK: %[[W:.*]] = input_loader %{{.*}} imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<128x24xf16>
  // CHECK: %[[MM:.*]] = matmul %[[X]], %[[W]]
  // CHECK: %[[ACC:.*]] = forloop_accum %[[MM]] sum :
  // CHECK: %[[RMS:.*]] = forloop_accum %[[X]] rms_last :
  // CHECK: %[[Y:.*]] = div %[[ACC]], %[[RMS]]
  // CHECK: %[[O:.*]] = output_saver %[[Y]] omap <x = 1>
  // CHECK: yield %[[O]] : tensor<2x6144xf16>
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x4096xf16>, %W = %w : tensor<4096x6144xf16>)
      -> tensor<2x6144xf16> grid [256, 1, 1] block [128, 1, 1] forloop 32 {
    %xt = input_loader %X imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x128xf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<128x24xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x128xf16>, !mirage_block.stensor<128x24xf16> -> !mirage_block.stensor<2x24xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x24xf16> -> !mirage_block.stensor<2x24xf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<2x128xf16> -> !mirage_block.stensor<2x1xf16>
    %y = div %acc, %rms : !mirage_block.stensor<2x24xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x24xf16>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<2x24xf16> -> tensor<2x6144xf16>
    yield %out : tensor<2x6144xf16>
  }
  return %o : tensor<2x6144xf16>
}

// Every compute op and accumulator kind, on tiles.
// CHECK-LABEL: func.func @all_block_ops
func.func @all_block_ops(%a: tensor<16x256xf32>, %b: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x256xf32>, %B = %b : tensor<256x64xf32>)
      -> tensor<16x64xf32> grid [1, 1, 1] block [256, 1, 1] forloop 4 {
    // CHECK: input_loader %{{.*}} imap <> fmap 1
    %at = input_loader %A imap <> fmap 1 : tensor<16x256xf32> -> !mirage_block.stensor<16x64xf32>
    // CHECK: input_loader %{{.*}} imap <> fmap 0
    %bt = input_loader %B imap <> fmap 0 : tensor<256x64xf32> -> !mirage_block.stensor<64x64xf32>
    // CHECK: exp
    %e = exp %at : !mirage_block.stensor<16x64xf32>
    // CHECK: square
    %sq = square %e : !mirage_block.stensor<16x64xf32>
    // CHECK: sqrt
    %sr = sqrt %sq : !mirage_block.stensor<16x64xf32>
    // CHECK: rsqrt
    %rs = rsqrt %sr : !mirage_block.stensor<16x64xf32>
    // CHECK: silu
    %si = silu %rs : !mirage_block.stensor<16x64xf32>
    // CHECK: gelu
    %ge = gelu %si : !mirage_block.stensor<16x64xf32>
    // CHECK: relu
    %re = relu %ge : !mirage_block.stensor<16x64xf32>
    // CHECK: neg
    %ne = neg %re : !mirage_block.stensor<16x64xf32>
    // CHECK: mul_scalar %{{.*}} by 5.000000e-01
    %ms = mul_scalar %ne by 0.5 : !mirage_block.stensor<16x64xf32>
    // CHECK: reduction %{{.*}} dim 1 : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x1xf32>
    %rd = reduction %ms dim 1 : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x1xf32>
    // CHECK: reduction %{{.*}} dim 1 size 16
    %rp = reduction %ms dim 1 size 16 : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x16xf32>
    // CHECK: reduction_max %{{.*}} dim 1 : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x1xf32>
    %rm = reduction_max %ms dim 1 : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x1xf32>
    // CHECK: add
    %ad = add %ms, %rd : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x1xf32> -> !mirage_block.stensor<16x64xf32>
    // CHECK: sub
    %sb = sub %ad, %rd : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x1xf32> -> !mirage_block.stensor<16x64xf32>
    // CHECK: mul
    %mu = mul %sb, %sb : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    // CHECK: div
    %dv = div %mu, %rd : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x1xf32> -> !mirage_block.stensor<16x64xf32>
    // CHECK: pow
    %pw = pow %dv, %rd : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x1xf32> -> !mirage_block.stensor<16x64xf32>
    // CHECK: rms_norm %{{.*}} size 64 eps 9.99999974E-6
    %rn = rms_norm %pw size 64 eps 1.0e-5 : !mirage_block.stensor<16x64xf32>
    // CHECK: concat %{{.*}}, %{{.*}} dim 1
    %cc = concat %rp, %rp dim 1 : !mirage_block.stensor<16x16xf32>, !mirage_block.stensor<16x16xf32> -> !mirage_block.stensor<16x32xf32>
    // CHECK: matmul
    %mm = matmul %rn, %bt : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<64x64xf32> -> !mirage_block.stensor<16x64xf32>
    // CHECK: forloop_accum %{{.*}} sum :
    %s0 = forloop_accum %mm sum : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    // CHECK: forloop_accum %{{.*}} sum_last :
    %s1 = forloop_accum %mm sum_last : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x1xf32>
    // CHECK: forloop_accum %{{.*}} sum_last_to 16 :
    %s2 = forloop_accum %mm sum_last_to 16 : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x16xf32>
    // CHECK: forloop_accum %{{.*}} rms_last :
    %s3 = forloop_accum %cc rms_last : !mirage_block.stensor<16x32xf32> -> !mirage_block.stensor<16x1xf32>
    // CHECK: forloop_accum %{{.*}} rms_last eps 9.99999997E-7 :
    %s5 = forloop_accum %cc rms_last eps 1.0e-6 : !mirage_block.stensor<16x32xf32> -> !mirage_block.stensor<16x1xf32>
    // CHECK: forloop_accum %{{.*}} max :
    %s4 = forloop_accum %mm max : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %t0 = add %s0, %s1 : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x1xf32> -> !mirage_block.stensor<16x64xf32>
    %t1 = div %t0, %s3 : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x1xf32> -> !mirage_block.stensor<16x64xf32>
    %t2 = sub %t1, %s4 : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %t3 = reduction %s2 dim 1 : !mirage_block.stensor<16x16xf32> -> !mirage_block.stensor<16x1xf32>
    // CHECK: thread_graph %{{.*}}, %{{.*}} : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x1xf32> -> !mirage_block.stensor<16x64xf32> {
    // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
    // CHECK: yield %{{.*}} : f32
    %t4 = thread_graph %t2, %t3 : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x1xf32> -> !mirage_block.stensor<16x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %z = mul %p, %q : f32
      yield %z : f32
    }
    %out = output_saver %t4 omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}

// A loop-invariant load (no fmap) may be used both inside and after the loop.
// CHECK-LABEL: func.func @invariant_load
func.func @invariant_load(%a: tensor<8x64xf16>, %b: tensor<8x256xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x64xf16>, %B = %b : tensor<8x256xf16>)
      -> tensor<8x64xf16> grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %at = input_loader %A imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %bt = input_loader %B imap <> fmap 1 : tensor<8x256xf16> -> !mirage_block.stensor<8x64xf16>
    %in = mul %at, %bt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %acc = forloop_accum %in sum : !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    // CHECK: add
    %post = add %acc, %at : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %out = output_saver %post omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %out : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// A cluster of 4 blocks along x exchanges partial sums through distributed
// shared memory.
// CHECK-LABEL: func.func @cluster
func.func @cluster(%x: tensor<64x256xf32>) -> (tensor<64x64xf32>, tensor<64x256xf32>) {
  %o:2 = mirage_kernel.graph_def(%X = %x : tensor<64x256xf32>) -> (tensor<64x64xf32>, tensor<64x256xf32>)
      grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 1> : tensor<64x256xf32> -> !mirage_block.stensor<64x64xf32>
    // CHECK: cluster_reduce %{{.*}} : !mirage_block.stensor<64x64xf32>
    %s = cluster_reduce %t : !mirage_block.stensor<64x64xf32>
    // CHECK: cluster_gather %{{.*}} dim 1 : !mirage_block.stensor<64x64xf32> -> !mirage_block.stensor<64x256xf32>
    %g = cluster_gather %t dim 1 : !mirage_block.stensor<64x64xf32> -> !mirage_block.stensor<64x256xf32>
    %p = reduction %s dim 0 size 16 : !mirage_block.stensor<64x64xf32> -> !mirage_block.stensor<16x64xf32>
    %a = output_saver %p omap <x = 0> : !mirage_block.stensor<16x64xf32> -> tensor<64x64xf32>
    %gs = reduction %g dim 0 size 16 : !mirage_block.stensor<64x256xf32> -> !mirage_block.stensor<16x256xf32>
    %b = output_saver %gs omap <x = 0> : !mirage_block.stensor<16x256xf32> -> tensor<64x256xf32>
    yield %a, %b : tensor<64x64xf32>, tensor<64x256xf32>
  }
  return %o#0, %o#1 : tensor<64x64xf32>, tensor<64x256xf32>
}

// A cluster of 4 blocks along x sums its tiles and keeps one column chunk of
// the sum per block (a reduce-scatter), which block x saves as columns
// [16x, 16x+16).
// CHECK-LABEL: func.func @cluster_reduce_scatter
func.func @cluster_reduce_scatter(%x: tensor<64x256xf32>) -> tensor<64x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf32>) -> tensor<64x64xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 1> : tensor<64x256xf32> -> !mirage_block.stensor<64x64xf32>
    // CHECK: cluster_reduce_scatter %{{.*}} dim 1 : !mirage_block.stensor<64x64xf32> -> !mirage_block.stensor<64x16xf32>
    %s = cluster_reduce_scatter %t dim 1 : !mirage_block.stensor<64x64xf32> -> !mirage_block.stensor<64x16xf32>
    %a = output_saver %s omap <x = 1> : !mirage_block.stensor<64x16xf32> -> tensor<64x64xf32>
    yield %a : tensor<64x64xf32>
  }
  return %o : tensor<64x64xf32>
}

// Types and attributes on their own.
// CHECK-LABEL: func.func @types
// CHECK-SAME: !mirage_block.stensor<4x8x16xbf16>
// CHECK: test.attrs = [#mirage_block.map<>, #mirage_block.map<x = 1, z = 0>]
func.func @types(%t: !mirage_block.stensor<4x8x16xbf16>) attributes {test.attrs = [#mirage_block.map<>, #mirage_block.map<z = 0, x = 1, y = -1>]} {
  return
}
