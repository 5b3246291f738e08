//===- PtxTests.cpp - Tests of what the runtime reads from PTX ------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/Ptx.h"

using namespace mirage::runtime;

MIRAGE_TEST(Ptx, ReadsEachKernelsParametersAndGridDependencies) {
  std::string ptx = R"(.version 8.0
.target sm_90a
.address_size 64

.visible .entry f_kernel0(
	.param .u64 f_kernel0_param_0,
	.param .align 64 .b8 f_kernel0_param_1[128]
)
.maxntid 128, 1, 1
{
	griddepcontrol.launch_dependents;
	griddepcontrol.wait;
	ret;
}

.visible .entry f_kernel1(
	.param .u64 f_kernel1_param_0
)
{
	ret;
}

.visible .entry g_kernel0()
{
	griddepcontrol.wait;
	ret;
}
)";
  std::map<std::string, PtxKernel> kernels = scanPtxKernels(ptx);
  EXPECT_EQ(kernels.size(), size_t(3));
  EXPECT_EQ(kernels["f_kernel0"].parameters, size_t(2));
  EXPECT_TRUE(kernels["f_kernel0"].waitsForGridDependencies);
  EXPECT_EQ(kernels["f_kernel1"].parameters, size_t(1));
  EXPECT_TRUE(!kernels["f_kernel1"].waitsForGridDependencies);
  EXPECT_EQ(kernels["g_kernel0"].parameters, size_t(0));
  EXPECT_TRUE(kernels["g_kernel0"].waitsForGridDependencies);
}

MIRAGE_TEST(Ptx, ReadsWhatDamagedTextHolds) {
  EXPECT_TRUE(scanPtxKernels("").empty());
  // A kernel that only lets its dependents launch early does not wait.
  std::map<std::string, PtxKernel> early =
      scanPtxKernels(".entry k()\n{\n\tgriddepcontrol.launch_dependents;\n}\n");
  EXPECT_TRUE(early.size() == 1 && !early["k"].waitsForGridDependencies);
  // An `.entry` with no name, or truncated inside its parameters.
  EXPECT_TRUE(scanPtxKernels(".entry").empty());
  EXPECT_TRUE(scanPtxKernels(".entry (\ngriddepcontrol.wait").empty());
  std::map<std::string, PtxKernel> cut =
      scanPtxKernels(".entry k(\n.param .u64 a,\n.param");
  EXPECT_TRUE(cut.size() == 1 && cut["k"].parameters == 0);
  // `.entryx` is not `.entry`.
  EXPECT_TRUE(scanPtxKernels(".entryx k()\n").empty());
}

MIRAGE_TEST(Ptx, ReadsTheLaunchShapeEachKernelWasCompiledFor) {
  // As LLVM writes an i64 array: little-endian bytes, trailing zeros left
  // out. f_kernel0: grid [16, 16, 1], block [128, 1, 1], buffers of 131072
  // and 2^40 bytes.
  std::string ptx = R"(.version 8.0
.target sm_90a
.address_size 64

.visible .global .align 8 .b8 f_kernel0__launch[64] = {16, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 128, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
.visible .global .align 8 .b64 g_kernel0__launch[7] = {4, 1, 1, 32, 1, 1, 4096};

.visible .entry f_kernel0(
	.param .u64 a,
	.param .u64 b
)
{
	ret;
}

.visible .entry g_kernel0(
	.param .u64 a
)
{
	ret;
}

.visible .entry h_kernel0()
{
	ret;
}
)";
  std::map<std::string, PtxKernel> kernels = scanPtxKernels(ptx);
  EXPECT_EQ(kernels.size(), size_t(3));
  const std::optional<LaunchShape> &f = kernels["f_kernel0"].launchShape;
  EXPECT_TRUE(f.has_value());
  if (f) {
    EXPECT_TRUE((f->grid == std::array<int64_t, 3>{16, 16, 1}));
    EXPECT_TRUE((f->block == std::array<int64_t, 3>{128, 1, 1}));
    EXPECT_TRUE((f->argumentBytes == std::vector<int64_t>{131072, 1LL << 40}));
  }
  const std::optional<LaunchShape> &g = kernels["g_kernel0"].launchShape;
  EXPECT_TRUE(g && g->grid[0] == 4 && g->block[0] == 32 &&
              g->argumentBytes == std::vector<int64_t>{4096});
  // A kernel compiled before the constant existed has none.
  EXPECT_TRUE(!kernels["h_kernel0"].launchShape);
}

MIRAGE_TEST(Ptx, IgnoresDamagedLaunchShapes) {
  auto shapeOf = [](const std::string &global) {
    std::map<std::string, PtxKernel> kernels =
        scanPtxKernels(global + "\n.visible .entry k()\n{\n\tret;\n}\n");
    return kernels["k"].launchShape;
  };
  // Fewer than six values, a byte count that is no multiple of 8, a byte
  // beyond 255, a value list without its end, more values than declared.
  EXPECT_TRUE(!shapeOf(".global .align 8 .b64 k__launch[2] = {1, 1};"));
  EXPECT_TRUE(!shapeOf(".global .align 8 .b8 k__launch[52] = {1};"));
  EXPECT_TRUE(!shapeOf(".global .align 8 .b8 k__launch[48] = {256};"));
  EXPECT_TRUE(!shapeOf(".global .align 8 .b64 k__launch[6] = {1, 1, 1"));
  EXPECT_TRUE(
      !shapeOf(".global .align 8 .b64 k__launch[6] = {1, 1, 1, 1, 1, 1, 1};"));
  EXPECT_TRUE(
      shapeOf(".global .align 8 .b64 k__launch[6] = {1, 1, 1, 1, 1, 1};")
          .has_value());
}
