// RUN: mirage-opt %s -split-input-file --convert-mirage-block-to-gpu="chip=sm_90a combine-tails" | FileCheck %s
// RUN: mirage-opt %s -split-input-file --convert-mirage-block-to-gpu=chip=sm_90a | FileCheck %s --check-prefix=APART

// A split sum: 4 blocks per row each sum a quarter (the first graph_def),
// then one block per row adds the four partial sums (its combine tail: a
// tail block reads what the 4 blocks of its row wrote). Both run as one
// launch of the first's grid; the last of each row's blocks to arrive at
// the row's counter runs the tail, one tail block per warp. By default (combine-tails=false, measured
// slower on the GPU) each keeps its own launch.

// CHECK-LABEL: func.func @split_sum
// CHECK: %[[L:.*]]:2 = mirage_kernel.launch @mirage_kernels::@split_sum_kernel0(%{{.*}}) grid [2, 4, 1] block [64, 1, 1] cluster [1, 1, 1] shared_memory {{[0-9]+}} : (tensor<2x256xf16>) -> (tensor<2x4xf16>, tensor<2x1xf16>)
// CHECK-NOT: mirage_kernel.launch
// CHECK: return %[[L]]#1
// The kernel takes the input, the partial sums, the result, then one
// counter per row.
// CHECK: gpu.func @split_sum_kernel0(%{{.*}}: memref<512xf16>, %{{.*}}: memref<8xf16>, %{{.*}}: memref<2xf16>, %[[C:.*]]: memref<2xi32>) kernel attributes {{{.*}}mirage.combine_counters = 2 : i64
// CHECK: gpu.barrier
// CHECK: %[[X:.*]] = gpu.block_id x
// CHECK: scf.if
// CHECK-NEXT: nvvm.memory.barrier <gpu>
// CHECK: %[[OLD:.*]] = memref.atomic_rmw addi %{{.*}}, %[[C]][%{{.*}}] : (i32, memref<2xi32>) -> i32
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[OLD]], %c3_i32
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: memref.store %{{.*}}, %[[C]][%{{.*}}] : memref<2xi32>
// CHECK: nvvm.memory.barrier <gpu>
// CHECK: nvvm.barrier #nvvm.reduction<or> %{{.*}} -> i32
// The row's one tail block runs in warp 0, the tail compiled for one warp:
// its thread is the lane and its barriers the warp's.
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c1{{.*}} step
// CHECK: nvvm.bar.warp.sync
// CHECK: %[[T:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[T]], %c1
// CHECK: scf.if %[[IN]] {
// CHECK-NOT: gpu.barrier
// CHECK-NOT: gpu.block_id
// CHECK-NOT: griddepcontrol
// CHECK: gpu.return
// CHECK: memref.global constant @split_sum_kernel0__launch
// CHECK-NOT: split_sum_kernel1

// APART-LABEL: func.func @split_sum
// APART: mirage_kernel.launch @mirage_kernels::@split_sum_kernel0
// APART: mirage_kernel.launch @mirage_kernels::@split_sum_kernel1
// APART-NOT: combine_counters
func.func @split_sum(%x: tensor<2x256xf16>) -> tensor<2x1xf16> {
  %p = mirage_kernel.graph_def(%X = %x : tensor<2x256xf16>) -> tensor<2x4xf16>
      grid [2, 4, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<2x256xf16> -> !mirage_block.stensor<1x64xf16>
    %s = reduction %t dim 1 : !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x1xf16>
    %o = output_saver %s omap <x = 0, y = 1> : !mirage_block.stensor<1x1xf16> -> tensor<2x4xf16>
    yield %o : tensor<2x4xf16>
  }
  %r = mirage_kernel.graph_def(%P = %p : tensor<2x4xf16>) -> tensor<2x1xf16>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %P imap <x = 0> : tensor<2x4xf16> -> !mirage_block.stensor<1x4xf16>
    %s = reduction %t dim 1 : !mirage_block.stensor<1x4xf16> -> !mirage_block.stensor<1x1xf16>
    %o = output_saver %s omap <x = 0> : !mirage_block.stensor<1x1xf16> -> tensor<2x1xf16>
    yield %o : tensor<2x1xf16>
  }
  return %r : tensor<2x1xf16>
}

// -----

// The tail cuts the partial sums into halves (2 blocks per row) where the
// first wrote quarters: a tail block would read what blocks of two groups
// wrote, so each graph_def keeps its launch.

// CHECK-LABEL: func.func @other_chunks
// CHECK: mirage_kernel.launch @mirage_kernels::@other_chunks_kernel0
// CHECK: mirage_kernel.launch @mirage_kernels::@other_chunks_kernel1
// CHECK-NOT: combine_counters
func.func @other_chunks(%x: tensor<2x256xf16>) -> tensor<2x2xf16> {
  %p = mirage_kernel.graph_def(%X = %x : tensor<2x256xf16>) -> tensor<2x4xf16>
      grid [2, 4, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<2x256xf16> -> !mirage_block.stensor<1x64xf16>
    %s = reduction %t dim 1 : !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x1xf16>
    %o = output_saver %s omap <x = 0, y = 1> : !mirage_block.stensor<1x1xf16> -> tensor<2x4xf16>
    yield %o : tensor<2x4xf16>
  }
  %r = mirage_kernel.graph_def(%P = %p : tensor<2x4xf16>) -> tensor<2x2xf16>
      grid [2, 2, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %P imap <x = 0, y = 1> : tensor<2x4xf16> -> !mirage_block.stensor<1x2xf16>
    %s = reduction %t dim 1 : !mirage_block.stensor<1x2xf16> -> !mirage_block.stensor<1x1xf16>
    %o = output_saver %s omap <x = 0, y = 1> : !mirage_block.stensor<1x1xf16> -> tensor<2x2xf16>
    yield %o : tensor<2x2xf16>
  }
  return %r : tensor<2x2xf16>
}

// -----

// One group (every block of the first reads a column chunk of all 16 rows)
// would leave 16 tail blocks to its last block, more than 8: two launches.

// CHECK-LABEL: func.func @too_many_tail_blocks
// CHECK: mirage_kernel.launch @mirage_kernels::@too_many_tail_blocks_kernel0
// CHECK: mirage_kernel.launch @mirage_kernels::@too_many_tail_blocks_kernel1
func.func @too_many_tail_blocks(%x: tensor<16x256xf16>) -> tensor<16x1xf16> {
  %p = mirage_kernel.graph_def(%X = %x : tensor<16x256xf16>) -> tensor<16x4xf16>
      grid [1, 4, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <y = 1> : tensor<16x256xf16> -> !mirage_block.stensor<16x64xf16>
    %s = reduction %t dim 1 : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x1xf16>
    %o = output_saver %s omap <y = 1> : !mirage_block.stensor<16x1xf16> -> tensor<16x4xf16>
    yield %o : tensor<16x4xf16>
  }
  %r = mirage_kernel.graph_def(%P = %p : tensor<16x4xf16>) -> tensor<16x1xf16>
      grid [16, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %P imap <x = 0> : tensor<16x4xf16> -> !mirage_block.stensor<1x4xf16>
    %s = reduction %t dim 1 : !mirage_block.stensor<1x4xf16> -> !mirage_block.stensor<1x1xf16>
    %o = output_saver %s omap <x = 0> : !mirage_block.stensor<1x1xf16> -> tensor<16x1xf16>
    yield %o : tensor<16x1xf16>
  }
  return %r : tensor<16x1xf16>
}

// -----

// The partial sums are also a result of the function: the tail cannot take
// them over.

// CHECK-LABEL: func.func @partials_returned
// CHECK: mirage_kernel.launch @mirage_kernels::@partials_returned_kernel0
// CHECK: mirage_kernel.launch @mirage_kernels::@partials_returned_kernel1
func.func @partials_returned(%x: tensor<2x256xf16>) -> (tensor<2x4xf16>, tensor<2x1xf16>) {
  %p = mirage_kernel.graph_def(%X = %x : tensor<2x256xf16>) -> tensor<2x4xf16>
      grid [2, 4, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<2x256xf16> -> !mirage_block.stensor<1x64xf16>
    %s = reduction %t dim 1 : !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x1xf16>
    %o = output_saver %s omap <x = 0, y = 1> : !mirage_block.stensor<1x1xf16> -> tensor<2x4xf16>
    yield %o : tensor<2x4xf16>
  }
  %r = mirage_kernel.graph_def(%P = %p : tensor<2x4xf16>) -> tensor<2x1xf16>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %P imap <x = 0> : tensor<2x4xf16> -> !mirage_block.stensor<1x4xf16>
    %s = reduction %t dim 1 : !mirage_block.stensor<1x4xf16> -> !mirage_block.stensor<1x1xf16>
    %o = output_saver %s omap <x = 0> : !mirage_block.stensor<1x1xf16> -> tensor<2x1xf16>
    yield %o : tensor<2x1xf16>
  }
  return %p, %r : tensor<2x4xf16>, tensor<2x1xf16>
}
