// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s

// Shared memory is planned by liveness: the tile of a computed value is
// released after the last op that reads it, and a later tile takes its
// bytes once a barrier has ended those reads (each op ends with one).

// A chain of three 16x64 f16 tiles (2048 bytes each): exp's result is dead
// once mul_scalar has read it, so the second exp's result takes its bytes:
// 4096 bytes instead of 6144. (The neg that ends the chain stores straight to
// the output, its saver being its one use: it has no tile.)
// CHECK-LABEL: func.func @chain
// CHECK: mirage_kernel.launch @mirage_kernels::@chain_kernel0({{.*}}) grid [1, 1, 1] block [32, 1, 1] cluster [1, 1, 1] shared_memory 4096
// CHECK-LABEL: gpu.func @chain_kernel0
// CHECK: %[[A:.*]] = memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] {{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.view %{{.*}}[%c2048{{(_[0-9]+)?}}][] {{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: %[[C:.*]] = memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] {{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.view
// CHECK: gpu.return
func.func @chain(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x64xf16>) -> tensor<16x64xf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %a = exp %t : !mirage_block.stensor<16x64xf16>
    %b = mul_scalar %a by 2.000000e+00 : !mirage_block.stensor<16x64xf16>
    %c = exp %b : !mirage_block.stensor<16x64xf16>
    %d = neg %c : !mirage_block.stensor<16x64xf16>
    %s = output_saver %d omap <> : !mirage_block.stensor<16x64xf16> -> tensor<16x64xf16>
    yield %s : tensor<16x64xf16>
  }
  return %o : tensor<16x64xf16>
}

// -----

// A loop-invariant tile read in the loop lives until the loop ends: the
// per-iteration tiles never take its bytes (the next iteration reads it
// again), but after the loop they may. Exp(Q) (2048 bytes at 33792, after
// K's 4 stages and their mbarriers) is read by every iteration's product
// with K's tile; the product's exp, which the matmul stores as its epilogue
// (matmul-epilogue.mlir), gets bytes of its own (39936; the f32 accumulator
// lies between); after the loop, mul_scalar's result (negated before it is
// saved, so it has a tile) takes exp(Q)'s.
// CHECK-LABEL: func.func @invariant
// CHECK: shared_memory 41984
// CHECK-LABEL: gpu.func @invariant_kernel0
// CHECK: memref.view %{{.*}}[%c33792][] {{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c35840][] {{.*}} to memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c39936][] {{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c33792_{{[0-9]+}}][] {{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
func.func @invariant(%q: tensor<16x64xf16>, %k: tensor<64x256xf16>) -> tensor<16x64xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<16x64xf16>, %K = %k : tensor<64x256xf16>) -> tensor<16x64xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %kt = input_loader %K imap <> fmap 1 : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    %eq = exp %qt : !mirage_block.stensor<16x64xf16>
    %p = matmul %eq, %kt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
    %e = exp %p : !mirage_block.stensor<16x64xf16>
    %acc = forloop_accum %e sum : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %y = mul_scalar %acc by 5.000000e-01 : !mirage_block.stensor<16x64xf16>
    %n = neg %y : !mirage_block.stensor<16x64xf16>
    %s = output_saver %n omap <> : !mirage_block.stensor<16x64xf16> -> tensor<16x64xf16>
    yield %s : tensor<16x64xf16>
  }
  return %o : tensor<16x64xf16>
}
