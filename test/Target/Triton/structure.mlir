// RUN: mirage-translate --mirage-to-triton %s | FileCheck %s

// Cluster collectives split a graph_def into stages that exchange tiles
// through scratch buffers; thread graphs become one line per scalar op;
// kernel ops outside graph_defs become torch calls.

// CHECK: from triton.language.extra import libdevice

// CHECK-LABEL: def clusters_graph_def0_stage0(in0, out0, scratch0):
// CHECK-NEXT: # One program per block of grid [4, 8, 1], a for-loop of 1 iterations; computes stage 0: the inputs of the cluster collectives that follow.
// CHECK: block_id = pid_x + 4 * (pid_y + 8 * pid_z)
// CHECK-NEXT: cluster_x = pid_x - pid_x % 4
// CHECK-NEXT: rank = (pid_x % 4)  # this block's rank in its cluster
// CHECK: load0 = tl.load(in0 + (pid_y) * 4096 + (pid_x * 1024 + tl.arange(0, 1024))[None, :]).to(tl.float32)
// CHECK: # fused1 = thread_graph(load0) -> 1x1024xf16
// CHECK-NEXT: # fused1_s0 = mirage_thread.square per element
// CHECK-NEXT: fused1_s0 = (load0 * load0)
// CHECK-NEXT: # fused1_s1 = mirage_thread.pow per element
// CHECK-NEXT: fused1_s1 = libdevice.pow(fused1_s0, load0)
// CHECK-NEXT: fused1 = fused1_s1
// CHECK: reduction2 = tl.sum(fused1, axis=1, keep_dims=True)
// CHECK-NEXT: # the input of cluster_reduce3 (mirage_block.cluster_reduce), for the blocks of this cluster
// CHECK-NEXT: tl.store(scratch0 + block_id + tl.zeros((1, 1), tl.int32), reduction2)
// CHECK-NOT: tl.store(out0

// CHECK-LABEL: def clusters_graph_def0_stage1(in0, out0, scratch0):
// CHECK-NOT: reduction2 =
// CHECK: # cluster_reduce3 = cluster_reduce(reduction2) -> 1x1xf16
// CHECK-NEXT: cluster_reduce3 = tl.zeros((1, 1), tl.float32)
// CHECK-NEXT: for peer in tl.static_range(4):
// CHECK-NEXT: cluster_reduce3 += tl.load(scratch0 + ((cluster_x + (peer)) + (pid_y) * 4) + tl.zeros((1, 1), tl.int32)).to(tl.float32)
// CHECK: div4 = (load0 / cluster_reduce3)
// CHECK: tl.store(out0 + (pid_y) * 4096 + (pid_x * 1024 + tl.arange(0, 1024))[None, :], div4.to(tl.float16))

// CHECK-LABEL: def clusters(arg0, out=None):
// CHECK: clusters_graph_def0_scratch0 = torch.empty((32, 1, 1), dtype=torch.float32, device=device)
// CHECK-NEXT: clusters_graph_def0_stage0[(4, 8, 1)](arg0, graph_def0, clusters_graph_def0_scratch0, num_warps=4)
// CHECK-NEXT: clusters_graph_def0_stage1[(4, 8, 1)](arg0, graph_def0, clusters_graph_def0_scratch0, num_warps=4)

// CHECK-LABEL: def host_ops(arg0, out=None):
// CHECK: chunk0_0, chunk0_1 = [part.contiguous() for part in torch.chunk(arg0, 2, dim=1)]
// CHECK: gelu1 = (0.5 * chunk0_0.float() * (1.0 + torch.erf(chunk0_0.float() * 0.7071067811865476))).to(torch.float16)
// CHECK: reduction2 = chunk0_1.float().reshape((4, 2, 16)).sum(1).to(torch.float16)
// CHECK: return (gelu1, reduction2)

func.func @clusters(%H: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
  %O = mirage_kernel.graph_def(%Hg = %H : tensor<8x4096xf16>) -> tensor<8x4096xf16>
      grid [4, 8, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %h = input_loader %Hg imap <x = 1, y = 0> : tensor<8x4096xf16> -> !mirage_block.stensor<1x1024xf16>
    %sq = thread_graph %h : !mirage_block.stensor<1x1024xf16> -> !mirage_block.stensor<1x1024xf16> {
    ^bb0(%x: f16):
      %s = square %x : f16
      %p = pow %s, %x : f16
      yield %p : f16
    }
    %partial = reduction %sq dim 1 : !mirage_block.stensor<1x1024xf16> -> !mirage_block.stensor<1x1xf16>
    %total = cluster_reduce %partial : !mirage_block.stensor<1x1xf16>
    %y = div %h, %total : !mirage_block.stensor<1x1024xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x1024xf16>
    %o = output_saver %y omap <x = 1, y = 0> : !mirage_block.stensor<1x1024xf16> -> tensor<8x4096xf16>
    yield %o : tensor<8x4096xf16>
  }
  return %O : tensor<8x4096xf16>
}

func.func @host_ops(%X: tensor<4x64xf16>) -> (tensor<4x32xf16>, tensor<4x16xf16>) {
  %lo, %hi = mirage_kernel.chunk %X dim 1 parts 2 : tensor<4x64xf16> -> tensor<4x32xf16>, tensor<4x32xf16>
  %g = mirage_kernel.gelu %lo : tensor<4x32xf16>
  %r = mirage_kernel.reduction %hi dim 1 size 16 : tensor<4x32xf16> -> tensor<4x16xf16>
  return %g, %r : tensor<4x32xf16>, tensor<4x16xf16>
}
