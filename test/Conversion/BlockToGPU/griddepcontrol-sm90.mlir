// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=chip=sm_90a | FileCheck %s --check-prefix=SM90
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=chip=sm_80 | FileCheck %s --check-prefix=SM80

// Programmatic dependent launch: on sm_90a every kernel starts by letting the
// next kernel of the stream launch once all of its blocks have started, then
// waits for the kernels it depends on to finish, before it loads anything.
// The runtime launches such a kernel to overlap the one before it. sm_80 has
// no griddepcontrol; its kernels start with their loads.

// SM90-LABEL: gpu.func @split_kernel0
// SM90-NOT: {{load|cp.async}}
// SM90: nvvm.griddepcontrol launch_dependents
// SM90-NEXT: nvvm.griddepcontrol wait
// SM90-LABEL: gpu.func @split_kernel1
// SM90-NOT: {{load|cp.async}}
// SM90: nvvm.griddepcontrol launch_dependents
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

// -----

// A kernel copies the stages of its first iterations (the prologue) of the
// function's inputs before it waits: no kernel of the function writes an
// input, so a GEMV's weight tiles stream while the kernel before it ends.
// Tiles of the earlier kernel's results are copied after the wait. Each
// stage's one arrival (all its bytes) comes with the first copies.
// SM90-LABEL: gpu.func @gemv_after_kernel1
// SM90-SAME: %[[EMAP:[a-z0-9_]+]]: memref<512xf16>, %[[WMAP:[a-z0-9_]+]]: memref<16384xf16>)
// SM90-NOT: {{load|cp.async}}
// SM90: nvvm.griddepcontrol launch_dependents
// SM90-NOT: griddepcontrol
// SM90: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c1152_i32
// SM90-NEXT: memref.extract_aligned_pointer_as_index %[[WMAP]]
// SM90-NOT: extract_aligned_pointer_as_index %[[EMAP]]
// SM90: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c1152_i32
// SM90-NEXT: memref.extract_aligned_pointer_as_index %[[WMAP]]
// SM90-NOT: extract_aligned_pointer_as_index %[[EMAP]]
// SM90: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c1152_i32
// SM90-NEXT: memref.extract_aligned_pointer_as_index %[[WMAP]]
// SM90-NOT: extract_aligned_pointer_as_index %[[EMAP]]
// SM90: nvvm.griddepcontrol wait
// SM90-NOT: nvvm.mbarrier.arrive.expect_tx
// SM90-COUNT-3: memref.extract_aligned_pointer_as_index %[[EMAP]]
// SM90: scf.for
func.func @gemv_after(%x: tensor<2x256xf16>, %w: tensor<256x64xf16>) -> tensor<2x64xf16> {
  %e = mirage_kernel.graph_def(%X = %x : tensor<2x256xf16>) -> tensor<2x256xf16>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<2x256xf16> -> !mirage_block.stensor<1x256xf16>
    %s = exp %t : !mirage_block.stensor<1x256xf16>
    %r = output_saver %s omap <x = 0> : !mirage_block.stensor<1x256xf16> -> tensor<2x256xf16>
    yield %r : tensor<2x256xf16>
  }
  %o = mirage_kernel.graph_def(%E = %e : tensor<2x256xf16>, %W = %w : tensor<256x64xf16>)
      -> tensor<2x64xf16> grid [4, 1, 1] block [128, 1, 1] forloop 8 {
    %et = input_loader %E imap <> fmap 1 : tensor<2x256xf16> -> !mirage_block.stensor<2x32xf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<256x64xf16> -> !mirage_block.stensor<32x16xf16>
    %mm = matmul %et, %wt : !mirage_block.stensor<2x32xf16>, !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<2x16xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x16xf16> -> !mirage_block.stensor<2x16xf16>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<2x16xf16> -> tensor<2x64xf16>
    yield %out : tensor<2x64xf16>
  }
  return %o : tensor<2x64xf16>
}
