// RUN: mirage-translate --mirage-to-triton %s -split-input-file -verify-diagnostics
// RUN: not mirage-translate --mirage-to-triton %s -split-input-file 2>&1 | FileCheck %s

// Constructs the Triton backend refuses, each with a message naming the op.

// CHECK: 'mirage_block.concat' op is not supported by the Triton backend
func.func @block_concat(%x: tensor<8x64xf16>) -> tensor<8x128xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x128xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    // expected-error @below {{'mirage_block.concat' op is not supported by the Triton backend (Triton has no order-preserving concatenation of register tiles)}}
    %c = concat %t, %t dim 1 : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x128xf16>
    %s = output_saver %c omap <> : !mirage_block.stensor<8x128xf16> -> tensor<8x128xf16>
    yield %s : tensor<8x128xf16>
  }
  return %o : tensor<8x128xf16>
}

// -----

// CHECK: 'mirage_block.cluster_reduce' op inside the for-loop is not supported by the Triton backend
func.func @collective_in_loop(%x: tensor<8x64xf16>) -> tensor<8x2xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x2xf16>
      grid [2, 1, 1] block [128, 1, 1] forloop 2 cluster [2, 1, 1] {
    %t = input_loader %X imap <> fmap 1 : tensor<8x64xf16> -> !mirage_block.stensor<8x32xf16>
    %r = reduction %t dim 1 : !mirage_block.stensor<8x32xf16> -> !mirage_block.stensor<8x1xf16>
    // expected-error @below {{'mirage_block.cluster_reduce' op inside the for-loop is not supported by the Triton backend}}
    %c = cluster_reduce %r : !mirage_block.stensor<8x1xf16>
    %a = forloop_accum %c sum : !mirage_block.stensor<8x1xf16> -> !mirage_block.stensor<8x1xf16>
    %s = output_saver %a omap <x = 1> : !mirage_block.stensor<8x1xf16> -> tensor<8x2xf16>
    yield %s : tensor<8x2xf16>
  }
  return %o : tensor<8x2xf16>
}

// -----

// CHECK: 'mirage_kernel.all_reduce' op is not supported by the Triton backend
func.func @all_reduce(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{'mirage_kernel.all_reduce' op is not supported by the Triton backend}}
  %o = mirage_kernel.all_reduce %x : tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}

// -----

// K's tile of 5x16x4096, padded to 8x16x4096 (a batch dimension pads to a
// power of two, M, N and K to 16 or more for tl.dot; so does the product's
// 5x2x4096): 4096 values per thread of 4 warps.
// CHECK: 'mirage_block.input_loader' op makes a tile of '!mirage_block.stensor<5x16x4096xf16>', 4096 values per thread of 4 warps once padded: more than the Triton backend compiles (2048)
func.func @tile_padded(%q: tensor<5x2x16xf16>, %k: tensor<5x16x4096xf16>) -> tensor<5x2x4096xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<5x2x16xf16>, %K = %k : tensor<5x16x4096xf16>) -> tensor<5x2x4096xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %a = input_loader %Q imap <> : tensor<5x2x16xf16> -> !mirage_block.stensor<5x2x16xf16>
    // expected-error @below {{'mirage_block.input_loader' op makes a tile of '!mirage_block.stensor<5x16x4096xf16>', 4096 values per thread of 4 warps once padded: more than the Triton backend compiles (2048)}}
    %b = input_loader %K imap <> : tensor<5x16x4096xf16> -> !mirage_block.stensor<5x16x4096xf16>
    %m = matmul %a, %b : !mirage_block.stensor<5x2x16xf16>, !mirage_block.stensor<5x16x4096xf16> -> !mirage_block.stensor<5x2x4096xf16>
    %s = output_saver %m omap <> : !mirage_block.stensor<5x2x4096xf16> -> tensor<5x2x4096xf16>
    yield %s : tensor<5x2x4096xf16>
  }
  return %o : tensor<5x2x4096xf16>
}

// -----

// CHECK: 'mirage_block.input_loader' op makes a tile of '!mirage_block.stensor<3x128x4096xf16>', 2097152 elements once padded: more than Triton's largest tensor (1048576 elements)
func.func @tile_too_large(%x: tensor<3x128x4096xf16>) -> tensor<3x128x4096xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<3x128x4096xf16>) -> tensor<3x128x4096xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{'mirage_block.input_loader' op makes a tile of '!mirage_block.stensor<3x128x4096xf16>', 2097152 elements once padded: more than Triton's largest tensor (1048576 elements)}}
    %t = input_loader %X imap <> : tensor<3x128x4096xf16> -> !mirage_block.stensor<3x128x4096xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<3x128x4096xf16> -> tensor<3x128x4096xf16>
    yield %s : tensor<3x128x4096xf16>
  }
  return %o : tensor<3x128x4096xf16>
}
