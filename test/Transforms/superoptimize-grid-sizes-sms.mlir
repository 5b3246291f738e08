// By default, an extent that is not a power of two is halved down from
// eight blocks per multiprocessor of the chip (1056 on an H100, sm_90a; 864
// on an A100, sm_80; getGridSizes in unittests/Search pins the bound): 592
// rows get 592, 296, 148, 74 and 37 blocks. A list passed by the user
// bounds them instead (grid-sizes=...,256: no 296).
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=20 emit-candidates=true max-candidates=8' 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=20 emit-candidates=true max-candidates=8 grid-sizes=2,4,8,16,32,64,128,256' 2>&1 | FileCheck %s --check-prefix=LISTED

// DEFAULT: grid [296, 1, 1]
// LISTED-NOT: grid [296, 1, 1]
// LISTED: grid [148, 1, 1]
// LISTED-NOT: grid [296, 1, 1]
func.func @softmax(%S: tensor<592x64xf16>) -> tensor<592x64xf16> {
  %E = mirage_kernel.exp %S : tensor<592x64xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<592x64xf16> -> tensor<592x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<592x64xf16>, tensor<592x1xf16> -> tensor<592x64xf16>
  return %P : tensor<592x64xf16>
}
