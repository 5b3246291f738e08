// RUN: mirage-opt %s --mirage-estimate-cost -o /dev/null 2>&1 | FileCheck %s
// RUN: mirage-opt %s --mirage-estimate-cost='chip=sm_80' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks --mirage-estimate-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: not mirage-opt %s --mirage-estimate-cost='chip=sm_75' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP

// One launch reading 2x64 and 64x32 f16 and writing 2x32 f16: 4,480 bytes;
// 2x32 results of 64 terms on tensor cores, the 2 rows padded to a 16-row
// tile: 16 * 32 * 64 = 32,768 multiply-adds, tiled or not.
// CHECK: remark: @linear: estimated {{[0-9.]+}} us on sm_90a: 4480 bytes of global memory, 32768 multiply-adds, 1 launches, 0 bytes of shared memory per block
// SM80: remark: @linear: estimated {{[0-9.]+}} us on sm_80: 4480 bytes of global memory, 32768 multiply-adds, 1 launches
// BLOCKS: remark: @linear: estimated {{[0-9.]+}} us on sm_90a: {{[0-9]+}} bytes of global memory, 32768 multiply-adds, 1 launches, {{[1-9][0-9]*}} bytes of shared memory per block
// CHIP: error: chip must be sm_80 or sm_90a, got 'sm_75'
func.func @linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %o = mirage_kernel.matmul %x, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
