// RUN: mirage-opt %s --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=SM90
// RUN: mirage-opt %s --mirage-to-ptx-pipeline=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: not mirage-opt %s --mirage-to-ptx-pipeline=chip=sm_75 2>&1 | FileCheck %s --check-prefix=CHIP

// Kernel graphs go all the way to host functions on buffers plus one
// gpu.binary holding the PTX of every kernel (libdevice linked for exp).
// The row softmax is one kernel (a row group of
// mirage-kernel-expand-to-blocks: exp, the row sums and the division on
// whole rows). Divisions are the chip's div.approx.f32, not the correctly
// rounded multi-instruction div.rn.f32; the division stores its results
// straight to global memory (no shared tile, no copy). On sm_90a every
// kernel begins with griddepcontrol (programmatic dependent launch).

// SM90: func.func @softmax_rows(%{{.*}}: memref<8x64xf32>, %{{.*}}: memref<8x64xf32> {mirage.result = 0 : i64})
// SM90: gpu.launch_func @mirage_kernels::@softmax_rows_kernel0 blocks in
// SM90-NOT: gpu.launch_func
// SM90: gpu.binary @mirage_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
// SM90-SAME: .target sm_90a
// SM90-SAME: .visible .entry softmax_rows_kernel0(
// SM90-SAME: .minnctapersm 2
// SM90-SAME: griddepcontrol.launch_dependents;
// SM90-SAME: griddepcontrol.wait;
// SM90-SAME: ex2.approx
// SM90-SAME: div.approx.f32
// SM90-NOT: {{div.rn.f32|st.shared|softmax_rows_kernel1}}
// SM90-SAME: st.global

// SM80: gpu.binary @mirage_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">
// SM80-SAME: .target sm_80
// SM80-NOT: griddepcontrol

// CHIP: error: unknown chip 'sm_75', expected sm_80 or sm_90a

func.func @softmax_rows(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = mirage_kernel.exp %x : tensor<8x64xf32>
  %s = mirage_kernel.reduction %e dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %p = mirage_kernel.div %e, %s : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  return %p : tensor<8x64xf32>
}
