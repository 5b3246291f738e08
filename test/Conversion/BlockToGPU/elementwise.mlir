// RUN: mirage-opt %s --convert-mirage-block-to-gpu | FileCheck %s

// A graph_def becomes a gpu.func of the module's @mirage_kernels and a launch
// of it; input tiles that one op reads once are read in place, computed
// tiles live in dynamic shared memory at their element type, and each op
// takes runs of consecutive elements along the last dimension (8 halves: one
// 16-byte access per tile), thread t the runs t + r * numThreads for rounds
// r < ceil(runs / numThreads) (here 1024 elements, 128 runs, 64 threads: 2
// rounds, emitted inline without a loop and, as 64 divides 128, without a
// bounds guard), followed by a barrier. The exponential's result is saved
// and also negated, so it has a tile of its own and its saver copies it; the
// negation, whose one use is its saver, stores straight to the global output.

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @scale_exp
// CHECK: %[[R:.*]]:2 = mirage_kernel.launch @mirage_kernels::@scale_exp_kernel0(%{{.*}}) grid [4, 1, 1] block [64, 1, 1] cluster [1, 1, 1] shared_memory 4096 : (tensor<64x64xf16>) -> (tensor<64x64xf16>, tensor<64x64xf16>)
// CHECK: return %[[R]]#0
func.func @scale_exp(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %o:2 = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> (tensor<64x64xf16>, tensor<64x64xf16>)
      grid [4, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
    %s = mul_scalar %t by 5.000000e-01 : !mirage_block.stensor<16x64xf16>
    %e = exp %s : !mirage_block.stensor<16x64xf16>
    %r = output_saver %e omap <x = 0> : !mirage_block.stensor<16x64xf16> -> tensor<64x64xf16>
    %n = neg %e : !mirage_block.stensor<16x64xf16>
    %rn = output_saver %n omap <x = 0> : !mirage_block.stensor<16x64xf16> -> tensor<64x64xf16>
    yield %r, %rn : tensor<64x64xf16>, tensor<64x64xf16>
  }
  return %o#0 : tensor<64x64xf16>
}

// CHECK: gpu.module @mirage_kernels
// Blocks of 64 threads: at least 4 per SM (256 threads), which lets ptxas use
// up to 255 registers per thread rather than spill for occupancy.
// CHECK: gpu.func @scale_exp_kernel0(%[[X:.*]]: memref<4096xf16>, %[[OUT:.*]]: memref<4096xf16>, %[[NEG:.*]]: memref<4096xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, nvvm.minctasm = 4 : i32}
// CHECK: %[[TID:.*]] = arith.addi %thread_id_x
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[S:.*]] = memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: %[[E:.*]] = memref.view %[[SMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf16, #gpu.address_space<workgroup>>
// mul_scalar reads this block's rows of the input in place: offset blockIdx.x * 1024.
// CHECK: arith.muli %[[BX]], %{{.*}} : index
// Round 0: run tid, its first element at column (tid % 8) * 8.
// CHECK-NOT: scf.
// CHECK: %[[R0:.*]] = arith.muli %c0{{(_[0-9]+)?}}, %c64
// CHECK: %[[RUN0:.*]] = arith.addi %[[R0]], %[[TID]]
// CHECK: arith.remui %[[RUN0]], %c8
// CHECK: arith.muli %{{.*}}, %c8
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-COUNT-8: arith.extf %{{.*}} : f16 to f32
// CHECK-COUNT-8: arith.mulf
// CHECK-COUNT-8: arith.truncf %{{.*}} : f32 to f16
// CHECK: memref.extract_aligned_pointer_as_index %[[S]]
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// Round 1: run 64 + tid.
// CHECK-NOT: scf.
// CHECK: %[[ONE:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %c1
// CHECK: %[[R1:.*]] = arith.muli %[[ONE]], %c64
// CHECK: arith.addi %[[R1]], %[[TID]]
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-COUNT-8: arith.mulf
// CHECK: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT: scf.
// CHECK: gpu.barrier
// CHECK-COUNT-16: math.exp
// CHECK-NOT: scf.
// CHECK: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// The saver copies the block's rows of the result, in two rounds too, 8
// halves at a time, without converting them.
// CHECK-NOT: scf.
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<1>
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<1>
// CHECK: gpu.barrier
// The negation reads the exponential's tile and writes each run of 8 results
// straight to its output, with no shared tile and no copy.
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: arith.negf
// CHECK-NOT: !llvm.ptr<3>
// CHECK: memref.extract_aligned_pointer_as_index %[[NEG]]
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<1>
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: arith.negf
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<1>
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.return
