// RUN: mirage-opt %s --split-input-file --verify-diagnostics --convert-mirage-block-to-gpu=chip=sm_80
// RUN: not mirage-opt %s --convert-mirage-block-to-gpu=chip=sm_70 2>&1 | FileCheck %s --check-prefix=CHIP

// CHIP: error: unknown chip 'sm_70', expected sm_80 or sm_90a

func.func @too_much_shared_memory(%x: tensor<512x128xf32>) -> tensor<512x128xf32> {
  // expected-error @+1 {{needs 262144 bytes of shared memory per block, more than the 166912 of sm_80; use smaller tiles (a larger grid or for-loop)}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<512x128xf32>) -> tensor<512x128xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<512x128xf32> -> !mirage_block.stensor<512x128xf32>
    %e = exp %t : !mirage_block.stensor<512x128xf32>
    %n = neg %e : !mirage_block.stensor<512x128xf32>
    %s = output_saver %n omap <> : !mirage_block.stensor<512x128xf32> -> tensor<512x128xf32>
    yield %s : tensor<512x128xf32>
  }
  return %o : tensor<512x128xf32>
}

// -----

func.func @cluster_on_sm80(%x: tensor<8x32xf16>) -> tensor<8x32xf16> {
  // expected-error @+1 {{uses a thread-block cluster, which sm_80 does not have (clusters need sm_90a)}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf16>) -> tensor<8x32xf16>
      grid [2, 1, 1] block [32, 1, 1] forloop 1 cluster [2, 1, 1] {
    %t = input_loader %X imap <x = 1> : tensor<8x32xf16> -> !mirage_block.stensor<8x16xf16>
    %r = cluster_reduce %t : !mirage_block.stensor<8x16xf16>
    %s = output_saver %r omap <x = 1> : !mirage_block.stensor<8x16xf16> -> tensor<8x32xf16>
    yield %s : tensor<8x32xf16>
  }
  return %o : tensor<8x32xf16>
}
