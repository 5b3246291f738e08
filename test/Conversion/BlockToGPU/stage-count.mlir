// RUN: mirage-opt %s --convert-mirage-block-to-gpu=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: mirage-opt %s --convert-mirage-block-to-gpu=chip=sm_90a | FileCheck %s --check-prefix=SM90

// Each kernel takes the stage count (at most `stages`, 4 by default) that
// lets the most of its blocks share an SM, counting no more blocks than each
// SM has to run; ties go to more stages. A 128x64xf16 stage is 16 KiB and
// the f32 accumulator 32 KiB.

// 1024 blocks, 8 or more per SM. sm_80 (164 KiB per SM, 1 KiB reserved per
// block): 4 stages (96 KiB) fit 1 block, 3 stages (80 KiB) 2, 2 stages
// (64 KiB) still 2, so 3 stages (cp.async.wait_group 1). sm_90a (228 KiB):
// 4 and 3 stages fit 2 blocks, 2 stages 3, so 2 stages (TMA, one mbarrier
// each, 16 bytes past the 64 KiB).
// SM80-LABEL: func.func @many
// SM80: launch @mirage_kernels::@many_kernel0{{.*}} shared_memory 81920
// SM90-LABEL: func.func @many
// SM90: launch @mirage_kernels::@many_kernel0{{.*}} shared_memory 65552
func.func @many(%y: tensor<131072x512xf16>) -> tensor<131072x64xf16> {
  %o = mirage_kernel.graph_def(%Y = %y : tensor<131072x512xf16>) -> (tensor<131072x64xf16>)
      grid [1024, 1, 1] block [128, 1, 1] forloop 8 {
    %yt = input_loader %Y imap <x = 0> fmap 1 : tensor<131072x512xf16> -> !mirage_block.stensor<128x64xf16>
    %acc = forloop_accum %yt sum : !mirage_block.stensor<128x64xf16> -> !mirage_block.stensor<128x64xf16>
    %s = output_saver %acc omap <x = 0> : !mirage_block.stensor<128x64xf16> -> tensor<131072x64xf16>
    yield %s : tensor<131072x64xf16>
  }
  return %o : tensor<131072x64xf16>
}

// 64 blocks, fewer than the SMs: one block per SM is all the grid needs, so
// the kernel keeps 4 stages (cp.async.wait_group 2; four mbarriers).
// SM80-LABEL: func.func @few
// SM80: launch @mirage_kernels::@few_kernel0{{.*}} shared_memory 98304
// SM90-LABEL: func.func @few
// SM90: launch @mirage_kernels::@few_kernel0{{.*}} shared_memory 98336
func.func @few(%y: tensor<8192x512xf16>) -> tensor<8192x64xf16> {
  %o = mirage_kernel.graph_def(%Y = %y : tensor<8192x512xf16>) -> (tensor<8192x64xf16>)
      grid [64, 1, 1] block [128, 1, 1] forloop 8 {
    %yt = input_loader %Y imap <x = 0> fmap 1 : tensor<8192x512xf16> -> !mirage_block.stensor<128x64xf16>
    %acc = forloop_accum %yt sum : !mirage_block.stensor<128x64xf16> -> !mirage_block.stensor<128x64xf16>
    %s = output_saver %acc omap <x = 0> : !mirage_block.stensor<128x64xf16> -> tensor<8192x64xf16>
    yield %s : tensor<8192x64xf16>
  }
  return %o : tensor<8192x64xf16>
}

// SM80-LABEL: gpu.func @many_kernel0
// SM80: nvvm.cp.async.wait.group 1
// SM80-LABEL: gpu.func @few_kernel0
// SM80: nvvm.cp.async.wait.group 2
// SM90-LABEL: gpu.func @many_kernel0
// SM90-COUNT-2: nvvm.mbarrier.init
// SM90-NOT: nvvm.mbarrier.init
// SM90-LABEL: gpu.func @few_kernel0
// SM90-COUNT-4: nvvm.mbarrier.init
// SM90-NOT: nvvm.mbarrier.init
