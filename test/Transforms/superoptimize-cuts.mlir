// mirage-superoptimize also searches µGraphs of two parts: a gated MLP with
// its down projection and residual is cut at silu(x W1) * (x W2), the value
// the down projection reads, and each side is searched apart. No one
// graph_def holds all three matmuls, so the result is a composition: a
// kernel for the norm, gate/up and activation, then one for the down
// projection and the residual. mirage-check-equivalence proves the
// emitted candidates against the program as written. With cuts=false there
// is no such candidate. (kernel-prefixes=false: the candidates that keep
// the norm as a library op would compete.)
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=1,2 grid-sizes=2,4,8 max-candidates=2 kernel-prefixes=false' 2>&1 | FileCheck %s
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=1,2 grid-sizes=2,4,8 max-candidates=2 kernel-prefixes=false emit-candidates=true use-tuning-db=false' 2>/dev/null | mirage-opt --mirage-check-equivalence=reference=mlp_as_written 2>&1 | FileCheck %s --check-prefix=PROOF
// Parts are taken apart once more: with max-ops=4 no graph_def holds the
// norm with both gate and up (nor the whole rest after the norm), so the
// best keeps the norm as a library op and cuts the rest after it in two.
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=1,2 grid-sizes=2,4,8 max-ops=4 max-candidates=2' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=1,2 grid-sizes=2,4,8 max-ops=4 max-candidates=2 emit-candidates=true use-tuning-db=false' 2>/dev/null | mirage-opt --mirage-check-equivalence=reference=mlp_as_written 2>&1 | FileCheck %s --check-prefix=PROOF
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=1,2 grid-sizes=2,4,8 max-candidates=2 kernel-prefixes=false cuts=false' 2>&1 | FileCheck %s --check-prefix=OFF

// Candidates of other tilings (extra-tilings): each side of the cut also
// gives the cheapest of up to 2 tilings its best 3 lack (the rest in a
// kernel of 2 blocks here), so there are more compositions, and the
// function keeps, besides its best K, the cheapest of tilings they lack.
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=1,2 grid-sizes=2,4,8 max-candidates=4 kernel-prefixes=false extra-tilings=0 threads=128 emit-candidates=true use-tuning-db=false' 2>&1 | FileCheck %s --check-prefix=ONEGRID
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=1,2 grid-sizes=2,4,8 max-candidates=4 kernel-prefixes=false extra-tilings=2 threads=128 emit-candidates=true use-tuning-db=false' 2>&1 | FileCheck %s --check-prefix=TILINGS
// ONEGRID: kept 4 of 15 candidates made of the two sides of a cut
// ONEGRID-NOT: grid [2, 1, 1]
// TILINGS: kept 6 of 24 candidates made of the two sides of a cut
// TILINGS: func.func @mlp_candidate_4(
// TILINGS: mirage_kernel.graph_def{{.*}} grid [8, 1, 1]
// TILINGS: mirage_kernel.graph_def{{.*}} grid [2, 1, 1]
// TILINGS: func.func @mlp_candidate_5(
// TILINGS: mirage_kernel.graph_def{{.*}} grid [4, 1, 1]
// TILINGS: mirage_kernel.graph_def{{.*}} grid [2, 1, 1]
// TILINGS-NOT: func.func @mlp_candidate_6

// CHECK: remark: superoptimized: {{.*}}; kept {{[1-9]}} of {{[1-9][0-9]*}} candidates made of the two sides of a cut
// CHECK: func.func @mlp(
// CHECK: mirage_kernel.graph_def
// CHECK: rms_norm
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: %0
// CHECK: matmul
// CHECK: add
// CHECK: return
// PROOF-COUNT-3: remark: is equivalent to @mlp_as_written
// OFF: remark: left unchanged, no verified candidate:
// OFF-NOT: sides of a cut
// NESTED: remark: superoptimized:
// NESTED: %0 = mirage_kernel.rms_norm
// NESTED-NEXT: %1 = mirage_kernel.graph_def({{.*}}%0 :
// NESTED: %2 = mirage_kernel.graph_def({{.*}}%1 :
// NESTED: return %2
func.func @mlp(%x: tensor<1x64xf16>, %w1: tensor<64x128xf16>, %w2: tensor<64x128xf16>, %w3: tensor<128x64xf16>) -> tensor<1x64xf16> {
  %n = mirage_kernel.rms_norm %x size 64 eps 1.0e-6 : tensor<1x64xf16>
  %g = mirage_kernel.matmul %n, %w1 : tensor<1x64xf16>, tensor<64x128xf16> -> tensor<1x128xf16>
  %s = mirage_kernel.silu %g : tensor<1x128xf16>
  %u = mirage_kernel.matmul %n, %w2 : tensor<1x64xf16>, tensor<64x128xf16> -> tensor<1x128xf16>
  %m = mirage_kernel.mul %s, %u : tensor<1x128xf16>, tensor<1x128xf16> -> tensor<1x128xf16>
  %d = mirage_kernel.matmul %m, %w3 : tensor<1x128xf16>, tensor<128x64xf16> -> tensor<1x64xf16>
  %o = mirage_kernel.add %x, %d : tensor<1x64xf16>, tensor<1x64xf16> -> tensor<1x64xf16>
  return %o : tensor<1x64xf16>
}

