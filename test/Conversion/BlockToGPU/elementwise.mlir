// RUN: mirage-opt %s --convert-mirage-block-to-gpu | FileCheck %s

// A graph_def becomes a gpu.func of the module's @mirage_kernels and a launch
// of it; input tiles that one op reads once are read in place, computed
// tiles live in dynamic shared memory at their element type, and each op has thread t take elements
// t + r * numThreads for rounds r < ceil(elements / numThreads) (here 128
// elements, 64 threads: 2 rounds, emitted inline without a loop and, as 64
// divides 128, without a bounds guard), followed by a barrier.

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @scale_exp
// CHECK: %[[R:.*]] = mirage_kernel.launch @mirage_kernels::@scale_exp_kernel0(%{{.*}}) grid [4, 1, 1] block [64, 1, 1] cluster [1, 1, 1] shared_memory 512 : (tensor<8x64xf16>) -> tensor<8x64xf16>
// CHECK: return %[[R]]
func.func @scale_exp(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16>
      grid [4, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<8x64xf16> -> !mirage_block.stensor<2x64xf16>
    %s = mul_scalar %t by 5.000000e-01 : !mirage_block.stensor<2x64xf16>
    %e = exp %s : !mirage_block.stensor<2x64xf16>
    %r = output_saver %e omap <x = 0> : !mirage_block.stensor<2x64xf16> -> tensor<8x64xf16>
    yield %r : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// CHECK: gpu.module @mirage_kernels
// Blocks of 64 threads: at least 4 per SM (256 threads), which lets ptxas use
// up to 255 registers per thread rather than spill for occupancy.
// CHECK: gpu.func @scale_exp_kernel0(%[[X:.*]]: memref<512xf16>, %[[OUT:.*]]: memref<512xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, nvvm.minctasm = 4 : i32}
// CHECK: %[[TID:.*]] = arith.addi %thread_id_x
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[S:.*]] = memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf16, #gpu.address_space<workgroup>>
// CHECK: %[[E:.*]] = memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf16, #gpu.address_space<workgroup>>
// mul_scalar reads this block's rows of the input in place: offset blockIdx.x * 128.
// CHECK: arith.muli %[[BX]], %{{.*}} : index
// Round 0: element tid.
// CHECK-NOT: scf.
// CHECK: %[[R0:.*]] = arith.muli %c0{{(_[0-9]+)?}}, %c64
// CHECK: arith.addi %[[R0]], %[[TID]]
// CHECK: memref.load %[[X]]
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: memref.store %{{.*}}, %[[S]]
// Round 1: element 64 + tid.
// CHECK-NOT: scf.
// CHECK: %[[ONE:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %c1
// CHECK: %[[R1:.*]] = arith.muli %[[ONE]], %c64
// CHECK: arith.addi %[[R1]], %[[TID]]
// CHECK: memref.load %[[X]]
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK-NOT: scf.
// CHECK: gpu.barrier
// CHECK-COUNT-2: math.exp
// CHECK-NOT: scf.
// CHECK: memref.store %{{.*}}, %[[E]]
// CHECK: gpu.barrier
// The saver writes the block's rows of the result, in two rounds too.
// CHECK-NOT: scf.
// CHECK: memref.load %[[E]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: memref.load %[[E]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: gpu.barrier
// CHECK: gpu.return
