// RUN: mirage-opt %s --convert-mirage-block-to-gpu | FileCheck %s

// Cluster collectives read the peers' shared memory through nvvm.mapa between
// two cluster barriers; the kernel carries its cluster shape.

// CHECK: mirage_kernel.launch @mirage_kernels::@gather_kernel0(%{{.*}}) grid [4, 2, 1] block [32, 1, 1] cluster [2, 1, 1] non_portable shared_memory
// CHECK-LABEL: gpu.func @gather_kernel0
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// A tile still in global memory is first copied to shared memory (32
// elements, 32 threads: one round, no loop).
// CHECK-NOT: scf.for
// CHECK: memref.load %arg0
// CHECK: memref.store
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[LOCAL:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[P0:.*]] = nvvm.mapa %[[LOCAL]], %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: %[[P1:.*]] = nvvm.mapa %[[LOCAL]], %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// cluster_gather: element c comes from rank c[1] / 8 (64 elements: two
// rounds of the 32 threads, inline).
// CHECK-NOT: scf.for
// CHECK: %[[COL:.*]] = arith.remui %{{.*}}, %c16
// CHECK: %[[RANK:.*]] = arith.divui %[[COL]], %c8
// CHECK: llvm.getelementptr %[[P0]]
// CHECK: llvm.load %{{.*}} : !llvm.ptr<7> -> f16
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[RANK]], %c1
// CHECK: scf.if %[[IS1]]
// CHECK: llvm.getelementptr %[[P1]]
// CHECK: memref.store
// CHECK: %[[COL1:.*]] = arith.remui %{{.*}}, %c16
// CHECK: arith.divui %[[COL1]], %c8
// CHECK: llvm.getelementptr %[[P0]]
// CHECK: scf.if
// CHECK: llvm.getelementptr %[[P1]]
// CHECK: memref.store
// CHECK-NOT: scf.for
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// cluster_reduce: the sum over ranks 0 and 1, in rank order.
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[Q0:.*]] = nvvm.mapa
// CHECK: %[[Q1:.*]] = nvvm.mapa
// CHECK-NOT: scf.for
// CHECK: llvm.getelementptr %[[Q0]]
// CHECK: llvm.getelementptr %[[Q1]]
// CHECK: arith.addf
// CHECK: llvm.getelementptr %[[Q0]]
// CHECK: llvm.getelementptr %[[Q1]]
// CHECK: arith.addf
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
func.func @gather(%x: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf16>) -> tensor<8x32xf16>
      grid [4, 2, 1] block [32, 1, 1] forloop 1 cluster [2, 1, 1] non_portable {
    %t = input_loader %X imap <x = 1, y = 0> : tensor<8x32xf16> -> !mirage_block.stensor<4x8xf16>
    %g = cluster_gather %t dim 1 : !mirage_block.stensor<4x8xf16> -> !mirage_block.stensor<4x16xf16>
    %r = cluster_reduce %g : !mirage_block.stensor<4x16xf16>
    %h = reduction %r dim 1 size 8 : !mirage_block.stensor<4x16xf16> -> !mirage_block.stensor<4x8xf16>
    %s = output_saver %h omap <x = 1, y = 0> : !mirage_block.stensor<4x8xf16> -> tensor<8x32xf16>
    yield %s : tensor<8x32xf16>
  }
  return %o : tensor<8x32xf16>
}

// cluster_reduce_scatter: element c of a block's chunk is the sum over the
// ranks, in rank order, at row c[0] + 2 * (its own cluster rank).
// CHECK-LABEL: gpu.func @scatter_kernel0
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[S0:.*]] = nvvm.mapa
// CHECK: %[[S1:.*]] = nvvm.mapa
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[RANKI:.*]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK: %[[OFFSET:.*]] = arith.muli %[[RANKI]], %c2
// CHECK: arith.addi %{{.*}}, %[[OFFSET]]
// CHECK: llvm.getelementptr %[[S0]]
// CHECK: llvm.getelementptr %[[S1]]
// CHECK: arith.addf
// CHECK: memref.store
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
func.func @scatter(%x: tensor<8x32xf16>) -> tensor<4x32xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf16>) -> tensor<4x32xf16>
      grid [2, 2, 1] block [32, 1, 1] forloop 1 cluster [2, 1, 1] {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<8x32xf16> -> !mirage_block.stensor<4x16xf16>
    %s = cluster_reduce_scatter %t dim 0 : !mirage_block.stensor<4x16xf16> -> !mirage_block.stensor<2x16xf16>
    %r = output_saver %s omap <x = 0, y = 1> : !mirage_block.stensor<2x16xf16> -> tensor<4x32xf16>
    yield %r : tensor<4x32xf16>
  }
  return %o : tensor<4x32xf16>
}
