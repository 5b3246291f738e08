// Grid sizes follow the shapes: besides the listed sizes (grid-sizes,
// default 2 to 256 in powers of two) that divide a dimension, an extent that
// is not a power of two is tried halved while it stays whole (12 rows: 12,
// 6 and 3 blocks besides 2 and 4), so a row softmax of 12 rows gets one
// row per block. A list passed by the user bounds them (grid-sizes=2,4: up
// to 4, so 3 blocks).
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=20 emit-candidates=true max-candidates=8' 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=20 emit-candidates=true max-candidates=8 grid-sizes=2,4' 2>&1 | FileCheck %s --check-prefix=LISTED

// DEFAULT-DAG: grid [12, 1, 1]
// DEFAULT-DAG: grid [6, 1, 1]
// DEFAULT-DAG: grid [3, 1, 1]
// LISTED-NOT: grid [12, 1, 1]
// LISTED-NOT: grid [6, 1, 1]
// LISTED: grid [3, 1, 1]
// LISTED-NOT: grid [12, 1, 1]
// LISTED-NOT: grid [6, 1, 1]
func.func @softmax(%S: tensor<12x256xf16>) -> tensor<12x256xf16> {
  %E = mirage_kernel.exp %S : tensor<12x256xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<12x256xf16> -> tensor<12x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<12x256xf16>, tensor<12x1xf16> -> tensor<12x256xf16>
  return %P : tensor<12x256xf16>
}
