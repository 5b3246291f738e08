// Small µGraphs that exercise every path of the Triton backend; fake-triton.test
// runs their modules on the numpy fake and compares them with the interpreter.

// Padded loads along imap/fmap, a dot of 4 rows and 20 columns, and the sum,
// rms_last and max accumulators.
func.func @accumulators(%X: tensor<4x48xf16>, %W: tensor<48x40xf16>) -> tensor<4x40xf16> {
  %O = mirage_kernel.graph_def(%Xg = %X : tensor<4x48xf16>, %Wg = %W : tensor<48x40xf16>)
      -> tensor<4x40xf16> grid [2, 1, 1] block [128, 1, 1] forloop 3 {
    %xt = input_loader %Xg imap <> fmap 1 : tensor<4x48xf16> -> !mirage_block.stensor<4x16xf16>
    %wt = input_loader %Wg imap <x = 1> fmap 0 : tensor<48x40xf16> -> !mirage_block.stensor<16x20xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf16>, !mirage_block.stensor<16x20xf16> -> !mirage_block.stensor<4x20xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x20xf16> -> !mirage_block.stensor<4x20xf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<4x16xf16> -> !mirage_block.stensor<4x1xf16>
    %mx = forloop_accum %mm max : !mirage_block.stensor<4x20xf16> -> !mirage_block.stensor<4x20xf16>
    %y = div %acc, %rms : !mirage_block.stensor<4x20xf16>, !mirage_block.stensor<4x1xf16> -> !mirage_block.stensor<4x20xf16>
    %z = add %y, %mx : !mirage_block.stensor<4x20xf16>, !mirage_block.stensor<4x20xf16> -> !mirage_block.stensor<4x20xf16>
    %o = output_saver %z omap <x = 1> : !mirage_block.stensor<4x20xf16> -> tensor<4x40xf16>
    yield %o : tensor<4x40xf16>
  }
  return %O : tensor<4x40xf16>
}

// Dots whose M, N or K is 1 (grown to 16 by broadcasting).
func.func @unit_dims(%A: tensor<1x32xf16>, %B: tensor<32x1xf16>, %C: tensor<8x1xf16>, %D: tensor<1x8xf16>) -> (tensor<1x1xf16>, tensor<8x8xf16>) {
  %O:2 = mirage_kernel.graph_def(%Ag = %A : tensor<1x32xf16>, %Bg = %B : tensor<32x1xf16>, %Cg = %C : tensor<8x1xf16>, %Dg = %D : tensor<1x8xf16>)
      -> (tensor<1x1xf16>, tensor<8x8xf16>) grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %a = input_loader %Ag imap <> : tensor<1x32xf16> -> !mirage_block.stensor<1x32xf16>
    %b = input_loader %Bg imap <> : tensor<32x1xf16> -> !mirage_block.stensor<32x1xf16>
    %c = input_loader %Cg imap <> : tensor<8x1xf16> -> !mirage_block.stensor<8x1xf16>
    %d = input_loader %Dg imap <> : tensor<1x8xf16> -> !mirage_block.stensor<1x8xf16>
    %ab = matmul %a, %b : !mirage_block.stensor<1x32xf16>, !mirage_block.stensor<32x1xf16> -> !mirage_block.stensor<1x1xf16>
    %cd = matmul %c, %d : !mirage_block.stensor<8x1xf16>, !mirage_block.stensor<1x8xf16> -> !mirage_block.stensor<8x8xf16>
    %o1 = output_saver %ab omap <> : !mirage_block.stensor<1x1xf16> -> tensor<1x1xf16>
    %o2 = output_saver %cd omap <> : !mirage_block.stensor<8x8xf16> -> tensor<8x8xf16>
    yield %o1, %o2 : tensor<1x1xf16>, tensor<8x8xf16>
  }
  return %O#0, %O#1 : tensor<1x1xf16>, tensor<8x8xf16>
}

// Strided reductions to sizes 32 (a reshape), 8 and 24 (lane selection) and 1,
// along either dimension, and the sum_last_to accumulator.
func.func @strided(%P: tensor<4x96xf32>) -> (tensor<4x32xf32>, tensor<4x8xf32>, tensor<4x24xf32>, tensor<1x96xf32>, tensor<4x12xf32>) {
  %O:5 = mirage_kernel.graph_def(%Pg = %P : tensor<4x96xf32>)
      -> (tensor<4x32xf32>, tensor<4x8xf32>, tensor<4x24xf32>, tensor<1x96xf32>, tensor<4x12xf32>)
      grid [1, 1, 1] block [128, 1, 1] forloop 2 {
    %p = input_loader %Pg imap <> : tensor<4x96xf32> -> !mirage_block.stensor<4x96xf32>
    %half = input_loader %Pg imap <> fmap 1 : tensor<4x96xf32> -> !mirage_block.stensor<4x48xf32>
    %r32 = reduction %p dim 1 size 32 : !mirage_block.stensor<4x96xf32> -> !mirage_block.stensor<4x32xf32>
    %r8 = reduction %p dim 1 size 8 : !mirage_block.stensor<4x96xf32> -> !mirage_block.stensor<4x8xf32>
    %r24 = reduction %p dim 1 size 24 : !mirage_block.stensor<4x96xf32> -> !mirage_block.stensor<4x24xf32>
    %r0 = reduction %p dim 0 : !mirage_block.stensor<4x96xf32> -> !mirage_block.stensor<1x96xf32>
    %acc = forloop_accum %half sum_last_to 12 : !mirage_block.stensor<4x48xf32> -> !mirage_block.stensor<4x12xf32>
    %o1 = output_saver %r32 omap <> : !mirage_block.stensor<4x32xf32> -> tensor<4x32xf32>
    %o2 = output_saver %r8 omap <> : !mirage_block.stensor<4x8xf32> -> tensor<4x8xf32>
    %o3 = output_saver %r24 omap <> : !mirage_block.stensor<4x24xf32> -> tensor<4x24xf32>
    %o4 = output_saver %r0 omap <> : !mirage_block.stensor<1x96xf32> -> tensor<1x96xf32>
    %o5 = output_saver %acc omap <> : !mirage_block.stensor<4x12xf32> -> tensor<4x12xf32>
    yield %o1, %o2, %o3, %o4, %o5 : tensor<4x32xf32>, tensor<4x8xf32>, tensor<4x24xf32>, tensor<1x96xf32>, tensor<4x12xf32>
  }
  return %O#0, %O#1, %O#2, %O#3, %O#4 : tensor<4x32xf32>, tensor<4x8xf32>, tensor<4x24xf32>, tensor<1x96xf32>, tensor<4x12xf32>
}

// rms_norm over one and two trailing dimensions, a thread graph with two
// broadcast results (one through libdevice.pow), and a batched f32 dot.
func.func @fused(%X: tensor<2x8x64xf32>, %S: tensor<2x8x1xf32>, %B: tensor<2x64x16xf32>) -> (tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<2x8x16xf32>) {
  %O:3 = mirage_kernel.graph_def(%Xg = %X : tensor<2x8x64xf32>, %Sg = %S : tensor<2x8x1xf32>, %Bg = %B : tensor<2x64x16xf32>)
      -> (tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<2x8x16xf32>) grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    %x = input_loader %Xg imap <x = 0> : tensor<2x8x64xf32> -> !mirage_block.stensor<1x8x64xf32>
    %s = input_loader %Sg imap <x = 0> : tensor<2x8x1xf32> -> !mirage_block.stensor<1x8x1xf32>
    %b = input_loader %Bg imap <x = 0> : tensor<2x64x16xf32> -> !mirage_block.stensor<1x64x16xf32>
    %n1 = rms_norm %x size 64 eps 0.5 : !mirage_block.stensor<1x8x64xf32>
    %n2 = rms_norm %x size 512 : !mirage_block.stensor<1x8x64xf32>
    %g, %p = thread_graph %n1, %s : !mirage_block.stensor<1x8x64xf32>, !mirage_block.stensor<1x8x1xf32> -> !mirage_block.stensor<1x8x64xf32>, !mirage_block.stensor<1x8x64xf32> {
    ^bb0(%a: f32, %c: f32):
      %m = mul %a, %c : f32
      %ge = gelu %m : f32
      %e = exp %c : f32
      %pw = pow %e, %e : f32
      yield %ge, %pw : f32, f32
    }
    %t = add %g, %n2 : !mirage_block.stensor<1x8x64xf32>, !mirage_block.stensor<1x8x64xf32> -> !mirage_block.stensor<1x8x64xf32>
    %mm = matmul %x, %b : !mirage_block.stensor<1x8x64xf32>, !mirage_block.stensor<1x64x16xf32> -> !mirage_block.stensor<1x8x16xf32>
    %o1 = output_saver %t omap <x = 0> : !mirage_block.stensor<1x8x64xf32> -> tensor<2x8x64xf32>
    %o2 = output_saver %p omap <x = 0> : !mirage_block.stensor<1x8x64xf32> -> tensor<2x8x64xf32>
    %o3 = output_saver %mm omap <x = 0> : !mirage_block.stensor<1x8x16xf32> -> tensor<2x8x16xf32>
    yield %o1, %o2, %o3 : tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<2x8x16xf32>
  }
  return %O#0, %O#1, %O#2 : tensor<2x8x64xf32>, tensor<2x8x64xf32>, tensor<2x8x16xf32>
}

// Cluster collectives: a reduce, and a gather whose result a reduce_scatter
// takes, so that the graph_def runs as three kernels.
func.func @clusters(%H: tensor<8x64xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>) {
  %O:2 = mirage_kernel.graph_def(%Hg = %H : tensor<8x64xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>)
      grid [4, 2, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %h = input_loader %Hg imap <x = 1, y = 0> : tensor<8x64xf16> -> !mirage_block.stensor<4x16xf16>
    %part = reduction %h dim 1 : !mirage_block.stensor<4x16xf16> -> !mirage_block.stensor<4x1xf16>
    %total = cluster_reduce %part : !mirage_block.stensor<4x1xf16>
    %y = div %h, %total : !mirage_block.stensor<4x16xf16>, !mirage_block.stensor<4x1xf16> -> !mirage_block.stensor<4x16xf16>
    %all = cluster_gather %h dim 1 : !mirage_block.stensor<4x16xf16> -> !mirage_block.stensor<4x64xf16>
    %sq = square %all : !mirage_block.stensor<4x64xf16>
    %mine = cluster_reduce_scatter %sq dim 1 : !mirage_block.stensor<4x64xf16> -> !mirage_block.stensor<4x16xf16>
    %o1 = output_saver %y omap <x = 1, y = 0> : !mirage_block.stensor<4x16xf16> -> tensor<8x64xf16>
    %o2 = output_saver %mine omap <x = 1, y = 0> : !mirage_block.stensor<4x16xf16> -> tensor<8x64xf16>
    yield %o1, %o2 : tensor<8x64xf16>, tensor<8x64xf16>
  }
  return %O#0, %O#1 : tensor<8x64xf16>, tensor<8x64xf16>
}

// Kernel ops on the host, with a graph_def between them.
func.func @host_ops(%X: tensor<4x64xf16>, %W: tensor<128x32xf16>) -> (tensor<4x16xf16>, tensor<4x128xf16>, tensor<4x32xf32>) {
  %r = mirage_kernel.reduction %X dim 1 size 16 : tensor<4x64xf16> -> tensor<4x16xf16>
  %n = mirage_kernel.rms_norm %X size 64 eps 0.25 : tensor<4x64xf16>
  %s = mirage_kernel.silu %n : tensor<4x64xf16>
  %m = mirage_kernel.mul_scalar %n by 1.5 : tensor<4x64xf16>
  %c = mirage_kernel.concat %s, %m dim 1 : tensor<4x64xf16>, tensor<4x64xf16> -> tensor<4x128xf16>
  %g = mirage_kernel.graph_def(%Cg = %c : tensor<4x128xf16>) -> tensor<4x128xf16>
      grid [1, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %Cg imap <> : tensor<4x128xf16> -> !mirage_block.stensor<4x128xf16>
    %e = neg %t : !mirage_block.stensor<4x128xf16>
    %o = output_saver %e omap <> : !mirage_block.stensor<4x128xf16> -> tensor<4x128xf16>
    yield %o : tensor<4x128xf16>
  }
  %mm = mirage_kernel.matmul %g, %W : tensor<4x128xf16>, tensor<128x32xf16> -> tensor<4x32xf32>
  return %r, %g, %mm : tensor<4x16xf16>, tensor<4x128xf16>, tensor<4x32xf32>
}

// A matmul of rank-4 tiles, whose batch dimensions tl.dot takes folded.
func.func @rank4(%A: tensor<2x2x8x16xf16>, %B: tensor<2x2x16x8xf16>) -> tensor<2x2x8x8xf16> {
  %O = mirage_kernel.graph_def(%Ag = %A : tensor<2x2x8x16xf16>, %Bg = %B : tensor<2x2x16x8xf16>)
      -> tensor<2x2x8x8xf16> grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    %a = input_loader %Ag imap <x = 0> : tensor<2x2x8x16xf16> -> !mirage_block.stensor<1x2x8x16xf16>
    %b = input_loader %Bg imap <x = 0> : tensor<2x2x16x8xf16> -> !mirage_block.stensor<1x2x16x8xf16>
    %c = matmul %a, %b : !mirage_block.stensor<1x2x8x16xf16>, !mirage_block.stensor<1x2x16x8xf16> -> !mirage_block.stensor<1x2x8x8xf16>
    %o = output_saver %c omap <x = 0> : !mirage_block.stensor<1x2x8x8xf16> -> tensor<2x2x8x8xf16>
    yield %o : tensor<2x2x8x8xf16>
  }
  return %O : tensor<2x2x8x8xf16>
}

// A dot whose loaded operands, 16x4096 and 4096x16 once padded, exceed what
// tl.dot may stage in shared memory (a saved upstream µGraph of this form
// ran out of it on an H200): it walks K in chunks, loading each again.
func.func @deep_dot(%X: tensor<2x4096xf16>, %W: tensor<4096x16xf16>) -> tensor<2x16xf16> {
  %O = mirage_kernel.graph_def(%Xg = %X : tensor<2x4096xf16>, %Wg = %W : tensor<4096x16xf16>)
      -> tensor<2x16xf16> grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    %x = input_loader %Xg imap <> : tensor<2x4096xf16> -> !mirage_block.stensor<2x4096xf16>
    %w = input_loader %Wg imap <x = 1> : tensor<4096x16xf16> -> !mirage_block.stensor<4096x8xf16>
    %rms = forloop_accum %x rms_last : !mirage_block.stensor<2x4096xf16> -> !mirage_block.stensor<2x1xf16>
    %mm = matmul %x, %w : !mirage_block.stensor<2x4096xf16>, !mirage_block.stensor<4096x8xf16> -> !mirage_block.stensor<2x8xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x8xf16> -> !mirage_block.stensor<2x8xf16>
    %y = div %acc, %rms : !mirage_block.stensor<2x8xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x8xf16>
    %o = output_saver %y omap <x = 1> : !mirage_block.stensor<2x8xf16> -> tensor<2x16xf16>
    yield %o : tensor<2x16xf16>
  }
  return %O : tensor<2x16xf16>
}

// Softmax with its row maximum: at kernel level (torch's amax in the host
// function) and in a graph_def of 24-element rows, padded to 32 lanes whose
// maximum must not count (tl.max over -inf padding; the rows are negative,
// and the maximum is an output: the softmax alone would hide a wrong one).
func.func @stable(%S: tensor<4x24xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x24xf32>) {
  %M = mirage_kernel.reduction_max %S dim 1 : tensor<4x24xf32> -> tensor<4x1xf32>
  %Q = mirage_kernel.square %S : tensor<4x24xf32>
  %N = mirage_kernel.neg %Q : tensor<4x24xf32>
  %P:2 = mirage_kernel.graph_def(%Sg = %N : tensor<4x24xf32>) -> (tensor<4x1xf32>, tensor<4x24xf32>) grid [4, 1, 1] block [128, 1, 1] forloop 1 {
    %s = input_loader %Sg imap <x = 0> : tensor<4x24xf32> -> !mirage_block.stensor<1x24xf32>
    %m = reduction_max %s dim 1 : !mirage_block.stensor<1x24xf32> -> !mirage_block.stensor<1x1xf32>
    %d = sub %s, %m : !mirage_block.stensor<1x24xf32>, !mirage_block.stensor<1x1xf32> -> !mirage_block.stensor<1x24xf32>
    %e = exp %d : !mirage_block.stensor<1x24xf32>
    %r = reduction %e dim 1 : !mirage_block.stensor<1x24xf32> -> !mirage_block.stensor<1x1xf32>
    %q = div %e, %r : !mirage_block.stensor<1x24xf32>, !mirage_block.stensor<1x1xf32> -> !mirage_block.stensor<1x24xf32>
    %om = output_saver %m omap <x = 0> : !mirage_block.stensor<1x1xf32> -> tensor<4x1xf32>
    %o = output_saver %q omap <x = 0> : !mirage_block.stensor<1x24xf32> -> tensor<4x24xf32>
    yield %om, %o : tensor<4x1xf32>, tensor<4x24xf32>
  }
  return %M, %P#0, %P#1 : tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x24xf32>
}

// A batch dimension of 3 (the heads of a group): padded to 4 lanes, not to
// tl.dot's 16, in a batched dot, a sum over it and a row maximum, with its
// padding masked in loads, sums and stores.
func.func @batch_pad(%Q: tensor<3x4x16xf16>, %K: tensor<3x16x40xf16>) -> (tensor<3x4x40xf16>, tensor<1x4x16xf16>, tensor<3x4x1xf16>) {
  %O:3 = mirage_kernel.graph_def(%Qg = %Q : tensor<3x4x16xf16>, %Kg = %K : tensor<3x16x40xf16>)
      -> (tensor<3x4x40xf16>, tensor<1x4x16xf16>, tensor<3x4x1xf16>) grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %q = input_loader %Qg imap <> : tensor<3x4x16xf16> -> !mirage_block.stensor<3x4x16xf16>
    %k = input_loader %Kg imap <> : tensor<3x16x40xf16> -> !mirage_block.stensor<3x16x40xf16>
    %s = matmul %q, %k : !mirage_block.stensor<3x4x16xf16>, !mirage_block.stensor<3x16x40xf16> -> !mirage_block.stensor<3x4x40xf16>
    %e = exp %s : !mirage_block.stensor<3x4x40xf16>
    %h = reduction %q dim 0 : !mirage_block.stensor<3x4x16xf16> -> !mirage_block.stensor<1x4x16xf16>
    %m = reduction_max %s dim 2 : !mirage_block.stensor<3x4x40xf16> -> !mirage_block.stensor<3x4x1xf16>
    %o1 = output_saver %e omap <> : !mirage_block.stensor<3x4x40xf16> -> tensor<3x4x40xf16>
    %o2 = output_saver %h omap <> : !mirage_block.stensor<1x4x16xf16> -> tensor<1x4x16xf16>
    %o3 = output_saver %m omap <> : !mirage_block.stensor<3x4x1xf16> -> tensor<3x4x1xf16>
    yield %o1, %o2, %o3 : tensor<3x4x40xf16>, tensor<1x4x16xf16>, tensor<3x4x1xf16>
  }
  return %O#0, %O#1, %O#2 : tensor<3x4x40xf16>, tensor<1x4x16xf16>, tensor<3x4x1xf16>
}
