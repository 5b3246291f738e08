// The time limit bounds the whole search, verification included (issue 25).
// A down projection after a gated MLP: the search finds candidates within a
// second, but each check draws and evaluates millions of input values per
// trial, more than the search's estimate of its cost (multiply-adds alone)
// says. Before the limit reached into the checks, a search with
// time-limit=2 spent 13 s verifying its first candidate; now a check stops at
// the limit (its candidate is then not used), so the search ends within it
// whether or not its last check fits.
// RUN: timeout 60 mirage-opt %s --mirage-superoptimize='time-limit=2 emit-candidates=true' 2>&1 | FileCheck %s

// CHECK: remark: {{left unchanged|superoptimized}}{{.*}} verified in {{[0-2]\.[0-9]+}} s
// CHECK-LABEL: func.func @mlp_down(
// CHECK-LABEL: func.func @mlp_down_as_written(

// The limit bounds the module too: functions share it, so two of them end in
// about 4 s, not 4 s each and their checks (before: 30 s): each ends within
// its share, in verification or, when its checks fit, after them.
// RUN: sed -e 's/@mlp_down/@second/' %s > %t.two.mlir
// RUN: cat %s >> %t.two.mlir
// RUN: timeout 20 mirage-opt %t.two.mlir --mirage-superoptimize='time-limit=4' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODULE
// MODULE-COUNT-2: remark: {{left unchanged|superoptimized}}{{.*}} verified in {{[0-3]\.[0-9]+}} s

func.func @mlp_down(%X: tensor<1x1024xf16>, %W1: tensor<1024x8192xf16>, %W2: tensor<1024x8192xf16>, %W3: tensor<8192x1024xf16>) -> tensor<1x1024xf16> {
  %G = mirage_kernel.matmul %X, %W1 : tensor<1x1024xf16>, tensor<1024x8192xf16> -> tensor<1x8192xf16>
  %A = mirage_kernel.silu %G : tensor<1x8192xf16>
  %U = mirage_kernel.matmul %X, %W2 : tensor<1x1024xf16>, tensor<1024x8192xf16> -> tensor<1x8192xf16>
  %H = mirage_kernel.mul %A, %U : tensor<1x8192xf16>, tensor<1x8192xf16> -> tensor<1x8192xf16>
  %O = mirage_kernel.matmul %H, %W3 : tensor<1x8192xf16>, tensor<8192x1024xf16> -> tensor<1x1024xf16>
  return %O : tensor<1x1024xf16>
}
