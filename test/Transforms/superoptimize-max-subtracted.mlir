// Softmax and attention as models write them subtract the row maximum
// before exp. The search explores the program without the maximum (the
// verifier first proves it equal), then stabilises each candidate: every
// exp of a block takes its operand minus the maximum of its rows (a running
// maximum in a for-loop), a split's first kernel saves its blocks' maxima
// and its combining kernel rescales each part by exp(m_part - max) as it
// adds them. The stabilised candidates are verified against the program as
// written and scheduled again. The search ranks candidates by the cost of
// their stabilised forms. (Candidates that run Q·K as a library matmul are
// left out here: superoptimize-online-attention.mlir.) The search covers a
// small space completely, with no time limit, so what it finds does not
// depend on the machine's speed (time-limit=0 also checks that the
// stabilised candidates' checks then have no deadline).
// RUN: mirage-opt %s --split-input-file --mirage-superoptimize='time-limit=0 grid-sizes=2,4,8 forloop-ranges=1,8 emit-candidates=true max-candidates=4 kernel-prefixes=false' 2>&1 | FileCheck %s

// A row softmax: one block of rows each, the rows' own maximum.
// CHECK: remark: superoptimized: {{.*}}; the program searched without its maximum shifts, {{[1-9]}} of {{[0-9]+}} candidates stabilised (online softmax)
// CHECK-LABEL: func.func @softmax_candidate_0
// CHECK: %[[X:.*]] = input_loader
// CHECK: %[[M:.*]] = reduction_max %[[X]] dim 1
// CHECK: thread_graph %[[X]], %[[M]]
// CHECK: sub
// CHECK-NEXT: exp
func.func @softmax(%S: tensor<8x256xf16>) -> tensor<8x256xf16> {
  %M = mirage_kernel.reduction_max %S dim 1 : tensor<8x256xf16> -> tensor<8x1xf16>
  %D = mirage_kernel.sub %S, %M : tensor<8x256xf16>, tensor<8x1xf16> -> tensor<8x256xf16>
  %E = mirage_kernel.exp %D : tensor<8x256xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<8x256xf16> -> tensor<8x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<8x256xf16>, tensor<8x1xf16> -> tensor<8x256xf16>
  return %P : tensor<8x256xf16>
}

// -----

// Decode attention (GQA, 4 query rows per group, scaled): split-KV
// candidates whose first kernel subtracts its blocks' maxima and saves them
// beside the parts, and whose combining kernel loops over the parts,
// rescaling each by exp(m_part - max). (With for-loops in the first kernel,
// the maximum runs: superoptimize-online-attention.mlir.)
// CHECK: remark: superoptimized: {{.*}}candidates stabilised (online softmax)
// CHECK-LABEL: func.func @attention_candidate_0
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> (tensor<4x4x{{[0-9]+}}xf16>, tensor<4x4x[[P:[0-9]+]]xf16>, tensor<4x4x[[P]]xf16>)
// CHECK: %[[S:.*]] = mul_scalar
// CHECK: %[[M:.*]] = reduction_max %[[S]] dim 2
// CHECK: thread_graph %[[S]], %[[M]]
// CHECK: output_saver %[[M]]
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: forloop [[P]] {
// CHECK: %[[ALL:.*]] = input_loader %{{.*}} imap <{{.*}}> : tensor<4x4x[[P]]xf16> -> !mirage_block.stensor<{{.*}}x[[P]]xf16>
// CHECK: %[[ONE:.*]] = input_loader %{{.*}} fmap 2 : tensor<4x4x[[P]]xf16> -> !mirage_block.stensor<{{.*}}x1xf16>
// CHECK: %[[MAX:.*]] = reduction_max %[[ALL]] dim 2
// CHECK: thread_graph %[[ONE]], %[[MAX]]
// CHECK: forloop_accum %{{.*}} sum
// CHECK: forloop_accum %{{.*}} sum
func.func @attention(%Q: tensor<4x4x64xf16>, %K: tensor<4x64x2048xf16>, %V: tensor<4x2048x64xf16>) -> tensor<4x4x64xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<4x4x64xf16>, tensor<4x64x2048xf16> -> tensor<4x4x2048xf16>
  %T = mirage_kernel.mul_scalar %S by 0.125 : tensor<4x4x2048xf16>
  %M = mirage_kernel.reduction_max %T dim 2 : tensor<4x4x2048xf16> -> tensor<4x4x1xf16>
  %D = mirage_kernel.sub %T, %M : tensor<4x4x2048xf16>, tensor<4x4x1xf16> -> tensor<4x4x2048xf16>
  %E = mirage_kernel.exp %D : tensor<4x4x2048xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<4x4x2048xf16> -> tensor<4x4x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<4x4x2048xf16>, tensor<4x4x1xf16> -> tensor<4x4x2048xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<4x4x2048xf16>, tensor<4x2048x64xf16> -> tensor<4x4x64xf16>
  return %O : tensor<4x4x64xf16>
}

// -----

// A maximum that does not only shift a softmax is left as written.
// CHECK: remark: left unchanged: its reduction_max is outside the searchable fragment: its maximum does not only shift a softmax
func.func @shifted_exp(%S: tensor<8x256xf16>) -> tensor<8x256xf16> {
  %M = mirage_kernel.reduction_max %S dim 1 : tensor<8x256xf16> -> tensor<8x1xf16>
  %D = mirage_kernel.sub %S, %M : tensor<8x256xf16>, tensor<8x1xf16> -> tensor<8x256xf16>
  %E = mirage_kernel.exp %D : tensor<8x256xf16>
  return %E : tensor<8x256xf16>
}

// -----

// Only a maximum over the last dimension, which shifts its own operand, is
// taken out; other programs with a maximum are left as written.
// CHECK: remark: left unchanged: its reduction_max is outside the searchable fragment: a reduction_max of another dimension than the last
func.func @column_max(%S: tensor<8x256xf16>) -> tensor<8x256xf16> {
  %M = mirage_kernel.reduction_max %S dim 0 : tensor<8x256xf16> -> tensor<1x256xf16>
  %D = mirage_kernel.sub %S, %M : tensor<8x256xf16>, tensor<1x256xf16> -> tensor<8x256xf16>
  %E = mirage_kernel.exp %D : tensor<8x256xf16>
  return %E : tensor<8x256xf16>
}

// -----

// CHECK: remark: left unchanged: its reduction_max is outside the searchable fragment: a reduction_max that does not only shift its own operand
func.func @max_added(%S: tensor<8x256xf16>) -> tensor<8x256xf16> {
  %M = mirage_kernel.reduction_max %S dim 1 : tensor<8x256xf16> -> tensor<8x1xf16>
  %A = mirage_kernel.add %S, %M : tensor<8x256xf16>, tensor<8x1xf16> -> tensor<8x256xf16>
  return %A : tensor<8x256xf16>
}
