// Split µGraphs (split-KV attention): the first graph_def's grid also splits
// the key/value dimension and saves partial numerators and denominators side
// by side; the combining graph_def sums them with strided reductions.
// RUN: mirage-opt %s --mirage-superoptimize='single-kernels=false seed=7' 2>&1 | FileCheck %s
// RUN: not mirage-opt %s --mirage-superoptimize='single-kernels=false split-kernels=false' 2>&1 | FileCheck %s --check-prefix=NONE
// The result is proved equivalent to the input again, independently.
// RUN: mirage-opt %s --mirage-superoptimize='single-kernels=false' 2>/dev/null | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@attention/@searched/' > %t.searched.mlir
// RUN: cat %s %t.searched.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// NONE: error: single-kernels and split-kernels are both off: nothing to search
// EQUIV: remark: is equivalent to @attention

// CHECK: remark: superoptimized: {{.*}} {{[1-9][0-9]*}} of {{[0-9]+}} verified
// CHECK-LABEL: func.func @attention
// CHECK: %[[P:.*]]:2 = mirage_kernel.graph_def
// CHECK-SAME: -> (tensor<1x16x{{[0-9]+}}xf16>, tensor<1x16x{{[0-9]+}}xf16>) grid [{{[0-9]+}}, [[SPLIT:[0-9]+]], 1]
// CHECK: input_loader %{{.*}} imap <{{.*}}y = 2> {{.*}}: tensor<1x8x256xf16>
// CHECK: input_loader %{{.*}} imap <{{.*}}y = 1> {{.*}}: tensor<1x256x8xf16>
// CHECK: exp
// CHECK: output_saver %{{.*}} omap <{{.*}}y = 2>
// CHECK: output_saver %{{.*}} omap <{{.*}}y = 2>
// CHECK: mirage_kernel.graph_def(%{{.*}} = %[[P]]#0 : {{.*}}, %{{.*}} = %[[P]]#1 : {{.*}}) -> tensor<1x16x8xf16>
// CHECK-DAG: reduction %{{.*}} dim 2 size 8
// CHECK-DAG: reduction %{{.*}} dim 2 :
// CHECK: div
// CHECK: output_saver
func.func @attention(%q: tensor<1x16x8xf16>, %k: tensor<1x8x256xf16>, %v: tensor<1x256x8xf16>) -> tensor<1x16x8xf16> {
  %s = mirage_kernel.matmul %q, %k : tensor<1x16x8xf16>, tensor<1x8x256xf16> -> tensor<1x16x256xf16>
  %e = mirage_kernel.exp %s : tensor<1x16x256xf16>
  %r = mirage_kernel.reduction %e dim 2 : tensor<1x16x256xf16> -> tensor<1x16x1xf16>
  %d = mirage_kernel.div %e, %r : tensor<1x16x256xf16>, tensor<1x16x1xf16> -> tensor<1x16x256xf16>
  %o = mirage_kernel.matmul %d, %v : tensor<1x16x256xf16>, tensor<1x256x8xf16> -> tensor<1x16x8xf16>
  return %o : tensor<1x16x8xf16>
}
