// Options of mirage-superoptimize: progress, top-K emission, overrides,
// threads, chip, checkpoint/resume, and their errors.

// Progress on stderr, one line per for-loop range.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=1,2 progress=true' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROGRESS
// PROGRESS: mirage-superoptimize: rmsnorm_linear: forloop 1: {{[0-9]+}} launches, {{[0-9]+}} states, {{[0-9]+}} complete, 1 of {{[0-9]+}} verified, best {{[0-9.]+}} us, {{[0-9.]+}} s
// PROGRESS-NEXT: mirage-superoptimize: rmsnorm_linear: forloop 2:
// PROGRESS: remark: superoptimized

// The three best verified candidates as functions, cheapest first, each
// with its estimate (at fixed block sizes on sm_80: no block-size or
// copy-mode variants, which superoptimize-block-sizes.mlir and
// superoptimize-copy-variants.mlir test; no candidates of other tilings).
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=2 max-candidates=3 extra-tilings=0 emit-candidates=true threads=128 chip=sm_80' 2>/dev/null | FileCheck %s --check-prefix=TOPK
// TOPK-LABEL: func.func @rmsnorm_linear(
// TOPK: mirage_kernel.graph_def
// TOPK: func.func @rmsnorm_linear_as_written({{.*}} attributes {mirage.tuning = {candidate = -1 : i64,
// TOPK: func.func @rmsnorm_linear_candidate_0({{.*}} attributes {mirage.estimated_us = {{[0-9.e+-]+}} : f64, mirage.global_bytes = {{[0-9]+}} : i64, mirage.tuning = {candidate = 0 : i64,
// TOPK: mirage_kernel.graph_def
// TOPK: return
// TOPK: func.func @rmsnorm_linear_candidate_1(
// TOPK: func.func @rmsnorm_linear_candidate_2(
// TOPK-NOT: func.func

// Besides the cheapest, the cheapest of each of a few other tilings (the
// grids of the graph_defs, and where library ops run): here the norm as a
// library op before a kernel of grid [2, 1, 1], then of grid [1, 1, 1].
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=2 max-candidates=3 extra-tilings=2 emit-candidates=true threads=128 chip=sm_80' 2>/dev/null | FileCheck %s --check-prefix=TILINGS
// TILINGS: func.func @rmsnorm_linear_candidate_2(
// TILINGS-NOT: mirage_kernel.rms_norm
// TILINGS: func.func @rmsnorm_linear_candidate_3(
// TILINGS-NEXT: mirage_kernel.rms_norm
// TILINGS-NEXT: mirage_kernel.graph_def{{.*}} grid [2, 1, 1]
// TILINGS: func.func @rmsnorm_linear_candidate_4(
// TILINGS-NEXT: mirage_kernel.rms_norm
// TILINGS-NEXT: mirage_kernel.graph_def{{.*}} grid [1, 1, 1]
// TILINGS-NOT: func.func

// The default with emit-candidates (max-candidates=0, extra-tilings=-1): 16
// candidates and 4 of other tilings, which the tuner measures (the cost
// model's ranking is coarse; without emit-candidates the search keeps 1).
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=2 emit-candidates=true threads=128 chip=sm_80' 2>/dev/null | FileCheck %s --check-prefix=DEFAULTK
// DEFAULTK: func.func @rmsnorm_linear_candidate_0(
// DEFAULTK: func.func @rmsnorm_linear_candidate_19(
// DEFAULTK-NOT: func.func

// Overrides: grid x over output rows only, the for-loop over x's columns
// and w's rows: the paper's kernel, whatever the cost model prefers.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=2,4 omap=0,-1 imaps=0,-1,-1,-1 fmaps=1,0' 2>&1 | FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE: remark: superoptimized
// OVERRIDE: grid [2, 1, 1]
// OVERRIDE: input_loader %{{.*}} imap <x = 0> fmap 1
// OVERRIDE: input_loader %{{.*}} fmap 0
// An override no candidate satisfies leaves the function unchanged.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=2 fmaps=-1,-1 imaps=-1,-1,-1,-1 omap=-1,-1 split-kernels=false' 2>&1 | FileCheck %s --check-prefix=NOTHING
// NOTHING: remark: left unchanged, no verified candidate: {{.*}} 0 of 0 verified

// Two threads find what one finds.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=1,2,4 search-threads=1' 2>/dev/null > %t.one.mlir
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=1,2,4 search-threads=2' 2>/dev/null > %t.two.mlir
// RUN: diff %t.one.mlir %t.two.mlir

// Ranked for an A100: the same estimate model with its figures.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=2 chip=sm_80' 2>&1 | FileCheck %s --check-prefix=SM80
// SM80: remark: superoptimized: {{.*}}; estimated {{[0-9.]+}} -> {{[0-9.]+}} us

// Checkpoint: a second run resumes the ranges done and may add more; a
// damaged or foreign checkpoint is an error.
// RUN: rm -f %t.ck.json
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=1,2 checkpoint=%t.ck.json' 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: remark: superoptimized: {{.*}} verified in {{[0-9.]+}} s;
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=1,2,4 checkpoint=%t.ck.json progress=true' 2>&1 | FileCheck %s --check-prefix=RESUME
// RESUME-NOT: forloop 1:
// RESUME-NOT: forloop 2:
// RESUME: mirage-superoptimize: rmsnorm_linear: forloop 4:
// RESUME: remark: superoptimized: {{.*}} (2 for-loop ranges from the checkpoint)
// RUN: not mirage-opt %s --mirage-superoptimize='forloop-ranges=1 max-ops=4 checkpoint=%t.ck.json' 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: error: checkpoint '{{.*}}' records a search of 'rmsnorm_linear' with another reference or other options
// RUN: sed -e 's/"forloop": 1,/"forloop": 2,/' %t.ck.json > %t.damaged.json
// RUN: not mirage-opt %s --mirage-superoptimize='checkpoint=%t.damaged.json' 2>&1 | FileCheck %s --check-prefix=DAMAGED
// DAMAGED: error: checkpoint '{{.*}}' is damaged (checksum mismatch)
// RUN: head -c 20 %t.ck.json > %t.truncated.json
// RUN: not mirage-opt %s --mirage-superoptimize='checkpoint=%t.truncated.json' 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: error: checkpoint '{{.*}}' is not JSON
// RUN: echo '{"format": "something else"}' > %t.other.json
// RUN: not mirage-opt %s --mirage-superoptimize='checkpoint=%t.other.json' 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: checkpoint '{{.*}}' is not a Mirage search checkpoint
// RUN: not mirage-opt %s --mirage-superoptimize='checkpoint=%t.missing/ck.json' 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: error: checkpoint '{{.*}}ck.json' cannot be locked

// Bad options.
// RUN: not mirage-opt %s --mirage-superoptimize='search-threads=0' 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: error: search-threads must be in [1, 256], got 0
// Every numeric option is range-checked: a 32-bit overflow of the oracle's
// budget, or a time limit of nan or inf, would silently lift the limits.
// RUN: not mirage-opt %s --mirage-superoptimize='oracle-timeout=536870912' 2>&1 | FileCheck %s --check-prefix=ORACLE
// ORACLE: error: oracle-timeout must be in [1, 60000], got 536870912
// RUN: not mirage-opt %s --mirage-superoptimize='time-limit=nan' 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: error: time-limit must be in [0, 1e+07], got nan
// RUN: not mirage-opt %s --mirage-superoptimize='time-limit=inf' 2>&1 | FileCheck %s --check-prefix=INF
// INF: error: time-limit must be in [0, 1e+07], got inf
// RUN: not mirage-opt %s --mirage-superoptimize='time-limit=-1' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: time-limit must be in [0, 1e+07], got -1
// RUN: not mirage-opt %s --mirage-superoptimize='grid-sizes=2,4294967296' 2>&1 | FileCheck %s --check-prefix=GRIDSIZE
// GRIDSIZE: error: grid-sizes must be in [1, 2147483647], got 4294967296
// RUN: not mirage-opt %s --mirage-superoptimize='forloop-ranges=0' 2>&1 | FileCheck %s --check-prefix=FORLOOP
// FORLOOP: error: forloop-ranges must be in [1, 2147483647], got 0
// RUN: not mirage-opt %s --mirage-superoptimize='max-blocks=0' 2>&1 | FileCheck %s --check-prefix=BLOCKS
// BLOCKS: error: max-blocks must be in [1, 2147483647], got 0
// RUN: not mirage-opt %s --mirage-superoptimize='max-candidates=1000000' 2>&1 | FileCheck %s --check-prefix=CANDIDATES
// CANDIDATES: error: max-candidates must be in [0, 100000], got 1000000
// RUN: not mirage-opt %s --mirage-superoptimize='extra-tilings=-2' 2>&1 | FileCheck %s --check-prefix=BADTILINGS
// BADTILINGS: error: extra-tilings must be in [-1, 100000], got -2
// RUN: not mirage-opt %s --mirage-superoptimize='chip=sm_70' 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: chip must be sm_80 or sm_90a, got 'sm_70'
// RUN: not mirage-opt %s --mirage-superoptimize='imaps=0,-1' 2>&1 | FileCheck %s --check-prefix=IMAPS
// IMAPS: error: imaps has 2 entries; the reference has 2 inputs, so it needs 4
// RUN: not mirage-opt %s --mirage-superoptimize='fmaps=1,2' 2>&1 | FileCheck %s --check-prefix=FMAPS
// FMAPS: error: fmaps entry 1 is 2, not -1 or a dimension of input 1 (rank 2)
// RUN: not mirage-opt %s --mirage-superoptimize='omap=0' 2>&1 | FileCheck %s --check-prefix=OMAP
// OMAP: error: omap has 1 entries; the reference has 1 output, so it needs 2

func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
