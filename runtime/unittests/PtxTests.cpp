//===- PtxTests.cpp - Tests of what the runtime reads from PTX ------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/Ptx.h"

using namespace mirage::runtime;

MIRAGE_TEST(Ptx, FindsTheKernelsThatWaitForTheirGridDependencies) {
  std::string ptx = R"(.version 8.0
.target sm_90a
.address_size 64

.visible .entry f_kernel0(
	.param .u64 f_kernel0_param_0
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

.visible .entry g_kernel0(
	.param .u64 g_kernel0_param_0
)
{
	griddepcontrol.wait;
	ret;
}
)";
  std::set<std::string> kernels = findGridDependentKernels(ptx);
  EXPECT_EQ(kernels.size(), size_t(2));
  EXPECT_TRUE(kernels.count("f_kernel0") == 1);
  EXPECT_TRUE(kernels.count("g_kernel0") == 1);
  EXPECT_TRUE(findGridDependentKernels("").empty());
  // A kernel that only lets its dependents launch early does not wait.
  EXPECT_TRUE(findGridDependentKernels(
                  ".entry k()\n{\n\tgriddepcontrol.launch_dependents;\n}\n")
                  .empty());
  // Truncated text: an `.entry` with no name.
  EXPECT_TRUE(findGridDependentKernels(".entry").empty());
  EXPECT_TRUE(
      findGridDependentKernels(".entry (\ngriddepcontrol.wait").empty());
}
