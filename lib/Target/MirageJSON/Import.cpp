//===- Import.cpp - Import the public implementation's µGraph JSON --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Target/MirageJSON.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "MirageJSONFormat.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::mirage;
namespace json = llvm::json;

namespace {

/// A tensor as the file declares it.
struct TensorDecl {
  int64_t guid = 0;
  SmallVector<int64_t, 4> shape;
};

/// The guids of every output tensor of `ops`, well formed or not: lets a
/// read before the producing op be told from a read of a guid nobody makes.
llvm::DenseSet<int64_t> collectOutputGuids(const json::Array &ops) {
  llvm::DenseSet<int64_t> guids;
  for (const json::Value &value : ops)
    if (const json::Object *op = value.getAsObject())
      if (const json::Array *outs = op->getArray("output_tensors"))
        for (const json::Value &t : *outs)
          if (const json::Object *tensor = t.getAsObject())
            if (std::optional<int64_t> guid = tensor->getInteger("guid"))
              guids.insert(*guid);
  return guids;
}

class Importer {
public:
  Importer(MLIRContext *context, StringRef file, StringRef prefix)
      : context(context), builder(context), file(file), prefix(prefix) {}

  OwningOpRef<ModuleOp> run(const json::Value &root);

private:
  //===--- Diagnostics
  //-----------------------------------------------------===//
  /// The place being imported, e.g. "graph 3, op 4 (kn_customized_op)".
  std::string where() const {
    std::string s = llvm::formatv("graph {0}", graphIndex);
    auto describe = [](StringRef what, int index, StringRef type) {
      std::string d = llvm::formatv(", {0} {1}", what, index);
      return type.empty() ? d : d + " (" + type.str() + ")";
    };
    if (opIndex >= 0)
      s += describe("op", opIndex, opType);
    if (blockOpIndex >= 0)
      s += describe("block op", blockOpIndex, blockOpType);
    return s;
  }
  Location loc() const {
    return NameLoc::get(StringAttr::get(context, file + ": " + where()));
  }
  InFlightDiagnostic error() const { return emitError(loc()); }

  //===--- Field access
  //----------------------------------------------------===//
  FailureOr<const json::Object *> getObject(const json::Object &o,
                                            StringRef key) {
    if (const json::Object *value = o.getObject(key))
      return value;
    return error() << "expected an object '" << key << "'";
  }
  FailureOr<const json::Array *> getArray(const json::Object &o,
                                          StringRef key) {
    if (const json::Array *value = o.getArray(key))
      return value;
    return error() << "expected an array '" << key << "'";
  }
  FailureOr<int64_t> getInt(const json::Object &o, StringRef key) {
    if (std::optional<int64_t> value = o.getInteger(key))
      return *value;
    return error() << "expected an integer '" << key << "'";
  }
  /// An `{x, y, z}` object of integers in [lo, hi].
  FailureOr<std::array<int32_t, 3>> getXYZ(const json::Object &o, StringRef key,
                                           int64_t lo, int64_t hi);
  FailureOr<TensorDecl> parseTensor(const json::Object *t, StringRef what);
  /// The declared tensors of `key` (input_tensors / output_tensors).
  FailureOr<SmallVector<TensorDecl>>
  parseTensors(const json::Object &op, StringRef key, size_t expected);

  //===--- Graphs
  //----------------------------------------------------------===//
  LogicalResult importGraph(const json::Array &ops);
  FailureOr<Value> lookup(const llvm::DenseMap<int64_t, Value> &values,
                          const llvm::DenseSet<int64_t> &producedSomewhere,
                          const TensorDecl &tensor);
  /// The op object `value`; stores its op_type in `typeSlot` (which the
  /// locations of diagnostics name).
  FailureOr<const json::Object *> beginOp(const json::Value &value,
                                          std::string &typeSlot) {
    typeSlot.clear();
    const json::Object *op = value.getAsObject();
    if (!op)
      return error() << "is not an object";
    std::optional<StringRef> type = op->getString("op_type");
    if (!type)
      return error() << "expected a string 'op_type'";
    typeSlot = type->str();
    return op;
  }
  /// The values of `tensors`, in order.
  FailureOr<SmallVector<Value>>
  lookupAll(const llvm::DenseMap<int64_t, Value> &values,
            const llvm::DenseSet<int64_t> &producedSomewhere,
            ArrayRef<TensorDecl> tensors) {
    SmallVector<Value> result;
    for (const TensorDecl &t : tensors) {
      FailureOr<Value> v = lookup(values, producedSomewhere, t);
      if (failed(v))
        return failure();
      result.push_back(*v);
    }
    return result;
  }
  FailureOr<Operation *> createComputeOp(StringRef dialect, StringRef opType,
                                         ValueRange operands, Type resultType);
  LogicalResult importCustomized(const json::Object &op,
                                 ArrayRef<TensorDecl> inputs,
                                 ArrayRef<TensorDecl> outputs,
                                 ValueRange operands,
                                 SmallVectorImpl<Value> &results);

  MLIRContext *context;
  OpBuilder builder;
  std::string file;
  std::string prefix;
  ModuleOp module;
  int graphIndex = -1, opIndex = -1, blockOpIndex = -1;
  std::string opType, blockOpType;
};

FailureOr<std::array<int32_t, 3>>
Importer::getXYZ(const json::Object &o, StringRef key, int64_t lo, int64_t hi) {
  FailureOr<const json::Object *> xyz = getObject(o, key);
  if (failed(xyz))
    return failure();
  std::array<int32_t, 3> result;
  for (auto [i, axis] : llvm::enumerate(StringRef("xyz"))) {
    std::optional<int64_t> v = (*xyz)->getInteger(StringRef(&axis, 1));
    if (!v)
      return error() << "'" << key << "' needs an integer '" << axis << "'";
    if (*v < lo || *v > hi)
      return error() << "'" << key << "." << axis << "' is " << *v
                     << ", expected a value in [" << lo << ", " << hi << "]";
    result[i] = static_cast<int32_t>(*v);
  }
  return result;
}

FailureOr<TensorDecl> Importer::parseTensor(const json::Object *t,
                                            StringRef what) {
  if (!t)
    return error() << what << " is not an object";
  TensorDecl decl;
  FailureOr<int64_t> guid = getInt(*t, "guid"),
                     numDims = getInt(*t, "num_dims"),
                     dataType = getInt(*t, "data_type");
  FailureOr<const json::Array *> dims = getArray(*t, "dim");
  if (failed(guid) || failed(numDims) || failed(dataType) || failed(dims))
    return failure();
  decl.guid = *guid;
  if (*numDims < 1 || *numDims > static_cast<int64_t>((*dims)->size()))
    return error() << what << " (guid " << *guid << ") has num_dims "
                   << *numDims << " but " << (*dims)->size() << " dims";
  int64_t elements = 1;
  for (int64_t i = 0; i < *numDims; ++i) {
    std::optional<int64_t> d = (**dims)[i].getAsInteger();
    if (!d || *d <= 0)
      return error() << what << " (guid " << *guid << ") dim " << i
                     << " must be a positive integer";
    if (llvm::MulOverflow(elements, *d, elements))
      return error() << what << " (guid " << *guid
                     << ") has more elements than a 64-bit count holds";
    decl.shape.push_back(*d);
  }
  if (!json_format::isF16Code(*dataType))
    return error() << what << " (guid " << *guid << ") has data_type "
                   << *dataType << "; only fp16 (921, 940, 941) is supported";
  return decl;
}

FailureOr<SmallVector<TensorDecl>>
Importer::parseTensors(const json::Object &op, StringRef key, size_t expected) {
  FailureOr<const json::Array *> array = getArray(op, key);
  if (failed(array))
    return failure();
  if (expected != ~size_t(0) && (*array)->size() != expected)
    return error() << "expected " << expected << " entries in '" << key
                   << "', got " << (*array)->size();
  SmallVector<TensorDecl> tensors;
  for (auto [i, value] : llvm::enumerate(**array)) {
    FailureOr<TensorDecl> t = parseTensor(
        value.getAsObject(), (key + "[" + std::to_string(i) + "]").str());
    if (failed(t))
      return failure();
    tensors.push_back(*t);
  }
  return tensors;
}

FailureOr<Value>
Importer::lookup(const llvm::DenseMap<int64_t, Value> &values,
                 const llvm::DenseSet<int64_t> &producedSomewhere,
                 const TensorDecl &tensor) {
  Value value = values.lookup(tensor.guid);
  if (!value) {
    if (producedSomewhere.contains(tensor.guid))
      return error() << "reads tensor guid " << tensor.guid
                     << " before the op that produces it: ops must be in "
                        "topological order (is there a cycle?)";
    return error() << "reads tensor guid " << tensor.guid
                   << ", which no op produces";
  }
  ArrayRef<int64_t> shape = cast<ShapedType>(value.getType()).getShape();
  if (shape != ArrayRef<int64_t>(tensor.shape))
    return error() << "declares tensor guid " << tensor.guid << " as "
                   << formatShape(tensor.shape) << " but it is "
                   << formatShape(shape);
  return value;
}

FailureOr<Operation *> Importer::createComputeOp(StringRef dialect,
                                                 StringRef type,
                                                 ValueRange operands,
                                                 Type resultType) {
  std::optional<json_format::ComputeOp> info =
      json_format::lookupComputeOp(type);
  if (!info)
    return error() << "unknown op_type '" << type << "'";
  if (operands.size() != info->numOperands)
    return error() << type << " takes " << info->numOperands
                   << " input tensors, got " << operands.size();
  OperationState state(loc(), (dialect + "." + info->mnemonic).str());
  state.addOperands(operands);
  state.addTypes(resultType);
  // rms_norm normalises the last dimension.
  if (info->mnemonic == "rms_norm")
    state.addAttribute("size",
                       builder.getI64IntegerAttr(
                           cast<ShapedType>(resultType).getShape().back()));
  return builder.create(state);
}

LogicalResult Importer::importCustomized(const json::Object &op,
                                         ArrayRef<TensorDecl> inputs,
                                         ArrayRef<TensorDecl> outputs,
                                         ValueRange operands,
                                         SmallVectorImpl<Value> &results) {
  FailureOr<const json::Object *> bgraph = getObject(op, "bgraph");
  if (failed(bgraph))
    return failure();
  FailureOr<std::array<int32_t, 3>> grid =
      getXYZ(**bgraph, "grid_dim", 1, INT32_MAX);
  FailureOr<std::array<int32_t, 3>> block =
      getXYZ(**bgraph, "block_dim", 1, 1024);
  FailureOr<int64_t> forloop = getInt(**bgraph, "forloop_range");
  FailureOr<int64_t> reductionDimx = getInt(**bgraph, "reduction_dimx");
  FailureOr<const json::Array *> operators = getArray(**bgraph, "operators");
  if (failed(grid) || failed(block) || failed(forloop) ||
      failed(reductionDimx) || failed(operators))
    return failure();

  SmallVector<Type> resultTypes;
  for (const TensorDecl &t : outputs)
    resultTypes.push_back(RankedTensorType::get(t.shape, builder.getF16Type()));
  OperationState state(loc(), kernel::GraphDefOp::getOperationName());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  state.addAttribute("grid", builder.getDenseI32ArrayAttr(*grid));
  state.addAttribute("block", builder.getDenseI32ArrayAttr(*block));
  state.addAttribute("forloop", builder.getI64IntegerAttr(*forloop));
  Region *region = state.addRegion();
  Block *body = new Block();
  region->push_back(body);
  for (Value operand : operands)
    body->addArgument(operand.getType(), loc());
  Operation *graphDef = builder.create(state);
  results.append(graphDef->result_begin(), graphDef->result_end());

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  llvm::DenseMap<int64_t, Value> tiles;
  llvm::DenseSet<int64_t> producedSomewhere = collectOutputGuids(**operators);
  SmallVector<Value> saved(outputs.size());

  auto findTensor = [](ArrayRef<TensorDecl> tensors, int64_t guid) {
    auto it = llvm::find_if(
        tensors, [&](const TensorDecl &t) { return t.guid == guid; });
    return it == tensors.end() ? -1 : static_cast<int>(it - tensors.begin());
  };

  for (auto [index, value] : llvm::enumerate(**operators)) {
    blockOpIndex = index;
    FailureOr<const json::Object *> bopOrFailure = beginOp(value, blockOpType);
    if (failed(bopOrFailure))
      return failure();
    const json::Object *bop = *bopOrFailure;
    StringRef type = blockOpType;
    bool isInput = type == "tb_input_op", isOutput = type == "tb_output_op";
    FailureOr<SmallVector<TensorDecl>> ins =
        parseTensors(*bop, "input_tensors", isInput ? 0 : ~size_t(0));
    FailureOr<SmallVector<TensorDecl>> outs =
        parseTensors(*bop, "output_tensors", isOutput ? 0 : 1);
    if (failed(ins) || failed(outs))
      return failure();
    FailureOr<SmallVector<Value>> lookedUp =
        lookupAll(tiles, producedSomewhere, *ins);
    if (failed(lookedUp))
      return failure();
    SmallVector<Value> &args = *lookedUp;
    Type tileType;
    if (!isOutput) {
      tileType =
          block::STensorType::get((*outs)[0].shape, builder.getF16Type());
      if (tiles.count((*outs)[0].guid))
        return error() << "produces tensor guid " << (*outs)[0].guid
                       << " a second time";
    }

    Operation *created = nullptr;
    if (isInput || isOutput) {
      FailureOr<TensorDecl> dtensor =
          parseTensor(bop->getObject("dtensor"), "dtensor");
      FailureOr<std::array<int32_t, 3>> map =
          getXYZ(*bop, isInput ? "input_map" : "output_map", -1, INT32_MAX);
      if (failed(dtensor) || failed(map))
        return failure();
      auto gridMap =
          block::GridMapAttr::get(context, (*map)[0], (*map)[1], (*map)[2]);
      if (isInput) {
        int position = findTensor(inputs, dtensor->guid);
        if (position < 0)
          return error() << "reads dtensor guid " << dtensor->guid
                         << ", which is not an input of its kn_customized_op";
        FailureOr<int64_t> fmap = getInt(*bop, "forloop_dim");
        if (failed(fmap))
          return failure();
        created = block::InputLoaderOp::create(
            builder, loc(), tileType, body->getArgument(position), gridMap,
            builder.getI64IntegerAttr(*fmap));
      } else {
        int position = findTensor(outputs, dtensor->guid);
        if (position < 0)
          return error() << "writes dtensor guid " << dtensor->guid
                         << ", which is not an output of its kn_customized_op";
        if (saved[position])
          return error() << "writes dtensor guid " << dtensor->guid
                         << " a second time";
        if (args.size() != 1)
          return error() << "takes 1 input tensor, got " << args.size();
        if (bop->getInteger("forloop_dim").value_or(-1) >= 0)
          return error() << "saves inside the for-loop (forloop_dim >= 0), "
                            "which the format of 2024 never does and "
                            "Mirage-MLIR does not express";
        created = block::OutputSaverOp::create(
            builder, loc(), resultTypes[position], args[0], gridMap);
        saved[position] = created->getResult(0);
        continue;
      }
    } else if (std::optional<block::AccumKind> kind =
                   json_format::lookupAccumKind(type)) {
      if (args.size() != 1)
        return error() << "takes 1 input tensor, got " << args.size();
      IntegerAttr size;
      if (*kind == block::AccumKind::SumLastTo)
        size = builder.getI64IntegerAttr(*reductionDimx);
      created = block::ForloopAccumOp::create(
          builder, loc(), tileType, args[0],
          block::AccumKindAttr::get(context, *kind), size,
          builder.getF32FloatAttr(0.0f));
    } else {
      FailureOr<Operation *> op =
          createComputeOp("mirage_block", type, args, tileType);
      if (failed(op))
        return failure();
      created = *op;
    }
    tiles[(*outs)[0].guid] = created->getResult(0);
  }
  blockOpIndex = -1;
  for (auto [i, value] : llvm::enumerate(saved))
    if (!value)
      return error() << "never writes its output tensor guid "
                     << outputs[i].guid << " (no tb_output_op saves it)";
  block::YieldOp::create(builder, loc(), saved);
  return success();
}

LogicalResult Importer::importGraph(const json::Array &ops) {
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, loc(),
                                   (prefix + "_" + std::to_string(graphIndex)),
                                   builder.getFunctionType({}, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  llvm::DenseMap<int64_t, Value> tensors;
  llvm::DenseSet<int64_t> producedSomewhere = collectOutputGuids(ops);

  SmallVector<Value> results;
  SmallVector<std::pair<unsigned, DenseI64ArrayAttr>> argStrides;
  for (auto [index, value] : llvm::enumerate(ops)) {
    opIndex = index;
    FailureOr<const json::Object *> opOrFailure = beginOp(value, opType);
    if (failed(opOrFailure))
      return failure();
    const json::Object *op = *opOrFailure;
    StringRef type = opType;
    bool isInput = type == "kn_input_op", isOutput = type == "kn_output_op";
    FailureOr<SmallVector<TensorDecl>> ins = parseTensors(
        *op, "input_tensors", isInput ? 0 : (isOutput ? 1 : ~size_t(0)));
    FailureOr<SmallVector<TensorDecl>> outs = parseTensors(
        *op, "output_tensors",
        isOutput ? 0 : (type == "kn_customized_op" ? ~size_t(0) : 1));
    if (failed(ins) || failed(outs))
      return failure();
    FailureOr<SmallVector<Value>> lookedUp =
        lookupAll(tensors, producedSomewhere, *ins);
    if (failed(lookedUp))
      return failure();
    SmallVector<Value> &operands = *lookedUp;
    for (const TensorDecl &t : *outs)
      if (tensors.count(t.guid))
        return error() << "produces tensor guid " << t.guid << " a second time";

    if (isInput || isOutput) {
      FailureOr<std::array<int32_t, 3>> map =
          getXYZ(*op, isInput ? "input_map" : "output_map", -1, INT32_MAX);
      if (failed(map))
        return failure();
      if (*map != std::array<int32_t, 3>{-1, -1, -1})
        return error() << "partitions the tensor across GPUs, which "
                          "single-GPU programs cannot express";
      const TensorDecl &t = isInput ? (*outs)[0] : (*ins)[0];
      FailureOr<const json::Array *> strides =
          getArray(*op, isInput ? "input_strides" : "output_strides");
      if (failed(strides))
        return failure();
      SmallVector<int64_t> stride;
      for (const json::Value &s : **strides) {
        std::optional<int64_t> v = s.getAsInteger();
        if (!v || *v <= 0)
          return error() << "strides must be positive integers";
        stride.push_back(*v);
      }
      if (stride.size() != t.shape.size())
        return error() << "has " << stride.size() << " strides for a rank-"
                       << t.shape.size() << " tensor";
      if (isOutput) {
        results.push_back(operands[0]);
        continue;
      }
      BlockArgument arg = entry->addArgument(
          RankedTensorType::get(t.shape, builder.getF16Type()), loc());
      // Row-major strides are the default; any other layout is kept (set
      // once the function type has its arguments).
      if (stride != json_format::rowMajorStrides(t.shape))
        argStrides.emplace_back(arg.getArgNumber(),
                                builder.getDenseI64ArrayAttr(stride));
      tensors[t.guid] = arg;
      continue;
    }

    SmallVector<Value> produced;
    if (type == "kn_customized_op") {
      if (failed(importCustomized(*op, *ins, *outs, operands, produced)))
        return failure();
    } else {
      FailureOr<Operation *> created = createComputeOp(
          "mirage_kernel", type, operands,
          RankedTensorType::get((*outs)[0].shape, builder.getF16Type()));
      if (failed(created))
        return failure();
      produced.push_back((*created)->getResult(0));
    }
    for (auto [t, v] : llvm::zip(*outs, produced))
      tensors[t.guid] = v;
  }
  opIndex = -1;
  if (results.empty())
    return error() << "has no kn_output_op";
  func::ReturnOp::create(builder, loc(), results);
  func.setType(builder.getFunctionType(entry->getArgumentTypes(),
                                       ValueRange(results).getTypes()));
  for (auto [arg, strides] : argStrides)
    func.setArgAttr(arg, "mirage.strides", strides);
  return success();
}

OwningOpRef<ModuleOp> Importer::run(const json::Value &root) {
  OwningOpRef<ModuleOp> owned = ModuleOp::create(UnknownLoc::get(context));
  module = *owned;
  const json::Array *graphs = root.getAsArray();
  if (!graphs) {
    emitError(UnknownLoc::get(context))
        << file << ": expected a JSON array of graphs";
    return nullptr;
  }
  for (auto [index, graph] : llvm::enumerate(*graphs)) {
    graphIndex = index;
    opIndex = blockOpIndex = -1;
    const json::Array *ops = graph.getAsArray();
    if (!ops) {
      error() << "is not a JSON array of ops";
      return nullptr;
    }
    if (failed(importGraph(*ops)))
      return nullptr;
  }
  // Shapes, maps and loop phases are checked by the op verifiers, at the
  // locations that name each graph and op.
  if (failed(verify(module)))
    return nullptr;
  return owned;
}

} // namespace

/// The deepest nesting of arrays and objects in `text` (outside strings), or
/// stops counting past `limit`. llvm::json::parse recurses once per level,
/// so depth is checked before parsing.
static int64_t getNestingDepth(StringRef text, int64_t limit) {
  int64_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size() && deepest <= limit; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

OwningOpRef<ModuleOp> mlir::mirage::importMirageJSON(llvm::SourceMgr &sourceMgr,
                                                     MLIRContext *context,
                                                     StringRef prefix) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef file = buffer->getBufferIdentifier();
  // The format nests about 8 levels; 64 leaves room and keeps the parser's
  // recursion shallow.
  constexpr int64_t kMaxDepth = 64;
  if (getNestingDepth(buffer->getBuffer(), kMaxDepth) > kMaxDepth) {
    emitError(UnknownLoc::get(context))
        << file << ": arrays and objects nest deeper than " << kMaxDepth
        << " levels, which no µGraph file does";
    return nullptr;
  }
  llvm::Expected<json::Value> root = json::parse(buffer->getBuffer());
  if (!root) {
    emitError(UnknownLoc::get(context))
        << file << ": malformed JSON: " << llvm::toString(root.takeError());
    return nullptr;
  }
  context->loadDialect<kernel::MirageKernelDialect, block::MirageBlockDialect,
                       func::FuncDialect>();
  return Importer(context, llvm::sys::path::filename(file), prefix).run(*root);
}
