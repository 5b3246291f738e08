// Linear splits: LoRA's X W + (X A) B is linear in the sums over the rows of
// W and A, so a first graph_def whose grid splits those rows (y) as well as
// the output's columns (x) adds each block's X_s W_s and (X_s A_s) B, saves
// the term with its split stacked along the rows, and a combining graph_def
// sums the terms with a strided reduction of the rows.
// RUN: mirage-opt %s --mirage-superoptimize='single-kernels=false kernel-prefixes=false cuts=false seed=7' 2>&1 | FileCheck %s
// With linear-splits=false the search has no such split:
// RUN: mirage-opt %s --mirage-superoptimize='single-kernels=false kernel-prefixes=false cuts=false linear-splits=false seed=7' 2>&1 | FileCheck %s --check-prefix=OFF
// The result is proved equivalent to the input again, independently.
// RUN: mirage-opt %s --mirage-superoptimize='single-kernels=false kernel-prefixes=false cuts=false seed=7' 2>/dev/null | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@lora/@searched/' > %t.searched.mlir
// RUN: cat %s %t.searched.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// EQUIV: remark: is equivalent to @lora
// OFF: remark: left unchanged, no verified candidate:
// OFF-NOT: reduction %{{.*}} dim 0

// CHECK: remark: superoptimized: {{.*}} {{[1-9][0-9]*}} of {{[0-9]+}} verified
// CHECK-LABEL: func.func @lora
// CHECK: %[[T:.*]] = mirage_kernel.graph_def
// CHECK-SAME: -> tensor<[[ROWS:[0-9]+]]x256xf16> grid [{{[0-9]+}}, [[SPLIT:[0-9]+]], 1]
// CHECK: input_loader %{{.*}} imap <y = 1> {{.*}}: tensor<16x2048xf16>
// CHECK: input_loader %{{.*}} imap <x = 1, y = 0> {{.*}}: tensor<2048x256xf16>
// CHECK: input_loader %{{.*}} imap <y = 0> {{.*}}: tensor<2048x16xf16>
// CHECK: input_loader %{{.*}} imap <x = 1> : tensor<16x256xf16>
// CHECK: add
// CHECK: output_saver %{{.*}} omap <x = 1, y = 0>
// CHECK: mirage_kernel.graph_def(%{{.*}} = %[[T]] : tensor<[[ROWS]]x256xf16>) -> tensor<16x256xf16>
// CHECK: reduction %{{.*}} dim 0 size 16
// CHECK: output_saver
func.func @lora(%X: tensor<16x2048xf16>, %W: tensor<2048x256xf16>, %A: tensor<2048x16xf16>, %B: tensor<16x256xf16>) -> tensor<16x256xf16> {
  %XW = mirage_kernel.matmul %X, %W : tensor<16x2048xf16>, tensor<2048x256xf16> -> tensor<16x256xf16>
  %XA = mirage_kernel.matmul %X, %A : tensor<16x2048xf16>, tensor<2048x16xf16> -> tensor<16x16xf16>
  %XAB = mirage_kernel.matmul %XA, %B : tensor<16x16xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  %O = mirage_kernel.add %XW, %XAB : tensor<16x256xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  return %O : tensor<16x256xf16>
}
