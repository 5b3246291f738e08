// mirage-superoptimize also searches µGraphs that keep a leading op (here
// attention's Q·K) as a library op and search the rest; the remark counts
// them, and with kernel-prefixes=false there are none.
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=20 max-candidates=4' 2>&1 | FileCheck %s
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=20 max-candidates=4 kernel-prefixes=false' 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK: remark: superoptimized: {{.*}}; kept {{[0-9]+}} of {{[1-9][0-9]*}} candidates that run a leading op as a library op
// OFF: remark: superoptimized:
// OFF-NOT: leading op
func.func @attention(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<2x32x16xf16>, tensor<2x16x256xf16> -> tensor<2x32x256xf16>
  %E = mirage_kernel.exp %S : tensor<2x32x256xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<2x32x256xf16> -> tensor<2x32x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<2x32x256xf16>, tensor<2x32x1xf16> -> tensor<2x32x256xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<2x32x256xf16>, tensor<2x256x16xf16> -> tensor<2x32x16xf16>
  return %O : tensor<2x32x16xf16>
}
