// QKNorm attention, small: split-KV with the query and value rows
// normalised by block-level rms_norms inside the first graph_def.
// RUN: mirage-opt %s --mirage-superoptimize='single-kernels=false forloop-ranges=1 search-threads=2 seed=3' 2>&1 | FileCheck %s
// The result is proved equivalent to the input again, independently.
// RUN: mirage-opt %s --mirage-superoptimize='single-kernels=false forloop-ranges=1' 2>/dev/null | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@qknorm/@searched/' > %t.searched.mlir
// RUN: cat %s %t.searched.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// EQUIV: remark: is equivalent to @qknorm

// CHECK: remark: superoptimized: {{.*}} 1 of {{[0-9]+}} verified
// CHECK-LABEL: func.func @qknorm
// CHECK: %[[P:.*]]:2 = mirage_kernel.graph_def
// CHECK-SAME: grid [{{[0-9]+}}, {{[0-9]+}}, 1]
// CHECK-DAG: rms_norm %{{.*}} size 8 : !mirage_block.stensor<1x{{[0-9]+}}x8xf16>
// CHECK-DAG: rms_norm %{{.*}} size 8 : !mirage_block.stensor<1x{{[0-9]+}}x8xf16>
// CHECK: output_saver %{{.*}} omap <{{.*}}y = 2>
// CHECK: output_saver %{{.*}} omap <{{.*}}y = 2>
// CHECK: mirage_kernel.graph_def(%{{.*}} = %[[P]]#0 : {{.*}}, %{{.*}} = %[[P]]#1 : {{.*}}) -> tensor<1x16x8xf16>
// CHECK-DAG: reduction %{{.*}} dim 2 size 8
// CHECK-DAG: reduction %{{.*}} dim 2 :
// CHECK: div
// CHECK-NOT: mirage_kernel.rms_norm
func.func @qknorm(%Q: tensor<1x16x8xf16>, %K: tensor<1x8x256xf16>, %V: tensor<1x256x8xf16>) -> tensor<1x16x8xf16> {
  %Qn = mirage_kernel.rms_norm %Q size 8 : tensor<1x16x8xf16>
  %Vn = mirage_kernel.rms_norm %V size 8 : tensor<1x256x8xf16>
  %S = mirage_kernel.matmul %Qn, %K : tensor<1x16x8xf16>, tensor<1x8x256xf16> -> tensor<1x16x256xf16>
  %E = mirage_kernel.exp %S : tensor<1x16x256xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<1x16x256xf16> -> tensor<1x16x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<1x16x256xf16>, tensor<1x16x1xf16> -> tensor<1x16x256xf16>
  %O = mirage_kernel.matmul %P, %Vn : tensor<1x16x256xf16>, tensor<1x256x8xf16> -> tensor<1x16x8xf16>
  return %O : tensor<1x16x8xf16>
}
