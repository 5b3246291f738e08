// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s --mlir-print-op-generic | mirage-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%x: tensor<8x64xf16>, %r: tensor<8x1xf16>) -> tensor<8x64xf16> {
  // CHECK: mirage_kernel.exp %{{.*}} : tensor<8x64xf16>
  %0 = mirage_kernel.exp %x : tensor<8x64xf16>
  // CHECK: mirage_kernel.square
  %1 = mirage_kernel.square %0 : tensor<8x64xf16>
  // CHECK: mirage_kernel.sqrt
  %2 = mirage_kernel.sqrt %1 : tensor<8x64xf16>
  // CHECK: mirage_kernel.rsqrt
  %3 = mirage_kernel.rsqrt %2 : tensor<8x64xf16>
  // CHECK: mirage_kernel.silu
  %4 = mirage_kernel.silu %3 : tensor<8x64xf16>
  // CHECK: mirage_kernel.gelu
  %5 = mirage_kernel.gelu %4 : tensor<8x64xf16>
  // CHECK: mirage_kernel.relu
  %6 = mirage_kernel.relu %5 : tensor<8x64xf16>
  // CHECK: mirage_kernel.neg
  %7 = mirage_kernel.neg %6 : tensor<8x64xf16>
  // CHECK: mirage_kernel.mul_scalar %{{.*}} by 1.250000e-01 : tensor<8x64xf16>
  %8 = mirage_kernel.mul_scalar %7 by 0.125 : tensor<8x64xf16>
  // CHECK: mirage_kernel.add %{{.*}}, %{{.*}} : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  %9 = mirage_kernel.add %8, %r : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  // CHECK: mirage_kernel.sub %{{.*}}, %{{.*}} : tensor<8x1xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  %10 = mirage_kernel.sub %r, %9 : tensor<8x1xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  // CHECK: mirage_kernel.mul
  %11 = mirage_kernel.mul %10, %9 : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  // CHECK: mirage_kernel.div
  %12 = mirage_kernel.div %11, %r : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  // CHECK: mirage_kernel.pow
  %13 = mirage_kernel.pow %12, %r : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  return %13 : tensor<8x64xf16>
}

// CHECK-LABEL: func.func @structural
func.func @structural(%q: tensor<2x256x64xbf16>, %k: tensor<2x64x4096xbf16>, %x: tensor<8x128xf32>) {
  // CHECK: mirage_kernel.matmul %{{.*}}, %{{.*}} : tensor<2x256x64xbf16>, tensor<2x64x4096xbf16> -> tensor<2x256x4096xbf16>
  %s = mirage_kernel.matmul %q, %k : tensor<2x256x64xbf16>, tensor<2x64x4096xbf16> -> tensor<2x256x4096xbf16>
  // CHECK: mirage_kernel.matmul {{.*}} -> tensor<2x256x4096xf32>
  %s32 = mirage_kernel.matmul %q, %k : tensor<2x256x64xbf16>, tensor<2x64x4096xbf16> -> tensor<2x256x4096xf32>
  // CHECK: mirage_kernel.reduction %{{.*}} dim 2 : tensor<2x256x4096xbf16> -> tensor<2x256x1xbf16>
  %r = mirage_kernel.reduction %s dim 2 : tensor<2x256x4096xbf16> -> tensor<2x256x1xbf16>
  // CHECK: mirage_kernel.reduction %{{.*}} dim 2 size 64 : tensor<2x256x4096xbf16> -> tensor<2x256x64xbf16>
  %p = mirage_kernel.reduction %s dim 2 size 64 : tensor<2x256x4096xbf16> -> tensor<2x256x64xbf16>
  // CHECK: mirage_kernel.reduction_max %{{.*}} dim 2 : tensor<2x256x4096xbf16> -> tensor<2x256x1xbf16>
  %mx = mirage_kernel.reduction_max %s dim 2 : tensor<2x256x4096xbf16> -> tensor<2x256x1xbf16>
  // CHECK: mirage_kernel.rms_norm %{{.*}} size 64 : tensor<2x256x64xbf16>
  %n = mirage_kernel.rms_norm %q size 64 : tensor<2x256x64xbf16>
  // CHECK: mirage_kernel.rms_norm %{{.*}} size 16384 eps 9.99999997E-7 : tensor<2x256x64xbf16>
  %m = mirage_kernel.rms_norm %q size 16384 eps 1.0e-6 : tensor<2x256x64xbf16>
  // CHECK: mirage_kernel.concat %{{.*}}, %{{.*}} dim 1 : tensor<8x128xf32>, tensor<8x128xf32> -> tensor<8x256xf32>
  %c = mirage_kernel.concat %x, %x dim 1 : tensor<8x128xf32>, tensor<8x128xf32> -> tensor<8x256xf32>
  // CHECK: %{{.*}}:2 = mirage_kernel.chunk %{{.*}} dim 1 parts 2 : tensor<8x256xf32> -> tensor<8x128xf32>, tensor<8x128xf32>
  %a, %b = mirage_kernel.chunk %c dim 1 parts 2 : tensor<8x256xf32> -> tensor<8x128xf32>, tensor<8x128xf32>
  // CHECK: mirage_kernel.all_reduce %{{.*}} : tensor<8x128xf32>
  %ar = mirage_kernel.all_reduce %a : tensor<8x128xf32>
  return
}

// CHECK-LABEL: func.func @graph_def
func.func @graph_def(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  // CHECK: mirage_kernel.graph_def(%[[A:.*]] = %{{.*}} : tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>)
  // CHECK-SAME: grid [4, 2, 1] block [128, 1, 1] forloop 1 cluster [2, 2, 1] attributes {tag = "t"}
  // CHECK: input_loader %[[A]] imap <x = 0, y = 1>
  // CHECK: yield %{{.*}}, %{{.*}} : tensor<64x64xf32>, tensor<64x64xf32>
  %o:2 = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>)
      grid [4, 2, 1] block [128, 1, 1] forloop 1 cluster [2, 2, 1] attributes {tag = "t"} {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<64x64xf32> -> !mirage_block.stensor<16x32xf32>
    %e = exp %t : !mirage_block.stensor<16x32xf32>
    %a = output_saver %t omap <x = 0, y = 1> : !mirage_block.stensor<16x32xf32> -> tensor<64x64xf32>
    %b = output_saver %e omap <x = 0, y = 1> : !mirage_block.stensor<16x32xf32> -> tensor<64x64xf32>
    yield %a, %b : tensor<64x64xf32>, tensor<64x64xf32>
  }
  return %o#0, %o#1 : tensor<64x64xf32>, tensor<64x64xf32>
}

// CHECK-LABEL: func.func @non_portable_cluster
// CHECK: cluster [16, 1, 1] non_portable {
func.func @non_portable_cluster(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> tensor<64x64xf32>
      grid [16, 1, 1] block [32, 1, 1] forloop 1 cluster [16, 1, 1] non_portable {
    %t = input_loader %X imap <x = 0> : tensor<64x64xf32> -> !mirage_block.stensor<4x64xf32>
    %s = output_saver %t omap <x = 0> : !mirage_block.stensor<4x64xf32> -> tensor<64x64xf32>
    yield %s : tensor<64x64xf32>
  }
  return %o : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @async_copies
// CHECK: forloop 4 cluster [2, 1, 1] async_copies {
// CHECK-LABEL: func.func @async_copies_no_cluster
// CHECK: forloop 4 async_copies {
func.func @async_copies(%x: tensor<64x64xf16>) -> tensor<64x16xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> tensor<64x16xf16>
      grid [2, 1, 1] block [128, 1, 1] forloop 4 cluster [2, 1, 1] async_copies {
    %t = input_loader %X imap <x = 0> fmap 1 : tensor<64x64xf16> -> !mirage_block.stensor<32x16xf16>
    %a = forloop_accum %t sum : !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<32x16xf16>
    %s = output_saver %a omap <x = 0> : !mirage_block.stensor<32x16xf16> -> tensor<64x16xf16>
    yield %s : tensor<64x16xf16>
  }
  return %o : tensor<64x16xf16>
}
func.func @async_copies_no_cluster(%x: tensor<64x64xf16>) -> tensor<64x16xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> tensor<64x16xf16>
      grid [2, 1, 1] block [128, 1, 1] forloop 4 async_copies {
    %t = input_loader %X imap <x = 0> fmap 1 : tensor<64x64xf16> -> !mirage_block.stensor<32x16xf16>
    %a = forloop_accum %t sum : !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<32x16xf16>
    %s = output_saver %a omap <x = 0> : !mirage_block.stensor<32x16xf16> -> tensor<64x16xf16>
    yield %s : tensor<64x16xf16>
  }
  return %o : tensor<64x16xf16>
}

// CHECK-LABEL: func.func @launch
// CHECK: %{{.*}} = mirage_kernel.launch @kernels::@k(%{{.*}}) grid [4, 2, 1] block [128, 1, 1] cluster [2, 1, 1] non_portable shared_memory 4096 : (tensor<8x64xf16>) -> tensor<8x64xf16>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<512xf16>, %y: memref<512xf16>) kernel {
      gpu.return
    }
  }
  func.func @launch(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
    %y = mirage_kernel.launch @kernels::@k(%x) grid [4, 2, 1] block [128, 1, 1]
        cluster [2, 1, 1] non_portable shared_memory 4096 : (tensor<8x64xf16>) -> tensor<8x64xf16>
    return %y : tensor<8x64xf16>
  }
}

// CHECK-LABEL: func.func @library_matmul
// CHECK: mirage_kernel.library_matmul %{{.*}}, %{{.*}}, %{{.*}} : memref<2x16x64xf16>, memref<2x64x32xf16>, memref<2x16x32xf32>
func.func @library_matmul(%a: memref<2x16x64xf16>, %b: memref<2x64x32xf16>, %c: memref<2x16x32xf32>) {
  mirage_kernel.library_matmul %a, %b, %c : memref<2x16x64xf16>, memref<2x64x32xf16>, memref<2x16x32xf32>
  return
}

// CHECK-LABEL: func.func @library_matmul_plus
// CHECK: mirage_kernel.library_matmul %[[A:.*]], %[[B:.*]], %[[C:.*]] plus %[[D:.*]] : memref<16x64xbf16>, memref<64x32xbf16>, memref<16x32xbf16>, memref<16x32xbf16>
func.func @library_matmul_plus(%a: memref<16x64xbf16>, %b: memref<64x32xbf16>, %c: memref<16x32xbf16>, %d: memref<16x32xbf16>) {
  mirage_kernel.library_matmul %a, %b, %c plus %d : memref<16x64xbf16>, memref<64x32xbf16>, memref<16x32xbf16>, memref<16x32xbf16>
  return
}
