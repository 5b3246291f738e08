// RUN: mirage-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(mirage-extern-dynamic-shared))' | FileCheck %s

// The dynamic shared memory of convert-gpu-to-nvvm, an internal global of
// no bytes, becomes an external declaration (NVPTX: `.extern .shared ...[]`),
// its alignment kept.

// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
gpu.module @kernels {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    %0 = llvm.mlir.addressof @__dynamic_shmem__0 : !llvm.ptr<3>
    %1 = llvm.mlir.constant(1.0 : f32) : f32
    llvm.store %1, %0 : f32, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// Other globals stay: a shared array with elements (static shared memory),
// and a zero-length array in global memory.

// CHECK-LABEL: gpu.module @others
// CHECK: llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
// CHECK: llvm.mlir.global internal @empty() {addr_space = 1 : i32} : !llvm.array<0 x i8>
gpu.module @others {
  llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
  llvm.mlir.global internal @empty() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}
