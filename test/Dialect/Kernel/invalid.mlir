// RUN: mirage-opt %s -split-input-file -verify-diagnostics

func.func @tensor_element_type(%x: tensor<8xi32>) {
  // expected-error @below {{operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float values}}
  %0 = mirage_kernel.exp %x : tensor<8xi32>
  return
}

// -----

func.func @dynamic_tensor(%x: tensor<?x8xf16>) {
  // expected-error @below {{must be statically shaped tensor}}
  %0 = mirage_kernel.exp %x : tensor<?x8xf16>
  return
}

// -----

func.func @broadcast_mismatch(%a: tensor<8x64xf16>, %b: tensor<8x32xf16>) {
  // expected-error @below {{dimension 1 does not broadcast: 64 vs 32}}
  %0 = mirage_kernel.add %a, %b : tensor<8x64xf16>, tensor<8x32xf16> -> tensor<8x64xf16>
  return
}

// -----

func.func @broadcast_rank(%a: tensor<8x64xf16>, %b: tensor<64xf16>) {
  // expected-error @below {{operand ranks differ: 2 vs 1}}
  %0 = mirage_kernel.mul %a, %b : tensor<8x64xf16>, tensor<64xf16> -> tensor<8x64xf16>
  return
}

// -----

func.func @broadcast_result(%a: tensor<8x64xf16>, %b: tensor<8x1xf16>) {
  // expected-error @below {{result shape is 8x1, expected 8x64}}
  %0 = mirage_kernel.div %a, %b : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x1xf16>
  return
}

// -----

func.func @binary_element_types(%a: tensor<8x64xf16>, %b: tensor<8x64xf32>) {
  // expected-error @below {{element types differ: 'f16', 'f32' -> 'f16'}}
  %0 = mirage_kernel.sub %a, %b : tensor<8x64xf16>, tensor<8x64xf32> -> tensor<8x64xf16>
  return
}

// -----

func.func @unary_type_change(%a: tensor<8x64xf16>) {
  // expected-error @below {{requires the same type for all operands and results}}
  %0 = "mirage_kernel.exp"(%a) : (tensor<8x64xf16>) -> tensor<8x64xf32>
  return
}

// -----

func.func @matmul_k(%a: tensor<64x32xf16>, %b: tensor<16x64xf16>) {
  // expected-error @below {{contracting dimensions differ: 32 vs 16}}
  %0 = mirage_kernel.matmul %a, %b : tensor<64x32xf16>, tensor<16x64xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x64x32xf16>, %b: tensor<4x32x64xf16>) {
  // expected-error @below {{batch dimension 0 differs: 2 vs 4}}
  %0 = mirage_kernel.matmul %a, %b : tensor<2x64x32xf16>, tensor<4x32x64xf16> -> tensor<2x64x64xf16>
  return
}

// -----

func.func @matmul_rank(%a: tensor<64xf16>, %b: tensor<64xf16>) {
  // expected-error @below {{operands must have rank >= 2, got 1}}
  %0 = mirage_kernel.matmul %a, %b : tensor<64xf16>, tensor<64xf16> -> tensor<64xf16>
  return
}

// -----

func.func @matmul_result(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) {
  // expected-error @below {{result shape is 64x32, expected 64x16}}
  %0 = mirage_kernel.matmul %a, %b : tensor<64x32xf16>, tensor<32x16xf16> -> tensor<64x32xf16>
  return
}

// -----

func.func @matmul_result_type(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) {
  // expected-error @below {{result element type 'f16' must be the operands' ('f32') or f32}}
  %0 = mirage_kernel.matmul %a, %b : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf16>
  return
}

// -----

func.func @reduction_dim(%a: tensor<8x64xf16>) {
  // expected-error @below {{reduction dim 2 is out of range for rank 2}}
  %0 = mirage_kernel.reduction %a dim 2 : tensor<8x64xf16> -> tensor<8x64xf16>
  return
}

// -----

func.func @reduction_size(%a: tensor<8x64xf16>) {
  // expected-error @below {{reduction size 48 does not divide dimension 1 of size 64}}
  %0 = mirage_kernel.reduction %a dim 1 size 48 : tensor<8x64xf16> -> tensor<8x48xf16>
  return
}

// -----

func.func @reduction_result(%a: tensor<8x64xf16>) {
  // expected-error @below {{result shape is 8x64, expected 8x1}}
  %0 = mirage_kernel.reduction %a dim 1 : tensor<8x64xf16> -> tensor<8x64xf16>
  return
}

// -----

func.func @reduction_max_dim(%a: tensor<8x64xf16>) {
  // expected-error @below {{reduction dim 2 is out of range for rank 2}}
  %0 = mirage_kernel.reduction_max %a dim 2 : tensor<8x64xf16> -> tensor<8x64xf16>
  return
}

// -----

func.func @reduction_max_result(%a: tensor<8x64xf16>) {
  // expected-error @below {{result shape is 8x2, expected 8x1}}
  %0 = mirage_kernel.reduction_max %a dim 1 : tensor<8x64xf16> -> tensor<8x2xf16>
  return
}

// -----

func.func @reduction_max_type(%a: tensor<8x64xf16>) {
  // expected-error @below {{result element type 'f32' differs from the input's 'f16'}}
  %0 = mirage_kernel.reduction_max %a dim 1 : tensor<8x64xf16> -> tensor<8x1xf32>
  return
}

// -----

func.func @reduction_size_zero(%a: tensor<8x64xf16>) {
  // expected-error @below {{attribute 'size' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %0 = mirage_kernel.reduction %a dim 1 size 0 : tensor<8x64xf16> -> tensor<8x1xf16>
  return
}

// -----

func.func @reduction_negative_dim(%a: tensor<8x64xf16>) {
  // expected-error @below {{attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = mirage_kernel.reduction %a dim -1 : tensor<8x64xf16> -> tensor<8x1xf16>
  return
}

// -----

func.func @rms_norm_size(%a: tensor<8x64xf16>) {
  // expected-error @below {{normalised size 32 is not the product of trailing dimensions of 8x64}}
  %0 = mirage_kernel.rms_norm %a size 32 : tensor<8x64xf16>
  return
}

// -----

func.func @rms_norm_eps(%a: tensor<8x64xf16>) {
  // expected-error @below {{eps must be a finite non-negative number, got -1.000000e+00}}
  %0 = mirage_kernel.rms_norm %a size 64 eps -1.0 : tensor<8x64xf16>
  return
}

// -----

func.func @concat_dims(%a: tensor<8x64xf16>, %b: tensor<4x64xf16>) {
  // expected-error @below {{dimension 0 differs: 8 vs 4}}
  %0 = mirage_kernel.concat %a, %b dim 1 : tensor<8x64xf16>, tensor<4x64xf16> -> tensor<8x128xf16>
  return
}

// -----

func.func @concat_result(%a: tensor<8x64xf16>, %b: tensor<8x32xf16>) {
  // expected-error @below {{result shape is 8x64, expected 8x96}}
  %0 = mirage_kernel.concat %a, %b dim 1 : tensor<8x64xf16>, tensor<8x32xf16> -> tensor<8x64xf16>
  return
}

// -----

func.func @concat_dim_range(%a: tensor<8x64xf16>) {
  // expected-error @below {{concat dim 2 is out of range for rank 2}}
  %0 = mirage_kernel.concat %a, %a dim 2 : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  return
}

// -----

func.func @chunk_divides(%a: tensor<8x63xf16>) {
  // expected-error @below {{2 parts do not divide dimension 1 of size 63}}
  %0:2 = mirage_kernel.chunk %a dim 1 parts 2 : tensor<8x63xf16> -> tensor<8x31xf16>, tensor<8x31xf16>
  return
}

// -----

func.func @chunk_count(%a: tensor<8x64xf16>) {
  // expected-error @below {{expected 2 results, got 3}}
  %0:3 = mirage_kernel.chunk %a dim 1 parts 2 : tensor<8x64xf16> -> tensor<8x32xf16>, tensor<8x32xf16>, tensor<8x32xf16>
  return
}

// -----

func.func @chunk_result(%a: tensor<8x64xf16>) {
  // expected-error @below {{result 1 has type 'tensor<8x16xf16>', expected 'tensor<8x32xf16>'}}
  %0:2 = mirage_kernel.chunk %a dim 1 parts 2 : tensor<8x64xf16> -> tensor<8x32xf16>, tensor<8x16xf16>
  return
}

// -----

func.func @chunk_dim(%a: tensor<8x64xf16>) {
  // expected-error @below {{chunk dim 5 is out of range for rank 2}}
  %0:2 = mirage_kernel.chunk %a dim 5 parts 2 : tensor<8x64xf16> -> tensor<8x32xf16>, tensor<8x32xf16>
  return
}

// -----

func.func @grid_entries(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{grid must have 3 entries (x, y, z), got 2}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @grid_zero(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{grid y is 0, expected a value in [1, 65535]}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 0, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @block_threads(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{block has 2048 threads, at most 1024 are allowed}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1, 1] block [1024, 2, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @forloop_zero(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{attribute 'forloop' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1, 1] block [128, 1, 1] forloop 0 {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @cluster_too_big(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  // expected-error @below {{cluster of 16 blocks exceeds the limit of 8 (16 with 'non_portable')}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> tensor<64x64xf16> grid [4, 4, 1] block [128, 1, 1] forloop 1 cluster [4, 4, 1] {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<64x64xf16> -> !mirage_block.stensor<16x16xf16>
    %s = output_saver %t omap <x = 0, y = 1> : !mirage_block.stensor<16x16xf16> -> tensor<64x64xf16>
    yield %s : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}

// -----

func.func @cluster_non_portable_limit(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  // expected-error @below {{cluster x is 32, expected a value in [1, 16]}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> tensor<64x64xf16> grid [32, 1, 1] block [128, 1, 1] forloop 1 cluster [32, 1, 1] non_portable {
    %t = input_loader %X imap <x = 0> : tensor<64x64xf16> -> !mirage_block.stensor<2x64xf16>
    %s = output_saver %t omap <x = 0> : !mirage_block.stensor<2x64xf16> -> tensor<64x64xf16>
    yield %s : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}

// -----

func.func @cluster_divides_grid(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  // expected-error @below {{cluster x (4) does not divide grid x (2)}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> tensor<64x64xf16> grid [2, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 0> : tensor<64x64xf16> -> !mirage_block.stensor<32x64xf16>
    %s = output_saver %t omap <x = 0> : !mirage_block.stensor<32x64xf16> -> tensor<64x64xf16>
    yield %s : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}

// -----

func.func @non_portable_without_cluster(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{'non_portable_cluster' requires a cluster}}
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32: 1, 1, 1>, block = array<i32: 128, 1, 1>, forloop = 1 : i64, non_portable_cluster}> ({
  ^bb0(%X: tensor<8x64xf16>):
    %t = mirage_block.input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = mirage_block.output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    mirage_block.yield %s : tensor<8x64xf16>
  }) : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}

// -----

func.func @no_results(%x: tensor<8x64xf16>) {
  // expected-error @below {{must produce at least one result}}
  mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> () grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    yield
  }
  return
}

// -----

func.func @yield_types(%x: tensor<8x64xf16>) -> tensor<8x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf32> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    // expected-error @below {{yields ('tensor<8x64xf16>') but the enclosing graph_def returns ('tensor<8x64xf32>')}}
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf32>
}

// -----

func.func @foreign_op_in_body(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{is not allowed in a graph_def body: only mirage_block ops are}}
    %c = arith.constant 1.0 : f32
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @missing_terminator(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32: 1, 1, 1>, block = array<i32: 128, 1, 1>, forloop = 1 : i64}> ({
  ^bb0(%X: tensor<8x64xf16>):
    // expected-error @below {{block with no terminator}}
    %t = mirage_block.input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
  }) : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}

// -----

func.func @body_argument_types(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{body argument 0 has type 'tensor<8x64xf32>', but input 0 has type 'tensor<8x64xf16>'}}
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32: 1, 1, 1>, block = array<i32: 128, 1, 1>, forloop = 1 : i64}> ({
  ^bb0(%X: tensor<8x64xf32>):
    "mirage_block.yield"() : () -> ()
  }) : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}

// -----

func.func @body_argument_count(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{body has 0 arguments for 1 inputs}}
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32: 1, 1, 1>, block = array<i32: 128, 1, 1>, forloop = 1 : i64}> ({
    "mirage_block.yield"() : () -> ()
  }) : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}

// -----

func.func @empty_body(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32: 1, 1, 1>, block = array<i32: 128, 1, 1>, forloop = 1 : i64}> ({
  }) : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}

// -----

func.func @isolated(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    // expected-error @below {{source must be an argument of the enclosing graph_def (a kernel input)}}
    %t = input_loader %x imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @header_attr_in_dict(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{'cluster' belongs in the graph_def header, not in its attributes}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 attributes {cluster = 5 : i64} {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @rms_norm_eps_nan(%a: tensor<8x64xf16>) {
  // expected-error @below {{eps must be a finite non-negative number, got nan}}
  %0 = mirage_kernel.rms_norm %a size 64 eps 0x7FC00000 : tensor<8x64xf16>
  return
}

// -----

func.func @rms_norm_size_overflow(%a: tensor<6148914691236517207x3xf32>) {
  // expected-error @below {{normalised size 5 is not the product of trailing dimensions}}
  %0 = mirage_kernel.rms_norm %a size 5 : tensor<6148914691236517207x3xf32>
  return
}

// -----

func.func @grid_y_limit(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{grid y is 70000, expected a value in [1, 65535]}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 70000, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @block_z_limit(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{block z is 65, expected a value in [1, 64]}}
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1, 1] block [1, 1, 65] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<512xf16>) kernel {
      gpu.return
    }
  }
  func.func @launch_arity(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
    // expected-error @below {{kernel @kernels::@k takes 1 buffers, expected 2 (one per input, then one per result)}}
    %y = mirage_kernel.launch @kernels::@k(%x) grid [1, 1, 1] block [32, 1, 1]
        cluster [1, 1, 1] shared_memory 0 : (tensor<8x64xf16>) -> tensor<8x64xf16>
    return %y : tensor<8x64xf16>
  }
}

// -----

// A kernel with TMA descriptor parameters takes one more per entry of its
// mirage.tensor_maps.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<512xf16>, %y: memref<512xf16>) kernel attributes {mirage.tensor_maps = [{argument = 2 : i64, input = 0 : i64, shape = array<i64: 8, 64>, box = array<i64: 8, 64>}]} {
      gpu.return
    }
  }
  func.func @launch_descriptor_arity(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
    // expected-error @below {{kernel @kernels::@k takes 2 buffers, expected 3 (one per input, then one per result, then one per TMA descriptor)}}
    %y = mirage_kernel.launch @kernels::@k(%x) grid [1, 1, 1] block [32, 1, 1]
        cluster [1, 1, 1] shared_memory 0 : (tensor<8x64xf16>) -> tensor<8x64xf16>
    return %y : tensor<8x64xf16>
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<512xf16>, %y: memref<512xf16>) kernel attributes {mirage.combine_counters = 4 : i64} {
      gpu.return
    }
  }
  func.func @launch_counters_arity(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
    // expected-error @below {{kernel @kernels::@k takes 2 buffers, expected 3 (one per input, then one per result, then the counters)}}
    %y = mirage_kernel.launch @kernels::@k(%x) grid [1, 1, 1] block [32, 1, 1]
        cluster [1, 1, 1] shared_memory 0 : (tensor<8x64xf16>) -> tensor<8x64xf16>
    return %y : tensor<8x64xf16>
  }
}

// -----

func.func @launch_unknown_kernel(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{kernel @nowhere does not name a function}}
  %y = mirage_kernel.launch @nowhere(%x) grid [1, 1, 1] block [32, 1, 1]
      cluster [1, 1, 1] shared_memory 0 : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

func.func @launch_cluster_divides(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{cluster x (2) does not divide grid x (3)}}
  %y = mirage_kernel.launch @k(%x) grid [3, 1, 1] block [32, 1, 1]
      cluster [2, 1, 1] shared_memory 0 : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

func.func @launch_block_limit(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{block has 2048 threads, at most 1024 are allowed}}
  %y = mirage_kernel.launch @k(%x) grid [1, 1, 1] block [1024, 2, 1]
      cluster [1, 1, 1] shared_memory 0 : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

func.func @launch_shared_memory(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  // expected-error @below {{attribute 'shared_memory' failed to satisfy constraint}}
  %y = mirage_kernel.launch @k(%x) grid [1, 1, 1] block [32, 1, 1]
      cluster [1, 1, 1] shared_memory -1 : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

func.func @library_matmul_inner(%a: memref<16x64xf16>, %b: memref<32x32xf16>, %c: memref<16x32xf16>) {
  // expected-error @+1 {{'mirage_kernel.library_matmul' op}}
  mirage_kernel.library_matmul %a, %b, %c : memref<16x64xf16>, memref<32x32xf16>, memref<16x32xf16>
  return
}

// -----

func.func @library_matmul_layout(%a: memref<16x64xf16, strided<[128, 1]>>, %b: memref<64x32xf16>, %c: memref<16x32xf16>) {
  // expected-error @+1 {{'mirage_kernel.library_matmul' op takes row-major buffers (the identity layout), got 'memref<16x64xf16, strided<[128, 1]>>'}}
  mirage_kernel.library_matmul %a, %b, %c : memref<16x64xf16, strided<[128, 1]>>, memref<64x32xf16>, memref<16x32xf16>
  return
}

// -----

func.func @library_matmul_result_type(%a: memref<16x64xf16>, %b: memref<64x32xf16>, %c: memref<16x32xbf16>) {
  // expected-error @+1 {{'mirage_kernel.library_matmul' op}}
  mirage_kernel.library_matmul %a, %b, %c : memref<16x64xf16>, memref<64x32xf16>, memref<16x32xbf16>
  return
}

// -----

func.func @library_matmul_addend_type(%a: memref<16x64xf16>, %b: memref<64x32xf16>, %c: memref<16x32xf16>, %d: memref<1x32xf16>) {
  // expected-error @+1 {{'mirage_kernel.library_matmul' op adds 'memref<1x32xf16>' to a result of type 'memref<16x32xf16>'; the addend has the result's type}}
  mirage_kernel.library_matmul %a, %b, %c plus %d : memref<16x64xf16>, memref<64x32xf16>, memref<16x32xf16>, memref<1x32xf16>
  return
}

// -----

func.func @library_matmul_addend_is_result(%a: memref<16x64xf16>, %b: memref<64x32xf16>, %c: memref<16x32xf16>) {
  // expected-error @+1 {{'mirage_kernel.library_matmul' op adds its result buffer to itself; the addend is another buffer}}
  mirage_kernel.library_matmul %a, %b, %c plus %c : memref<16x64xf16>, memref<64x32xf16>, memref<16x32xf16>, memref<16x32xf16>
  return
}
