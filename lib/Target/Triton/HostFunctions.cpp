//===- HostFunctions.cpp - Triton modules of kernel-graph functions -------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Each `func.func` becomes a host function of the same name that takes its
// arguments as contiguous torch tensors and returns a tuple of its results,
// or fills the tensors of `out=` with them. Kernel ops run as torch calls
// computing in float32; each graph_def allocates its results (or writes a
// returned one into its `out` tensor) and launches its Triton kernels
// (GraphDefKernels.h).
// The module ends with `FUNCTIONS`, which lists every host function under
// its symbol name with its signature, for test drivers (docs/Triton.md, "The
// module").
//
//===----------------------------------------------------------------------===//

#include "Mirage/Target/Triton.h"

#include "Elementwise.h"
#include "GraphDefKernels.h"
#include "PythonWriter.h"
#include "TileIndexing.h"

#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::triton;

namespace {

/// The names a host function may not take: the module's own globals and
/// Python's keywords that are also valid MLIR symbols.
constexpr llvm::StringLiteral kReservedNames[] = {
    "torch", "triton", "tl",     "libdevice", "FUNCTIONS", "and",
    "as",    "def",    "del",    "for",       "from",      "global",
    "if",    "import", "in",     "is",        "not",       "or",
    "pass",  "raise",  "return", "while",     "with",      "yield"};

/// A Python identifier for the symbol `name`.
std::string pythonName(StringRef name) {
  std::string text;
  for (char c : name)
    text += llvm::isAlnum(c) ? c : '_';
  if (text.empty() || llvm::isDigit(text.front()) ||
      llvm::is_contained(kReservedNames, text))
    text = "f_" + text;
  return text;
}

/// Stand-ins for a function's Python name and symbol name while its form is
/// written: bytes that no generated text holds, so two functions' forms are
/// the same text exactly when they differ in their names alone.
constexpr llvm::StringLiteral kNameStandIn = "\x01";
constexpr llvm::StringLiteral kSymbolStandIn = "\x02";

/// `text` with every `from` replaced by `to`.
std::string replaceAll(StringRef text, StringRef from, StringRef to) {
  std::string result;
  for (size_t at = text.find(from); at != StringRef::npos;
       at = text.find(from)) {
    result += text.take_front(at);
    result += to;
    text = text.drop_front(at + from.size());
  }
  return result + text.str();
}

/// `((2, 4096), torch.float16)`: the signature entry of a tensor type.
std::string specOf(Type type) {
  auto shaped = cast<ShapedType>(type);
  return "(" + tupleLiteral(shaped.getShape()) + ", " +
         torchDType(shaped.getElementType()) + ")";
}

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

Type elementOf(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

/// Writes the host functions and kernels of a module.
class ModuleWriter {
public:
  ModuleWriter() : kernels(kernelText), hosts(hostText) {}

  LogicalResult check(func::FuncOp function);
  /// Writes `function`'s host function and kernels, or lists it as the
  /// host function of an earlier function of the same form.
  void writeFunction(func::FuncOp function);
  /// Notes `function` as left out of the module, for `reason`.
  void leaveOut(func::FuncOp function, StringRef reason) {
    leftOut.push_back(("#   @" + function.getSymName() + ": " + reason).str());
  }
  void finish(raw_ostream &output);

private:
  /// Writes `function`'s form: its host function and kernels, named by the
  /// stand-ins.
  void writeForm(func::FuncOp function);
  void writeOp(Operation *op, StringRef function);
  void writeGraphDef(kernel::GraphDefOp op, StringRef function);
  /// `value` in float32, for a torch expression.
  std::string widened(Value value) { return names.at(value) + ".float()"; }
  /// `expr` converted to the element type of `value` from float32.
  static std::string narrowed(StringRef expr, Value value) {
    return (expr + ".to(" + torchDType(elementOf(value)) + ")").str();
  }
  std::string resultName(Operation *op, unsigned index);
  void comment(Operation *op);

  std::string kernelText, hostText;
  llvm::raw_string_ostream kernels, hosts;
  PythonWriter kernelWriter{kernels}, hostWriter{hosts};
  SmallVector<std::string> table;
  SmallVector<std::string> leftOut;
  /// Each form written so far (its kernels' and host function's text, with
  /// the stand-ins for the names) -> the Python name and symbol of the first
  /// function of that form.
  llvm::StringMap<std::pair<std::string, std::string>> forms;
  llvm::DenseMap<Value, std::string> names;
  /// The index in `out` of each value the function returns (its first).
  llvm::DenseMap<Value, unsigned> outIndex;
  bool usesLibdevice = false;
  unsigned opIndex = 0;
};

LogicalResult ModuleWriter::check(func::FuncOp function) {
  for (Type type : function.getFunctionType().getInputs())
    if (!isa<RankedTensorType>(type))
      return function.emitOpError("takes ")
             << type << ": the Triton backend passes only tensors";
  for (Type type : function.getFunctionType().getResults())
    if (!isa<RankedTensorType>(type))
      return function.emitOpError("returns ")
             << type << ": the Triton backend passes only tensors";
  for (Operation &op : function.getBody().front().without_terminator()) {
    if (auto graph = dyn_cast<kernel::GraphDefOp>(op)) {
      if (failed(checkGraphDef(graph)))
        return failure();
      continue;
    }
    bool supported =
        isa<kernel::MatmulOp, kernel::ReductionOp, kernel::ReductionMaxOp,
            kernel::RmsNormOp, kernel::ConcatOp, kernel::ChunkOp>(op) ||
        (op.getDialect() && isa<kernel::MirageKernelDialect>(op.getDialect()) &&
         getElementwiseKind(&op));
    if (!supported)
      return op.emitOpError("is not supported by the Triton backend");
  }
  return success();
}

std::string ModuleWriter::resultName(Operation *op, unsigned index) {
  std::string stem =
      op->getName().stripDialect().str() + std::to_string(opIndex);
  return op->getNumResults() == 1 ? stem : stem + "_" + std::to_string(index);
}

void ModuleWriter::comment(Operation *op) {
  std::string text = "# ";
  text += llvm::join(
      llvm::map_range(op->getResults(), [&](Value v) { return names.at(v); }),
      ", ");
  text += " = " + op->getName().stripDialect().str() + "(";
  text += llvm::join(
      llvm::map_range(op->getOperands(), [&](Value v) { return names.at(v); }),
      ", ");
  text += ")";
  if (!op->getAttrDictionary().empty() && !isa<kernel::GraphDefOp>(op)) {
    llvm::raw_string_ostream os(text);
    os << " " << op->getAttrDictionary();
  }
  hostWriter.line(text);
}

void ModuleWriter::writeFunction(func::FuncOp function) {
  // The form is written with stand-ins for the names, then kept under the
  // function's names if it is new; a function of a form written before (a
  // candidate's tuning variant: the copy mode is a PTX decision) is listed
  // in FUNCTIONS as that form's host function, compiled and measured once.
  size_t kernelStart = kernelText.size(), hostStart = hostText.size();
  writeForm(function);
  std::string form =
      kernelText.substr(kernelStart) + '\0' + hostText.substr(hostStart);
  kernelText.resize(kernelStart);
  hostText.resize(hostStart);
  StringRef symbol = function.getSymName();
  std::string name = pythonName(symbol);
  auto [known, isNew] = forms.try_emplace(form, name, symbol.str());
  auto named = [&](StringRef text) {
    return replaceAll(replaceAll(text, kNameStandIn, name), kSymbolStandIn,
                      symbol);
  };
  if (isNew) {
    size_t split = form.find('\0');
    kernelText += named(StringRef(form).take_front(split));
    hostText += named(StringRef(form).drop_front(split + 1));
  }
  Block &body = function.getBody().front();
  SmallVector<std::string> inputs = llvm::map_to_vector(
      body.getArgumentTypes(), [](Type type) { return specOf(type); });
  SmallVector<std::string> outputs =
      llvm::map_to_vector(function.getFunctionType().getResults(),
                          [](Type type) { return specOf(type); });
  const auto &[formName, formSymbol] = known->second;
  table.push_back(
      llvm::formatv("    \"{0}\": ({1}, [{2}], [{3}]),{4}", symbol, formName,
                    llvm::join(inputs, ", "), llvm::join(outputs, ", "),
                    isNew ? "" : "  # the Triton form of @" + formSymbol));
}

void ModuleWriter::writeForm(func::FuncOp function) {
  StringRef name = kNameStandIn;
  names.clear();
  outIndex.clear();
  opIndex = 0;
  Block &body = function.getBody().front();
  Operation *terminator = body.getTerminator();
  for (auto [index, value] : llvm::enumerate(terminator->getOperands()))
    outIndex.try_emplace(value, index);
  SmallVector<std::string> params;
  for (BlockArgument arg : body.getArguments()) {
    names[arg] = "arg" + std::to_string(arg.getArgNumber());
    params.push_back(names[arg]);
  }

  hostWriter.blank();
  hostWriter.blank();
  hostWriter.line("def " + name + "(" + llvm::join(params, ", ") +
                  (params.empty() ? "" : ", ") + "out=None):");
  hostWriter.indent();
  hostWriter.line("\"\"\"@" + kSymbolStandIn +
                  ": takes contiguous CUDA tensors; returns a tuple of new "
                  "ones, or fills the contiguous tensors of the tuple `out` "
                  "and returns it.\"\"\"");
  for (BlockArgument arg : body.getArguments()) {
    const std::string &p = names[arg];
    hostWriter.line(llvm::formatv("assert {0}.shape == {1} and {0}.dtype == "
                                  "{2} and {0}.is_contiguous()",
                                  p, tupleLiteral(shapeOf(arg)),
                                  torchDType(elementOf(arg)))
                        .str());
  }
  SmallVector<std::string> outChecks = {
      "len(out) == " + std::to_string(terminator->getNumOperands())};
  for (auto [index, value] : llvm::enumerate(terminator->getOperands()))
    outChecks.push_back(llvm::formatv(
        "out[{0}].shape == {1} and out[{0}].dtype "
        "== {2} and out[{0}].is_contiguous()",
        index, tupleLiteral(shapeOf(value)), torchDType(elementOf(value))));
  hostWriter.line("assert out is None or (" + llvm::join(outChecks, " and ") +
                  ")");
  if (!body.getOps<kernel::GraphDefOp>().empty())
    hostWriter.line(params.empty() ? "device = torch.device(\"cuda\")"
                                   : "device = " + params.front() + ".device");
  for (Operation &op : body.without_terminator()) {
    writeOp(&op, name);
    ++opIndex;
  }
  // Results not written into `out` by their graph_def are copied there.
  SmallVector<std::string> copies;
  for (auto [index, value] : llvm::enumerate(terminator->getOperands()))
    if (!isa_and_nonnull<kernel::GraphDefOp>(value.getDefiningOp()) ||
        outIndex.lookup(value) != index)
      copies.push_back(
          llvm::formatv("out[{0}].copy_({1})", index, names.at(value)));
  if (!copies.empty()) {
    hostWriter.line("if out is not None:");
    hostWriter.indent();
    for (const std::string &copy : copies)
      hostWriter.line(copy);
    hostWriter.line("return tuple(out)");
    hostWriter.dedent();
  }
  SmallVector<std::string> results = llvm::map_to_vector(
      terminator->getOperands(), [&](Value v) { return names.at(v); });
  hostWriter.line("return (" + llvm::join(results, ", ") +
                  (results.size() == 1 ? ",)" : ")"));
  hostWriter.dedent();
}

void ModuleWriter::writeOp(Operation *op, StringRef function) {
  for (OpResult result : op->getResults())
    names[result] = resultName(op, result.getResultNumber());
  comment(op);
  if (auto graph = dyn_cast<kernel::GraphDefOp>(op))
    return writeGraphDef(graph, function);
  std::string result = names.at(op->getResult(0));
  if (auto matmul = dyn_cast<kernel::MatmulOp>(op)) {
    // torch accumulates low-precision matmuls in float32 already.
    Type element = elementOf(matmul.getResult());
    if (elementOf(matmul.getLhs()) == element &&
        elementOf(matmul.getRhs()) == element)
      hostWriter.line(result + " = torch.matmul(" + names.at(matmul.getLhs()) +
                      ", " + names.at(matmul.getRhs()) + ")");
    else
      hostWriter.line(result + " = " +
                      narrowed("torch.matmul(" + widened(matmul.getLhs()) +
                                   ", " + widened(matmul.getRhs()) + ")",
                               matmul.getResult()));
    return;
  }
  if (auto reduction = dyn_cast<kernel::ReductionOp>(op)) {
    // The strided rule: split the dimension into (k, size) and sum over k.
    ArrayRef<int64_t> shape = shapeOf(reduction.getInput());
    unsigned dim = reduction.getDim();
    int64_t size = reduction.getSize();
    SmallVector<int64_t> split(shape.begin(), shape.begin() + dim);
    split.push_back(shape[dim] / size);
    split.push_back(size);
    split.append(shape.begin() + dim + 1, shape.end());
    hostWriter.line(result + " = " +
                    narrowed(widened(reduction.getInput()) + ".reshape(" +
                                 tupleLiteral(split) + ").sum(" +
                                 std::to_string(dim) + ")",
                             reduction.getResult()));
    return;
  }
  if (auto max = dyn_cast<kernel::ReductionMaxOp>(op)) {
    hostWriter.line(result + " = " +
                    narrowed(widened(max.getInput()) + ".amax(" +
                                 std::to_string(max.getDim()) +
                                 ", keepdim=True)",
                             max.getResult()));
    return;
  }
  if (auto norm = dyn_cast<kernel::RmsNormOp>(op)) {
    int64_t size = norm.getSize();
    hostWriter.line(result + "_rows = " + widened(norm.getInput()) +
                    ".reshape(-1, " + std::to_string(size) + ")");
    std::string mean = result + "_rows.square().mean(-1, keepdim=True)";
    double eps = norm.getEpsAttr().getValueAsDouble();
    if (eps != 0.0)
      mean += " + " + floatLiteral(eps);
    hostWriter.line(result + " = " +
                    narrowed("(" + result + "_rows / torch.sqrt(" + mean +
                                 ")).reshape(" +
                                 tupleLiteral(shapeOf(norm.getInput())) + ")",
                             norm.getResult()));
    return;
  }
  if (auto concat = dyn_cast<kernel::ConcatOp>(op)) {
    hostWriter.line(result + " = " +
                    narrowed("torch.cat((" + widened(concat.getLhs()) + ", " +
                                 widened(concat.getRhs()) + "), dim=" +
                                 std::to_string(concat.getDim()) + ")",
                             concat.getResult()));
    return;
  }
  if (auto chunk = dyn_cast<kernel::ChunkOp>(op)) {
    SmallVector<std::string> parts = llvm::map_to_vector(
        op->getResults(), [&](Value v) { return names.at(v); });
    hostWriter.line(llvm::formatv("{0} = [part.contiguous() for part in "
                                  "torch.chunk({1}, {2}, dim={3})]",
                                  llvm::join(parts, ", "),
                                  names.at(chunk.getInput()), parts.size(),
                                  chunk.getDim())
                        .str());
    return;
  }
  // check() admitted only elementwise ops besides.
  SmallVector<std::string> operands = llvm::map_to_vector(
      op->getOperands(), [&](Value v) { return widened(v); });
  hostWriter.line(result + " = " +
                  narrowed(*elementwiseExpr(op, operands, ArrayLibrary::Torch,
                                            usesLibdevice),
                           op->getResult(0)));
}

void ModuleWriter::writeGraphDef(kernel::GraphDefOp op, StringRef function) {
  std::string kernel = (function + "_" + names.at(op->getResult(0))).str();
  if (op->getNumResults() > 1)
    kernel = kernel.substr(0, kernel.rfind('_'));
  GraphDefLaunch launch =
      writeGraphDefKernels(op, kernel, kernelWriter, usesLibdevice);
  SmallVector<std::string> args =
      llvm::map_to_vector(op.getInputs(), [&](Value v) { return names.at(v); });
  for (OpResult result : op->getResults()) {
    std::string empty = llvm::formatv("torch.empty({0}, dtype={1}, "
                                      "device=device)",
                                      tupleLiteral(shapeOf(result)),
                                      torchDType(elementOf(result)));
    auto returned = outIndex.find(result);
    hostWriter.line(names.at(result) + " = " +
                    (returned == outIndex.end()
                         ? empty
                         : llvm::formatv("out[{0}] if out is not None else {1}",
                                         returned->second, empty)
                               .str()));
    args.push_back(names.at(result));
  }
  for (auto [k, shape] : llvm::enumerate(launch.scratchShapes)) {
    std::string scratch = kernel + "_scratch" + std::to_string(k);
    hostWriter.line(llvm::formatv("{0} = torch.empty({1}, dtype=torch.float32, "
                                  "device=device)",
                                  scratch, tupleLiteral(shape))
                        .str());
    args.push_back(scratch);
  }
  for (const std::string &name : launch.kernels)
    hostWriter.line(llvm::formatv("{0}[{1}]({2}, num_warps={3})", name,
                                  tupleLiteral(launch.grid),
                                  llvm::join(args, ", "), launch.numWarps)
                        .str());
}

void ModuleWriter::finish(raw_ostream &output) {
  output << "# Generated by mirage-translate --mirage-to-triton; "
            "docs/Triton.md describes\n"
            "# the host functions and the kernels.\n"
            "import torch\n"
            "import triton\n"
            "import triton.language as tl\n";
  if (usesLibdevice)
    output << "from triton.language.extra import libdevice\n";
  if (!leftOut.empty())
    output << "\n# Left out (not supported by the Triton backend):\n"
           << llvm::join(leftOut, "\n") << "\n";
  output << kernelText << hostText << "\n\n"
         << "#: Every host function: symbol name -> (function, input specs, "
            "output specs),\n"
            "#: a spec being (shape, dtype).\n"
            "FUNCTIONS = {\n"
         << llvm::join(table, "\n") << "\n}\n";
}

} // namespace

LogicalResult mlir::mirage::translateToTriton(ModuleOp module,
                                              raw_ostream &output,
                                              bool skipUnsupported) {
  ModuleWriter writer;
  SmallVector<func::FuncOp> functions;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function.isExternal())
      continue;
    if (!skipUnsupported) {
      if (failed(writer.check(function)))
        return failure();
      functions.push_back(function);
      continue;
    }
    // The refusal's error becomes the reason the function is left out.
    std::string reason;
    LogicalResult checked = success();
    {
      ScopedDiagnosticHandler capture(
          module.getContext(), [&](Diagnostic &diagnostic) {
            if (diagnostic.getSeverity() != DiagnosticSeverity::Error)
              return failure();
            if (reason.empty())
              reason = diagnostic.str();
            return success();
          });
      checked = writer.check(function);
    }
    if (succeeded(checked)) {
      functions.push_back(function);
      continue;
    }
    function.emitWarning("left out of the Triton module: ") << reason;
    writer.leaveOut(function, reason);
  }
  for (func::FuncOp function : functions)
    writer.writeFunction(function);
  writer.finish(output);
  return success();
}
