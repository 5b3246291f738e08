// RUN: mirage-opt %s -split-input-file -verify-diagnostics

func.func @stensor_rank0(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{a tile must have rank >= 1}}
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<f16>
  }
  return %o : tensor<64x256xf16>
}

// -----

// expected-error @below {{tile dimensions must be positive, got 0}}
func.func @stensor_zero_dim(%t: !mirage_block.stensor<0x4xf16>)

// -----

// expected-error @below {{tile element type must be f16, bf16 or f32, got 'i8'}}
func.func @stensor_element(%t: !mirage_block.stensor<4x4xi8>)

// -----

// expected-error @below {{expected grid axis 'x', 'y' or 'z', got 'w'}}
func.func @map_axis() attributes {m = #mirage_block.map<w = 1>}

// -----

// expected-error @below {{grid axis 'x' is mapped twice}}
func.func @map_twice() attributes {m = #mirage_block.map<x = 1, x = 0>}

// -----

// expected-error @below {{grid axis y must map a dimension index or -1, got -2}}
func.func @map_negative() attributes {m = #mirage_block.map<y = -2>}

// -----

func.func @outside_graph(%a: !mirage_block.stensor<8x8xf16>) {
  // expected-error @below {{expects parent op 'mirage_kernel.graph_def'}}
  %c = mirage_block.exp %a : !mirage_block.stensor<8x8xf16>
  return
}

// -----

func.func @imap_out_of_range(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{imap maps grid axis x to dimension 2, out of range for rank 2}}
    %t = input_loader %X imap <x = 2> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @imap_same_dim(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [2, 2, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{imap maps grid axes x and y to the same dimension 1}}
    %t = input_loader %X imap <x = 1, y = 1> : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @imap_divides(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [3, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{grid x (3 blocks) does not divide dimension 0 of size 64}}
    %t = input_loader %X imap <x = 0> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @fmap_divides(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 3 {
    // expected-error @below {{for-loop range 3 does not divide dimension 1 of the block's tile (size 256)}}
    %t = input_loader %X imap <> fmap 1 : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @fmap_range(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 2 {
    // expected-error @below {{fmap 2 is out of range for rank 2}}
    %t = input_loader %X imap <> fmap 2 : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @fmap_negative(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{attribute 'fmap' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is -1}}
    %t = input_loader %X imap <> fmap -2 : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @loader_result(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{result type is '!mirage_block.stensor<64x256xf16>', expected '!mirage_block.stensor<32x256xf16>'}}
    %t = input_loader %X imap <x = 0> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @loader_element(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{result type is '!mirage_block.stensor<64x256xf32>', expected '!mirage_block.stensor<64x256xf16>'}}
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf32>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @saver_unmapped_axis(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<64x256xf16> -> !mirage_block.stensor<32x256xf16>
    // expected-error @below {{grid axis x has 2 blocks but omap does not map it, so they would write the same elements}}
    %s = output_saver %t omap <> : !mirage_block.stensor<32x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @saver_same_dim(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [2, 2, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<64x256xf16> -> !mirage_block.stensor<32x128xf16>
    // expected-error @below {{omap maps grid axes x and y to the same dimension 0}}
    %s = output_saver %t omap <x = 0, y = 0> : !mirage_block.stensor<32x128xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @saver_result(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<64x256xf16> -> !mirage_block.stensor<32x256xf16>
    // expected-error @below {{result type is 'tensor<64x256xf16>', expected 'tensor<32x512xf16>'}}
    %s = output_saver %t omap <x = 1> : !mirage_block.stensor<32x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @saver_unused(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{result must be yielded by the graph_def}}
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    %u = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    yield %u : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @saver_reloaded(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{result may only be used by 'mirage_block.yield'}}
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    %r = input_loader %s imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @yield_not_saved(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{operand 0 is not the result of an output_saver}}
    yield %X : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @mix_phases(%x: tensor<64x256xf16>) -> tensor<64x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x64xf16> grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %a = input_loader %X imap <> fmap 1 : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    %acc = forloop_accum %a sum : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    // expected-error @below {{mixes a value computed in every for-loop iteration with an accumulated one}}
    %m = add %acc, %a : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %s = output_saver %m omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    yield %s : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}

// -----

func.func @accumulate_twice(%x: tensor<64x256xf16>) -> tensor<64x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x64xf16> grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %a = input_loader %X imap <> fmap 1 : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    %acc = forloop_accum %a sum : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    // expected-error @below {{accumulates a value that is already accumulated}}
    %acc2 = forloop_accum %acc sum : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %s = output_saver %acc2 omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    yield %s : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}

// -----

func.func @save_in_loop(%x: tensor<64x256xf16>) -> tensor<64x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x64xf16> grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %a = input_loader %X imap <> fmap 1 : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    // expected-error @below {{saves a value that changes in every one of the 4 for-loop iterations; accumulate it with forloop_accum}}
    %s = output_saver %a omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    yield %s : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}

// -----

func.func @matmul_k(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{contracting dimensions differ: 256 vs 64}}
    %m = matmul %t, %t : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @binary_broadcast(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    %r = reduction %t dim 1 size 2 : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x2xf16>
    // expected-error @below {{dimension 1 does not broadcast: 256 vs 2}}
    %m = add %t, %r : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x2xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @reduction_size(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{reduction size 3 does not divide dimension 1 of size 256}}
    %r = reduction %t dim 1 size 3 : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x3xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @reduction_max_result(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{result shape is 64x2, expected 64x1}}
    %r = reduction_max %t dim 1 : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x2xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @rms_norm_size(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{normalised size 100 is not the product of trailing dimensions of 64x256}}
    %r = rms_norm %t size 100 : !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @concat_result(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{result shape is 64x256, expected 128x256}}
    %r = concat %t, %t dim 0 : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @accum_shape(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{result shape is 64x256, expected 64x1 for 'sum_last'}}
    %r = forloop_accum %t sum_last : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @accum_size_kind(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{a size is only allowed with 'sum_last_to'}}
    %r = forloop_accum %t sum 4 : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @accum_eps_kind(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{an eps is only allowed with 'rms_last'}}
    %r = forloop_accum %t sum eps 1.0e-6 : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @accum_negative_eps(%x: tensor<64x256xf16>) -> tensor<64x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x1xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{eps -1.000000e-06 is negative}}
    %r = forloop_accum %t rms_last eps -1.0e-6 : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x1xf16>
  }
  return %o : tensor<64x1xf16>
}

// -----

func.func @accum_missing_size(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{'sum_last_to' requires a size}}
    %r = forloop_accum %t sum_last_to : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @accum_size_divides(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{size 3 does not divide the last dimension (256)}}
    %r = forloop_accum %t sum_last_to 3 : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x3xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @accum_element(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{result element type 'bf16' must be the input's ('f16') or f32}}
    %r = forloop_accum %t max : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xbf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @accum_unknown_kind(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{unknown accumulator kind 'mean', expected sum, sum_last, sum_last_to, rms_last or max}}
    %r = forloop_accum %t mean : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @cluster_reduce_no_cluster(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{requires a 'cluster' on the enclosing graph_def}}
    %r = cluster_reduce %t : !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @cluster_gather_shape(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 0> : tensor<64x256xf16> -> !mirage_block.stensor<16x256xf16>
    // expected-error @below {{result type is '!mirage_block.stensor<16x512xf16>', expected '!mirage_block.stensor<16x1024xf16>'}}
    %g = cluster_gather %t dim 1 : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x512xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @cluster_gather_dim(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 0> : tensor<64x256xf16> -> !mirage_block.stensor<16x256xf16>
    // expected-error @below {{gather dim 2 is out of range for rank 2}}
    %g = cluster_gather %t dim 2 : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x512xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @cluster_reduce_scatter_no_cluster(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{requires a 'cluster' on the enclosing graph_def}}
    %r = cluster_reduce_scatter %t dim 0 : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @cluster_reduce_scatter_shape(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 0> : tensor<64x256xf16> -> !mirage_block.stensor<16x256xf16>
    // expected-error @below {{result type is '!mirage_block.stensor<16x128xf16>', expected '!mirage_block.stensor<16x64xf16>'}}
    %s = cluster_reduce_scatter %t dim 1 : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x128xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @cluster_reduce_scatter_indivisible(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 1> : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    %r = reduction %t dim 0 size 2 : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<2x64xf16>
    // expected-error @below {{the cluster's 4 blocks do not divide dimension 0 of size 2}}
    %s = cluster_reduce_scatter %r dim 0 : !mirage_block.stensor<2x64xf16> -> !mirage_block.stensor<1x64xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @cluster_reduce_scatter_dim(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 0> : tensor<64x256xf16> -> !mirage_block.stensor<16x256xf16>
    // expected-error @below {{scatter dim 2 is out of range for rank 2}}
    %s = cluster_reduce_scatter %t dim 2 : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x64xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @thread_graph_result_shape(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{result 0 has shape 64x1, expected the broadcast shape 64x256}}
    %r = thread_graph %t, %t : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x1xf16> {
    ^bb0(%a: f16, %b: f16):
      yield %a : f16
    }
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @thread_graph_broadcast(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    %u = reduction %t dim 1 size 2 : !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x2xf16>
    // expected-error @below {{dimension 1 does not broadcast: 256 vs 2}}
    %r = thread_graph %t, %u : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x2xf16> -> !mirage_block.stensor<64x256xf16> {
    ^bb0(%a: f16, %b: f16):
      yield %a : f16
    }
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @thread_graph_arg_type(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{body argument 1 has type 'f32', expected the element type 'f16' of input 1}}
    %r = thread_graph %t, %t : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16> {
    ^bb0(%a: f16, %b: f32):
      yield %a : f16
    }
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @thread_graph_arg_count(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    // expected-error @below {{body has 1 arguments for 2 inputs}}
    %r = thread_graph %t, %t : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16> {
    ^bb0(%a: f16):
      yield %a : f16
    }
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @thread_graph_yield_count(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    %r = thread_graph %t, %t : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16> {
    ^bb0(%a: f16, %b: f16):
      // expected-error @below {{yields 2 values for 1 results}}
      yield %a, %b : f16, f16
    }
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @thread_graph_yield_type(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    %r = thread_graph %t, %t : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf32> {
    ^bb0(%a: f16, %b: f16):
      // expected-error @below {{operand 0 has type 'f16', expected the element type 'f32' of result 0}}
      yield %a : f16
    }
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @thread_graph_foreign_op(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    %r = thread_graph %t, %t : !mirage_block.stensor<64x256xf16>, !mirage_block.stensor<64x256xf16> -> !mirage_block.stensor<64x256xf16> {
    ^bb0(%a: f16, %b: f16):
      // expected-error @below {{is not allowed in a thread_graph body: only mirage_thread ops are}}
      %c = arith.addf %a, %b : f16
      yield %c : f16
    }
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

func.func @thread_graph_no_inputs(%x: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf16>) -> tensor<64x256xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{needs at least one input and one result}}
    %r = "mirage_block.thread_graph"() ({
      "mirage_thread.yield"() : () -> ()
    }) : () -> !mirage_block.stensor<4x4xf16>
    %t = input_loader %X imap <> : tensor<64x256xf16> -> !mirage_block.stensor<64x256xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<64x256xf16> -> tensor<64x256xf16>
    yield %s : tensor<64x256xf16>
  }
  return %o : tensor<64x256xf16>
}

// -----

// A running maximum (a max accumulator read by a sub in the loop) may not
// accumulate a value shifted by a running maximum: its steps would depend on
// its own final value.
func.func @running_max_of_shifted(%x: tensor<16x256xf16>) -> tensor<16x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x256xf16>) -> tensor<16x1xf16> grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %a = input_loader %X imap <> fmap 1 : tensor<16x256xf16> -> !mirage_block.stensor<16x64xf16>
    %r = reduction_max %a dim 1 : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<16x1xf16> -> !mirage_block.stensor<16x1xf16>
    %d = sub %a, %m : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<16x1xf16> -> !mirage_block.stensor<16x64xf16>
    %r2 = reduction_max %d dim 1 : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x1xf16>
    %m2 = forloop_accum %r2 max : !mirage_block.stensor<16x1xf16> -> !mirage_block.stensor<16x1xf16>
    // expected-error @below {{reads a running maximum whose input depends on a running maximum}}
    %d2 = sub %d, %m2 : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<16x1xf16> -> !mirage_block.stensor<16x64xf16>
    %e = exp %d2 : !mirage_block.stensor<16x64xf16>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x1xf16>
    %s = output_saver %l omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
    yield %s : tensor<16x1xf16>
  }
  return %o : tensor<16x1xf16>
}
