// RUN: mirage-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(mirage-tensor-map-params))' --verify-diagnostics | FileCheck %s

// The parameters mirage.tensor_maps lists become 128-byte by-value grid
// constants, the attribute goes, and the module's shared memory is aligned
// to 1024 bytes for the TMA copies (the alignment a swizzled box needs).
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.func @k(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-NOT: mirage.tensor_maps
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @k(%arg0: !llvm.ptr, %arg1: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, mirage.tensor_maps = [{argument = 1 : i64, input = 0 : i64, shape = array<i64: 64, 64>, box = array<i64: 16, 64>}]} {
      llvm.return
    }
  }
}

// -----

// Without descriptors, nothing changes.
// CHECK-LABEL: gpu.module @plain
// CHECK: alignment = 16 : i64
// CHECK: llvm.func @k(%{{.*}}: !llvm.ptr)
module attributes {gpu.container_module} {
  gpu.module @plain {
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @bad {
    // expected-error @below {{'llvm.func' op has a malformed mirage.tensor_maps entry {argument = 5 : i64, box = array<i64: 16, 64>, input = 0 : i64, shape = array<i64: 64, 64>}}}
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, mirage.tensor_maps = [{argument = 5 : i64, input = 0 : i64, shape = array<i64: 64, 64>, box = array<i64: 16, 64>}]} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @no_box {
    // expected-error @below {{'llvm.func' op has a malformed mirage.tensor_maps entry {argument = 0 : i64, input = 0 : i64}}}
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, mirage.tensor_maps = [{argument = 0 : i64, input = 0 : i64}]} {
      llvm.return
    }
  }
}

// -----

// A swizzle is 32, 64 or 128 bytes.
module attributes {gpu.container_module} {
  gpu.module @bad_swizzle {
    // expected-error @below {{'llvm.func' op has a malformed mirage.tensor_maps entry {argument = 0 : i64, box = array<i64: 16, 24>, input = 0 : i64, shape = array<i64: 64, 48>, swizzle = 48 : i64}}}
    llvm.func @k(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, mirage.tensor_maps = [{argument = 0 : i64, input = 0 : i64, shape = array<i64: 64, 48>, box = array<i64: 16, 24>, swizzle = 48 : i64}]} {
      llvm.return
    }
  }
}
