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
