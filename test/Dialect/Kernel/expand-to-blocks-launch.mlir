// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks | FileCheck %s

// A compiled kernel (what convert-mirage-block-to-gpu leaves) is not a
// predefined op: the expansion leaves it alone.
// CHECK-LABEL: func.func @launch
// CHECK-NEXT: mirage_kernel.launch @kernels::@k
// CHECK-NOT: graph_def
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<512xf16>, %y: memref<512xf16>) kernel {
      gpu.return
    }
  }
  func.func @launch(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
    %y = mirage_kernel.launch @kernels::@k(%x) grid [4, 1, 1] block [128, 1, 1]
        cluster [1, 1, 1] shared_memory 0 : (tensor<8x64xf16>) -> tensor<8x64xf16>
    return %y : tensor<8x64xf16>
  }
}
