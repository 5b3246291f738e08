// RUN: mirage-opt %s --convert-mirage-block-to-gpu=chip=sm_90a | FileCheck %s --check-prefix=SM90
// RUN: mirage-opt %s --convert-mirage-block-to-gpu=chip=sm_80 | FileCheck %s --check-prefix=SM80

// Programmatic dependent launch: on sm_90a every kernel starts by letting the
// next kernel of the stream launch once all of its blocks have started, then
// waits for the kernels it depends on to finish, before it loads anything.
// The runtime launches such a kernel to overlap the one before it. sm_80 has
// no griddepcontrol; its kernels start with their loads.

// SM90-LABEL: gpu.func @split_kernel0
// SM90-NEXT: nvvm.griddepcontrol launch_dependents
// SM90-NEXT: nvvm.griddepcontrol wait
// SM90-LABEL: gpu.func @split_kernel1
// SM90-NEXT: nvvm.griddepcontrol launch_dependents
// SM90-NEXT: nvvm.griddepcontrol wait
// SM80-NOT: griddepcontrol
func.func @split(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %e = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> tensor<64x64xf16>
      grid [4, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
    %s = exp %t : !mirage_block.stensor<16x64xf16>
    %r = output_saver %s omap <x = 0> : !mirage_block.stensor<16x64xf16> -> tensor<64x64xf16>
    yield %r : tensor<64x64xf16>
  }
  %n = mirage_kernel.graph_def(%E = %e : tensor<64x64xf16>) -> tensor<64x64xf16>
      grid [4, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %E imap <x = 0> : tensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
    %s = neg %t : !mirage_block.stensor<16x64xf16>
    %r = output_saver %s omap <x = 0> : !mirage_block.stensor<16x64xf16> -> tensor<64x64xf16>
    yield %r : tensor<64x64xf16>
  }
  return %n : tensor<64x64xf16>
}
