// RUN: mirage-translate --export-mirage-json %s | FileCheck %s --check-prefix=JSON
// RUN: mirage-translate --export-mirage-json %s | mirage-translate --import-mirage-json --mirage-json-prefix=g | FileCheck %s

// The fused RMSNorm + Linear leaves and comes back in the upstream format.
// JSON-DAG: "op_type": "kn_input_op"
// JSON-DAG: "op_type": "kn_customized_op"
// JSON-DAG: "op_type": "tb_accum_red_ld_rms_op"
// JSON-DAG: "op_type": "kn_output_op"
// CHECK-LABEL: func.func @g_0(%{{.*}}: tensor<2x64xf16>, %{{.*}}: tensor<64x96xf16>) -> tensor<2x96xf16>
// CHECK: grid [4, 1, 1] block [128, 1, 1] forloop 4
// CHECK: input_loader %{{.*}} imap <> fmap 1
// CHECK: forloop_accum %{{.*}} rms_last
// CHECK: output_saver %{{.*}} omap <x = 1>
func.func @fused(%x: tensor<2x64xf16>, %w: tensor<64x96xf16>) -> tensor<2x96xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x64xf16>, %W = %w : tensor<64x96xf16>)
      -> tensor<2x96xf16> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<2x64xf16> -> !mirage_block.stensor<2x16xf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x96xf16> -> !mirage_block.stensor<16x24xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x16xf16>, !mirage_block.stensor<16x24xf16> -> !mirage_block.stensor<2x24xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x24xf16> -> !mirage_block.stensor<2x24xf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<2x16xf16> -> !mirage_block.stensor<2x1xf16>
    %y = div %acc, %rms : !mirage_block.stensor<2x24xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x24xf16>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<2x24xf16> -> tensor<2x96xf16>
    yield %out : tensor<2x96xf16>
  }
  return %o : tensor<2x96xf16>
}
