// RUN: mirage-opt %s --convert-mirage-block-to-gpu="chip=sm_80 stages=4" | FileCheck %s

// Staging the loop-varying tile (4 stages of 8 KiB) would take the kernel
// past the 163 KiB of shared memory of sm_80 next to its 136 KiB exp tile:
// it is lowered again without staging, reading the tile in place (sm_90a,
// with 227 KiB, stages it). exp's result is negated before it is saved, so
// it has that tile (the neg, saved directly, has none). The exp tile is dead
// once negated, before the loop, so the 16 KiB accumulator takes its bytes:
// 136 KiB in all.
// CHECK-LABEL: func.func @big
// CHECK: mirage_kernel.launch @mirage_kernels::@big_kernel0{{.*}} shared_memory 139264
// CHECK-LABEL: gpu.func @big_kernel0
// CHECK: memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<34816xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<4096xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: nvvm.cp.async
// CHECK: gpu.return
func.func @big(%x: tensor<64x544xf32>, %y: tensor<64x256xf16>) -> (tensor<64x544xf32>, tensor<64x64xf16>) {
  %o:2 = mirage_kernel.graph_def(%X = %x : tensor<64x544xf32>, %Y = %y : tensor<64x256xf16>) -> (tensor<64x544xf32>, tensor<64x64xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> : tensor<64x544xf32> -> !mirage_block.stensor<64x544xf32>
    %e = exp %xt : !mirage_block.stensor<64x544xf32>
    %n = neg %e : !mirage_block.stensor<64x544xf32>
    %yt = input_loader %Y imap <> fmap 1 : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    %acc = forloop_accum %yt sum : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %s0 = output_saver %n omap <> : !mirage_block.stensor<64x544xf32> -> tensor<64x544xf32>
    %s1 = output_saver %acc omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    yield %s0, %s1 : tensor<64x544xf32>, tensor<64x64xf16>
  }
  return %o#0, %o#1 : tensor<64x544xf32>, tensor<64x64xf16>
}
