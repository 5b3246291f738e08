//===- ProgramJSONTest.cpp - Programs to and from JSON --------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/ProgramJSON.h"

#include "TestPrograms.h"

#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::sem;
namespace json = llvm::json;

namespace {

/// Every attribute of the form: kernel ops, a graph_def with a cluster, a
/// for-loop, accumulators (one with an eps) and a thread_graph.
constexpr llvm::StringLiteral kSource = R"mlir(
  func.func @f(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> (tensor<8x32xf16>, tensor<8x4xf16>) {
    %a, %b = mirage_kernel.chunk %x dim 1 parts 2 : tensor<8x64xf16> -> tensor<8x32xf16>, tensor<8x32xf16>
    %c = mirage_kernel.concat %a, %b dim 1 : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x64xf16>
    %s = mirage_kernel.mul_scalar %c by 0.125 : tensor<8x64xf16>
    %r = mirage_kernel.reduction %s dim 1 size 4 : tensor<8x64xf16> -> tensor<8x4xf16>
    %n = mirage_kernel.rms_norm %s size 64 eps 1.0e-05 : tensor<8x64xf16>
    %o = mirage_kernel.graph_def(%X = %n : tensor<8x64xf16>, %W = %w : tensor<64x32xf16>)
        -> tensor<8x32xf16> grid [2, 1, 1] block [128, 1, 1] forloop 4 cluster [2, 1, 1] {
      %xt = input_loader %X imap <> fmap 1 : tensor<8x64xf16> -> !mirage_block.stensor<8x16xf16>
      %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf16> -> !mirage_block.stensor<16x16xf16>
      %mm = matmul %xt, %wt : !mirage_block.stensor<8x16xf16>, !mirage_block.stensor<16x16xf16> -> !mirage_block.stensor<8x16xf16>
      %acc = forloop_accum %mm sum : !mirage_block.stensor<8x16xf16> -> !mirage_block.stensor<8x16xf16>
      %part = forloop_accum %mm sum_last_to 4 : !mirage_block.stensor<8x16xf16> -> !mirage_block.stensor<8x4xf16>
      %all = cluster_reduce %part : !mirage_block.stensor<8x4xf16>
      %e = thread_graph %acc : !mirage_block.stensor<8x16xf16> -> !mirage_block.stensor<8x16xf16> {
      ^bb0(%v: f16):
        %q = exp %v : f16
        yield %q : f16
      }
      %rms = forloop_accum %xt rms_last eps 1.0e-05 : !mirage_block.stensor<8x16xf16> -> !mirage_block.stensor<8x1xf16>
      %y = output_saver %e omap <x = 1> : !mirage_block.stensor<8x16xf16> -> tensor<8x32xf16>
      yield %y : tensor<8x32xf16>
    }
    return %o, %r : tensor<8x32xf16>, tensor<8x4xf16>
  })mlir";

std::string print(const json::Value &value) {
  return llvm::formatv("{0}", value).str();
}

std::string print(json::Object object) {
  return print(json::Value(std::move(object)));
}

class ProgramJSONTest : public ::testing::Test {
protected:
  ProgramJSONTest() {
    test::loadDialects(context);
    program = *test::parseProgram(context, kSource);
  }

  /// The error of reading the program's JSON after `edit`, or "" when it
  /// reads.
  std::string readEdited(const std::function<void(json::Object &)> &edit) {
    json::Value value = toJSON(program);
    edit(*value.getAsObject());
    Program read;
    json::Path::Root root("program");
    if (fromJSON(value, read, root))
      return "";
    return llvm::toString(root.getError());
  }

  MLIRContext context;
  Program program;
};

json::Object &op(json::Object &graph, size_t index) {
  return *(*graph.getArray("ops"))[index].getAsObject();
}

json::Object &body(json::Object &graph, size_t index) {
  return *op(graph, index).getObject("body");
}

TEST_F(ProgramJSONTest, WritesTheBundleForm) {
  json::Value value = toJSON(program);
  json::Object &kernel = *value.getAsObject();
  EXPECT_EQ(print(op(kernel, 0)), R"({"dim":1,"op":"chunk","operands":[0],)"
                                  R"("parts":2,"results":[2,3]})");
  EXPECT_EQ(print(op(kernel, 2)), R"({"op":"mul_scalar","operands":[4],)"
                                  R"("results":[5],"value":0.125})");
  EXPECT_EQ(print(op(kernel, 3)), R"({"dim":1,"op":"reduction","operands":)"
                                  R"([5],"results":[6],"size":4})");
  json::Object graphDef = op(kernel, 5);
  graphDef.erase("body");
  EXPECT_EQ(print(std::move(graphDef)),
            R"({"cluster":[2,1,1],"forloop":4,"grid":[2,1,1],)"
            R"("op":"graph_def","operands":[7,1],"results":[8],)"
            R"("threads":128})");
  json::Object &block = body(kernel, 5);
  EXPECT_EQ(print(op(block, 0)), R"({"fmap":1,"imap":[-1,-1,-1],)"
                                 R"("op":"input_loader","operands":[0],)"
                                 R"("results":[2]})");
  EXPECT_EQ(print(op(block, 3)), R"({"kind":"sum","op":"forloop_accum",)"
                                 R"("operands":[4],"results":[5]})");
  EXPECT_EQ(print(op(block, 4)), R"({"kind":"sum_last_to","op":)"
                                 R"("forloop_accum","operands":[4],)"
                                 R"("results":[6],"size":4})");
  EXPECT_EQ(print(op(block, 7)), R"({"eps":9.9999997473787516e-06,"kind":)"
                                 R"("rms_last","op":"forloop_accum",)"
                                 R"("operands":[2],"results":[9]})");
  EXPECT_EQ(print(*body(block, 6).get("values")),
            R"([{"dtype":"f16","shape":[]},{"dtype":"f16","shape":[]}])");
}

TEST_F(ProgramJSONTest, RoundTrips) {
  json::Value value = toJSON(program);
  Program read;
  json::Path::Root root;
  ASSERT_TRUE(fromJSON(value, read, root)) << llvm::toString(root.getError());
  ASSERT_EQ(read.graphs.size(), program.graphs.size());
  EXPECT_EQ(read.graphs[1].forloop, 4);
  EXPECT_EQ(read.graphs[1].cluster[0], 2);
  EXPECT_EQ(read.graphs[1].threads, 128);
  EXPECT_EQ(print(toJSON(read)), print(value));
}

TEST_F(ProgramJSONTest, KeepsTheCopyMode) {
  // Absent by default; a graph_def marked async_copies keeps the mark.
  EXPECT_EQ(op(*toJSON(program).getAsObject(), 5).get("async_copies"), nullptr);
  Program marked = program;
  marked.graphs[1].asyncCopies = true;
  json::Value value = toJSON(marked);
  EXPECT_EQ(op(*value.getAsObject(), 5).getBoolean("async_copies"), true);
  Program read;
  json::Path::Root root;
  ASSERT_TRUE(fromJSON(value, read, root)) << llvm::toString(root.getError());
  EXPECT_TRUE(read.graphs[1].asyncCopies);
}

TEST_F(ProgramJSONTest, RejectsDanglingAndCyclicReferences) {
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*op(kernel, 1).getArray("operands"))[1] = 99;
            }),
            "not a value of the graph at program.ops[1].operands[1]");
  // The concat reads the mul_scalar's result, defined after it.
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*op(kernel, 1).getArray("operands"))[0] = 5;
            }),
            "used before it is defined at program.ops[1].operands[0]");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*op(kernel, 2).getArray("results"))[0] = 2;
            }),
            "defined twice at program.ops[2].results[0]");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*kernel.getArray("outputs"))[0] = -1;
            }),
            "not a value of the graph at program.outputs[0]");
  // The thread_graph's body computes an f32 for an f16 result.
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*body(body(kernel, 5), 6).getArray("values"))[1] =
                  json::Object{{"shape", json::Array()}, {"dtype", "f32"}};
            }),
            "do not match the results' types at program.ops[5].body.ops[6]."
            "body.outputs");
}

TEST_F(ProgramJSONTest, RejectsUnknownNamesAndBadShapes) {
  EXPECT_EQ(
      readEdited([](json::Object &kernel) { op(kernel, 2)["op"] = "tanh"; }),
      "unknown op at program.ops[2].op");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              op(kernel, 2)["op"] = "input_loader";
            }),
            "not an op of this level of graph at program.ops[2].op");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              op(body(kernel, 5), 3)["kind"] = "mean";
            }),
            "unknown accumulator at program.ops[5].body.ops[3].kind");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              op(body(kernel, 5), 3)["size"] = 4;
            }),
            "only sum_last_to has a size at program.ops[5].body.ops[3].size");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              op(body(kernel, 5), 3)["eps"] = 1e-5;
            }),
            "only rms_last has an eps at program.ops[5].body.ops[3].eps");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              op(body(kernel, 5), 7)["eps"] = -1e-5;
            }),
            "negative at program.ops[5].body.ops[7].eps");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*(*kernel.getArray("values"))[0].getAsObject())["dtype"] = "f64";
            }),
            "unknown element type at program.values[0].dtype");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*(*kernel.getArray("values"))[0].getAsObject()->getArray(
                  "shape"))[1] = 0;
            }),
            "not a positive extent at program.values[0].shape[1]");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*body(body(kernel, 5), 6).getArray("values"))[0] =
                  json::Object{{"shape", json::Array{8}}, {"dtype", "f16"}};
            }),
            "not a scalar in a thread_graph body at "
            "program.ops[5].body.ops[6].body.values[0].shape");
  EXPECT_EQ(readEdited([](json::Object &kernel) { op(kernel, 3)["dim"] = 2; }),
            "a dimension is out of range for the operand's rank at "
            "program.ops[3]");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              op(kernel, 5)["cluster"] = json::Array{3, 1, 1};
            }),
            "does not divide the grid at program.ops[5].cluster");
  EXPECT_EQ(
      readEdited([](json::Object &kernel) { op(kernel, 5)["threads"] = 2048; }),
      "out of range at program.ops[5].threads");
  EXPECT_EQ(
      readEdited([](json::Object &kernel) { op(kernel, 0)["parts"] = 3; }),
      "wrong number of results at program.ops[0].results");
  EXPECT_EQ(
      readEdited([](json::Object &kernel) { op(kernel, 3).erase("size"); }),
      "missing value at program.ops[3].size");
}

TEST_F(ProgramJSONTest, RejectsMisusedKernelTensors) {
  // The matmul reads the graph_def's argument %X itself.
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*op(body(kernel, 5), 2).getArray("operands"))[0] = 0;
            }),
            "a kernel tensor, which only input_loader reads at "
            "program.ops[5].body.ops[2].operands[0]");
  EXPECT_EQ(readEdited([](json::Object &kernel) {
              (*body(kernel, 5).getArray("outputs"))[0] = 8;
            }),
            "not the result of an output_saver at "
            "program.ops[5].body.outputs[0]");
}

} // namespace
