// RUN: mirage-translate --mirage-to-triton %s | FileCheck %s

// The fused RMSNorm + Linear: one kernel, loads following imap/fmap, a dot
// padded from 2 rows to 16, two accumulators and a post-loop division.

// CHECK-LABEL: import triton.language as tl
// CHECK-NOT: libdevice

// CHECK-LABEL: @triton.jit
// CHECK-NEXT: def fused_graph_def0(in0, in1, out0):
// CHECK-NEXT: # One program per block of grid [256, 1, 1], a for-loop of 32 iterations; computes the block graph.
// CHECK-NEXT: pid_x = tl.program_id(0)
// CHECK-NEXT: pid_y = tl.program_id(1)
// CHECK-NEXT: pid_z = tl.program_id(2)
// CHECK-NEXT: # acc3 accumulates matmul2 (sum)
// CHECK-NEXT: acc3 = tl.zeros((16, 32), tl.float32)
// CHECK-NEXT: # acc4 accumulates load0 (rms_last)
// CHECK-NEXT: acc4 = tl.zeros((16, 1), tl.float32)
// CHECK-NEXT: for i in range(0, 32):
// CHECK-NEXT: # load0 = input_loader(in0) {fmap = 1 : i64, imap = #mirage_block.map<>} -> 2x128xf16
// CHECK-NEXT: load0 = tl.load(in0 + (tl.arange(0, 16))[:, None] * 4096 + (i * 128 + tl.arange(0, 128))[None, :], mask=(tl.arange(0, 16) < 2)[:, None], other=0.0).to(tl.float32)
// CHECK-NEXT: # load1 = input_loader(in1) {fmap = 0 : i64, imap = #mirage_block.map<x = 1>} -> 128x24xf16
// CHECK-NEXT: load1 = tl.load(in1 + (i * 128 + tl.arange(0, 128))[:, None] * 6144 + (pid_x * 24 + tl.arange(0, 32))[None, :], mask=(tl.arange(0, 32) < 24)[None, :], other=0.0).to(tl.float32)
// CHECK-NEXT: # matmul2 = matmul(load0, load1) -> 2x24xf16
// CHECK-NEXT: matmul2_lhs = (load0).to(tl.float16)
// CHECK-NEXT: matmul2_rhs = (load1).to(tl.float16)
// CHECK-NEXT: matmul2 = tl.dot(matmul2_lhs, matmul2_rhs)
// CHECK-NEXT: # acc3 = forloop_accum(matmul2) {eps = 0.000000e+00 : f32, kind = #mirage_block<accum_kind sum>} -> 2x24xf16
// CHECK-NEXT: acc3 += matmul2
// CHECK-NEXT: # acc4 = forloop_accum(load0) {eps = 0.000000e+00 : f32, kind = #mirage_block<accum_kind rms_last>} -> 2x1xf16
// CHECK-NEXT: acc4 += tl.sum(load0 * load0, axis=1, keep_dims=True)
// CHECK-NEXT: acc4 = tl.sqrt(acc4 / 4096.0)
// CHECK-NEXT: # div5 = div(acc3, acc4) -> 2x24xf16
// CHECK-NEXT: div5 = (acc3 / acc4)
// CHECK-NEXT: # out0 = output_saver(div5) {omap = #mirage_block.map<x = 1>} -> 2x6144xf16
// CHECK-NEXT: tl.store(out0 + (tl.arange(0, 16))[:, None] * 6144 + (pid_x * 24 + tl.arange(0, 32))[None, :], div5.to(tl.float16), mask=(tl.arange(0, 16) < 2)[:, None] & (tl.arange(0, 32) < 24)[None, :])

// A graph_def whose result the function returns writes into `out` when
// one is given; a host op's result is copied there.
// CHECK-LABEL: def fused(arg0, arg1, out=None):
// CHECK-NEXT: """@fused: takes contiguous CUDA tensors; returns a tuple of new ones, or fills the contiguous tensors of the tuple `out` and returns it."""
// CHECK-NEXT: assert arg0.shape == (2, 4096) and arg0.dtype == torch.float16 and arg0.is_contiguous()
// CHECK-NEXT: assert arg1.shape == (4096, 6144) and arg1.dtype == torch.float16 and arg1.is_contiguous()
// CHECK-NEXT: assert out is None or (len(out) == 1 and out[0].shape == (2, 6144) and out[0].dtype == torch.float16 and out[0].is_contiguous())
// CHECK-NEXT: device = arg0.device
// CHECK-NEXT: # graph_def0 = graph_def(arg0, arg1)
// CHECK-NEXT: graph_def0 = out[0] if out is not None else torch.empty((2, 6144), dtype=torch.float16, device=device)
// CHECK-NEXT: fused_graph_def0[(256, 1, 1)](arg0, arg1, graph_def0, num_warps=4)
// CHECK-NEXT: return (graph_def0,)

// CHECK-LABEL: def reference(arg0, arg1, out=None):
// CHECK-NOT: device =
// CHECK: # rms_norm0 = rms_norm(arg0) {eps = 9.99999997E-7 : f32, size = 4096 : i64}
// CHECK-NEXT: rms_norm0_rows = arg0.float().reshape(-1, 4096)
// CHECK-NEXT: rms_norm0 = (rms_norm0_rows / torch.sqrt(rms_norm0_rows.square().mean(-1, keepdim=True) + 9.99999997e-07)).reshape((2, 4096)).to(torch.float16)
// CHECK-NEXT: # matmul1 = matmul(rms_norm0, arg1)
// CHECK-NEXT: matmul1 = torch.matmul(rms_norm0, arg1)
// CHECK-NEXT: if out is not None:
// CHECK-NEXT: out[0].copy_(matmul1)
// CHECK-NEXT: return tuple(out)
// CHECK-NEXT: return (matmul1,)

// CHECK: #: Every host function: symbol name -> (function, input specs, output specs),
// CHECK-NEXT: #: a spec being (shape, dtype).
// CHECK-NEXT: FUNCTIONS = {
// CHECK-NEXT: "fused": (fused, [((2, 4096), torch.float16), ((4096, 6144), torch.float16)], [((2, 6144), torch.float16)]),
// CHECK-NEXT: "reference": (reference, [((2, 4096), torch.float16), ((4096, 6144), torch.float16)], [((2, 6144), torch.float16)]),
// CHECK-NEXT: }

func.func @fused(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %O = mirage_kernel.graph_def(%Xg = %X : tensor<2x4096xf16>, %Wg = %W : tensor<4096x6144xf16>)
      -> tensor<2x6144xf16> grid [256, 1, 1] block [128, 1, 1] forloop 32 {
    %xt = input_loader %Xg imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x128xf16>
    %wt = input_loader %Wg imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<128x24xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x128xf16>, !mirage_block.stensor<128x24xf16> -> !mirage_block.stensor<2x24xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x24xf16> -> !mirage_block.stensor<2x24xf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<2x128xf16> -> !mirage_block.stensor<2x1xf16>
    %y = div %acc, %rms : !mirage_block.stensor<2x24xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x24xf16>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<2x24xf16> -> tensor<2x6144xf16>
    yield %out : tensor<2x6144xf16>
  }
  return %O : tensor<2x6144xf16>
}

func.func @reference(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %N = mirage_kernel.rms_norm %X size 4096 eps 9.99999997E-7 : tensor<2x4096xf16>
  %O = mirage_kernel.matmul %N, %W : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %O : tensor<2x6144xf16>
}
