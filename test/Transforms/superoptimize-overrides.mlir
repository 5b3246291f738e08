// imaps and fmaps overrides of mirage-superoptimize that no launch can load
// leave nothing to search: an error names the first input whose override
// matches no load (it reported "0 configurations" with no reason).

// x is split by rows (dimension 0) and reduced over columns (dimension 1);
// w is reduced over rows (dimension 0) and split by columns (dimension 1).
// RUN: not mirage-opt %s --mirage-superoptimize='forloop-ranges=2 imaps=1,-1,-1,-1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=IMAP
// IMAP: error: the imaps override of input 0 (x = 1, y = -1) matches no load of it in any launch, so no configuration is left to search
// RUN: not mirage-opt %s --mirage-superoptimize='forloop-ranges=2 fmaps=0,0' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FMAP
// FMAP: error: the fmaps override of input 0 (dimension 0) matches no load of it in any launch, so no configuration is left to search
// The first input's override fits; the second's does not: grid x splits the
// output's rows, which w (rows of the reduced dimension) does not have, and
// the for-loop splits a reduced dimension, which w's columns are not.
// RUN: not mirage-opt %s --mirage-superoptimize='forloop-ranges=2 imaps=0,-1,0,-1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: error: the imaps override of input 1 (x = 0, y = -1) matches no load of it in any launch that fits the overrides of the inputs before it, so no configuration is left to search
// RUN: not mirage-opt %s --mirage-superoptimize='forloop-ranges=2 fmaps=1,1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SECOND-FMAP
// SECOND-FMAP: error: the fmaps override of input 1 (dimension 1) matches no load of it in any launch that fits the overrides of the inputs before it, so no configuration is left to search
// Overrides that leave configurations but no candidate still leave the
// function unchanged with a remark.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=2 fmaps=-1,-1 imaps=-1,-1,-1,-1 omap=-1,-1 split-kernels=false' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTHING
// NOTHING: remark: left unchanged, no verified candidate: {{[1-9][0-9]*}} configurations

func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
