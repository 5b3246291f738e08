// Checkpoint files that are not what they should be, and paths that cannot
// be written: each is an error about the file, reported before the search
// spends its time. Candidates changed under a valid checksum, concurrent
// writers and failed writes are tested in unittests/Search/CheckpointTest.cpp.

// A FIFO would block the read, a device (/dev/zero) never ends, a huge file
// would be read whole: none is read.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mkfifo %t/fifo.json
// RUN: not mirage-opt %s --mirage-superoptimize='checkpoint=%t/fifo.json' 2>&1 | FileCheck %s --check-prefix=FIFO
// FIFO: error: checkpoint '{{.*}}fifo.json' is not a regular file
// RUN: not mirage-opt %s --mirage-superoptimize='checkpoint=/dev/zero' 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: error: checkpoint '/dev/zero' is not a regular file
// RUN: not mirage-opt %s --mirage-superoptimize='checkpoint=%t' 2>&1 | FileCheck %s --check-prefix=DIRECTORY
// DIRECTORY: error: checkpoint '{{.*}}' is not a regular file
// RUN: truncate -s 65M %t/huge.json
// RUN: not mirage-opt %s --mirage-superoptimize='checkpoint=%t/huge.json' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: checkpoint '{{.*}}huge.json' is larger than the limit of 67108864 bytes

// A checkpoint that cannot be written is reported before the first range.
// RUN: not mirage-opt %s --mirage-superoptimize='forloop-ranges=1 progress=true checkpoint=%t/missing/ck.json' 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE-NOT: forloop 1:
// UNWRITABLE: error: checkpoint '{{.*}}ck.json' cannot be locked
// UNWRITABLE-NOT: forloop 1:

// A later run resumes from a checkpoint (a write that fails, as on a full
// disk, is tested in unittests/Search/CheckpointTest.cpp); no temporary file
// is left behind.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=1 checkpoint=%t/ck.json' -o /dev/null 2>/dev/null
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=1 checkpoint=%t/ck.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEPT
// KEPT: remark: superoptimized: {{.*}} (1 for-loop ranges from the checkpoint)
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// FILES-NOT: tmp

func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
