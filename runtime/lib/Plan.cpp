//===- Plan.cpp - The plan.json of a bundle -------------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Plan.h"

#include "JsonReader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

using namespace mirage::runtime;
using json::indexed;
using json::member;

std::string_view mirage::runtime::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  }
  return "?";
}

int64_t mirage::runtime::dtypeSize(DType dtype) {
  return dtype == DType::F32 ? 4 : 2;
}

std::optional<DType> mirage::runtime::parseDType(std::string_view name) {
  for (DType dtype : {DType::F16, DType::BF16, DType::F32})
    if (dtypeName(dtype) == name)
      return dtype;
  return std::nullopt;
}

std::vector<int64_t>
mirage::runtime::contiguousStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

std::string mirage::runtime::formatList(const std::vector<int64_t> &values) {
  std::string result = "[";
  for (size_t i = 0; i < values.size(); ++i)
    result += (i ? ", " : "") + std::to_string(values[i]);
  return result + "]";
}

int64_t TensorType::numElements() const {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

bool Launch::usesClusters() const {
  return cluster[0] != 1 || cluster[1] != 1 || cluster[2] != 1;
}

uint32_t Launch::getSharedMemory(const std::string &chip) const {
  auto entry = chipSharedMemory.find(chip);
  return entry == chipSharedMemory.end() ? sharedMemory : entry->second;
}

bool mirage::runtime::isTuningKey(std::string_view text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

int64_t LibraryMatmul::getResultTiles() const {
  auto tiles = [](int64_t extent) { return (extent + 127) / 128; };
  return batch * tiles(m) * tiles(n);
}

bool Function::canRunBesideNext(size_t l, int multiprocessors) const {
  if (l + 1 >= launches.size())
    return false;
  const Launch &a = launches[l], &b = launches[l + 1];
  if (!a.library || !b.library ||
      a.library->getResultTiles() + b.library->getResultTiles() >
          multiprocessors)
    return false;
  auto same = [](const LaunchArg &x, const LaunchArg &y) {
    return x.kind == y.kind && x.index == y.index;
  };
  auto touches = [&](const Launch &launch, const LaunchArg &memory) {
    return std::any_of(launch.args.begin(), launch.args.end(),
                       [&](const LaunchArg &arg) { return same(arg, memory); });
  };
  return !touches(b, a.args[2]) && !touches(a, b.args[2]);
}

int64_t Function::getBoundBytes(const LaunchArg &arg) const {
  return arg.kind == ArgKind::Input    ? inputs[arg.index].numBytes()
         : arg.kind == ArgKind::Output ? outputs[arg.index].numBytes()
                                       : buffers[arg.index].bytes;
}

Expected<const Function *> Plan::lookup(std::string_view name) const {
  if (name.empty() && functions.size() == 1)
    return &functions.front();
  for (const Function &function : functions)
    if (function.name == name)
      return &function;
  std::string names;
  for (const Function &function : functions)
    names += (names.empty() ? "" : ", ") + function.name;
  if (name.empty())
    return Error(ErrorCode::InvalidArgument,
                 "the bundle has " + std::to_string(functions.size()) +
                     " functions (" + names + "); name one");
  return Error(ErrorCode::InvalidArgument, "the bundle has no function \"" +
                                               std::string(name) +
                                               "\" (it has: " + names + ")");
}

namespace {

/// Hardware launch limits shared by sm_80 and sm_90.
constexpr int64_t maxGridX = std::numeric_limits<int32_t>::max();
constexpr int64_t maxGridYZ = 65535;
constexpr std::array<int64_t, 3> maxBlock = {1024, 1024, 64};
constexpr int64_t maxThreadsPerBlock = 1024;
constexpr int64_t maxPortableClusterSize = 8;
/// Bounds any tensor or buffer size so byte counts never overflow.
constexpr int64_t maxBytes = int64_t(1) << 48;
/// The largest batch count and matrix dimension of a library matmul
/// (cuBLASLt's batch count is a 32-bit integer).
constexpr int64_t maxExtent = std::numeric_limits<int32_t>::max();

std::string formatDim3(const std::array<uint32_t, 3> &dims) {
  return formatList({dims[0], dims[1], dims[2]});
}

/// Reads plan.json's JSON tree into a Plan. Every reader records the first
/// failure and returns a harmless default, so the structure of `read` stays
/// linear; `read` reports that first failure.
class PlanReader : json::Reader {
public:
  PlanReader() : json::Reader("plan.json: ") {}

  Expected<Plan> read(const json::Value &root) {
    Plan plan;
    if (checkObject(root, "", {"format", "version", "ptx", "functions"})) {
      const json::Value *format = field(root, "", "format");
      if (format && requireString(*format, "format") != "mirage-bundle")
        fail("format", "expected \"mirage-bundle\"");
      if (const json::Value *version = field(root, "", "version")) {
        int64_t number = integer(*version, "version", 0,
                                 std::numeric_limits<int32_t>::max());
        if (!failed() && number != 1)
          fail("version", "unsupported version " + std::to_string(number) +
                              " (this runtime reads version 1)");
      }
      if (const json::Value *ptx = field(root, "", "ptx"))
        plan.ptx = readPtx(*ptx);
      if (const json::Value *functions = field(root, "", "functions"))
        plan.functions = readFunctions(*functions);
      checkClusterChips(plan);
    }
    if (Error error = takeError(ErrorCode::InvalidBundle))
      return error;
    return plan;
  }

private:
  /// A non-empty string without NUL characters: the runtime passes names on
  /// as C strings.
  std::string name(const json::Value &value, const std::string &path) {
    std::string string = nonEmptyString(value, path);
    if (!failed() && string.find('\0') != std::string::npos)
      fail(path, "expected a name without NUL characters");
    return string;
  }

  std::array<uint32_t, 3> dim3(const json::Value &value,
                               const std::string &path) {
    std::array<uint32_t, 3> result{1, 1, 1};
    bool valid = value.isArray() && value.getArray().size() == 3;
    for (size_t i = 0; valid && i < 3; ++i) {
      const json::Value &element = value.getArray()[i];
      valid = element.isInteger() && element.getInteger() > 0 &&
              element.getInteger() <= maxGridX;
      if (valid)
        result[i] = static_cast<uint32_t>(element.getInteger());
    }
    if (!valid)
      fail(path, "expected 3 positive integers");
    return result;
  }

  std::map<std::string, std::string> readPtx(const json::Value &value) {
    std::map<std::string, std::string> ptx;
    if (!value.isObject()) {
      fail("ptx", "expected an object, got " +
                      std::string(json::kindName(value.kind())));
      return ptx;
    }
    if (value.getObject().empty())
      fail("ptx", "expected at least one chip (sm_80, sm_90a)");
    for (const json::Value::Member &entry : value.getObject()) {
      if (std::find(knownChips.begin(), knownChips.end(), entry.first) ==
          knownChips.end())
        fail("ptx",
             "unknown chip \"" + entry.first + "\" (expected sm_80 or sm_90a)");
      std::string path = member("ptx", entry.first);
      std::string file = name(entry.second, path);
      if (!failed() &&
          (file.find('/') != std::string::npos ||
           file.find('\\') != std::string::npos || file == "." || file == ".."))
        fail(path,
             "expected a file name next to plan.json, got \"" + file + "\"");
      ptx[entry.first] = file;
      chips.insert(entry.first);
    }
    return ptx;
  }

  std::vector<Function> readFunctions(const json::Value &value) {
    std::vector<Function> functions;
    const std::vector<json::Value> &elements = array(value, "functions");
    if (!failed() && elements.empty())
      fail("functions", "expected at least one function");
    std::set<std::string> names;
    for (size_t i = 0; i < elements.size() && !failed(); ++i) {
      std::string path = indexed("functions", i);
      functions.push_back(readFunction(elements[i], path));
      if (!failed() && !names.insert(functions.back().name).second)
        fail(member(path, "name"),
             "duplicate function name \"" + functions.back().name + "\"");
    }
    return functions;
  }

  Function readFunction(const json::Value &value, const std::string &path) {
    Function function;
    if (!checkObject(value, path,
                     {"name", "inputs", "outputs", "buffers", "launches",
                      "program", "reference", "tuning", "overlap"}))
      return function;
    if (const json::Value *functionName = field(value, path, "name"))
      function.name = name(*functionName, member(path, "name"));
    if (const json::Value *inputs = field(value, path, "inputs"))
      function.inputs = readTensors(*inputs, member(path, "inputs"));
    if (const json::Value *outputs = field(value, path, "outputs")) {
      function.outputs = readTensors(*outputs, member(path, "outputs"));
      if (!failed() && function.outputs.empty())
        fail(member(path, "outputs"), "expected at least one output");
    }
    if (const json::Value *buffers = field(value, path, "buffers"))
      function.buffers = readBuffers(*buffers, member(path, "buffers"));
    if (const json::Value *launches = field(value, path, "launches"))
      function.launches =
          readLaunches(*launches, member(path, "launches"), function);
    // The runtime does not interpret the programs (tests read them, and
    // mirage-tune copies the winner's program); it checks their kind.
    for (const char *key : {"program", "reference"})
      if (const json::Value *program = value.find(key))
        requireObject(*program, member(path, key));
    function.hasReference = value.find("reference") != nullptr;
    if (const json::Value *program = value.find("program");
        program && !failed())
      function.program = json::write(*program);
    if (const json::Value *tuning = value.find("tuning"))
      function.tuning = readTuning(*tuning, member(path, "tuning"));
    if (const json::Value *overlap = value.find("overlap"))
      function.overlap =
          boolean(*overlap, member(path, "overlap"), function.overlap);
    return function;
  }

  TuningInfo readTuning(const json::Value &value, const std::string &path) {
    TuningInfo tuning;
    if (!checkObject(value, path, {"key", "compiler", "candidate"}))
      return tuning;
    if (const json::Value *key = field(value, path, "key"))
      tuning.key = tuningKey(*key, member(path, "key"));
    if (const json::Value *compiler = field(value, path, "compiler"))
      tuning.compiler = nonEmptyString(*compiler, member(path, "compiler"));
    if (const json::Value *candidate = field(value, path, "candidate"))
      tuning.candidate = integer(*candidate, member(path, "candidate"), -1,
                                 std::numeric_limits<int32_t>::max());
    return tuning;
  }

  std::vector<TensorType> readTensors(const json::Value &value,
                                      const std::string &path) {
    std::vector<TensorType> tensors;
    const std::vector<json::Value> &elements = array(value, path);
    for (size_t i = 0; i < elements.size() && !failed(); ++i)
      tensors.push_back(readTensor(elements[i], indexed(path, i)));
    return tensors;
  }

  TensorType readTensor(const json::Value &value, const std::string &path) {
    TensorType tensor;
    if (!checkObject(value, path, {"shape", "dtype", "strides"}))
      return tensor;
    if (const json::Value *shape = field(value, path, "shape"))
      tensor.shape = readShape(*shape, member(path, "shape"));
    tensor.dtype = readDType(value, path, "dtype");
    if (const json::Value *strides = field(value, path, "strides")) {
      std::vector<int64_t> expected = contiguousStrides(tensor.shape);
      std::vector<int64_t> actual;
      for (const json::Value &element :
           array(*strides, member(path, "strides")))
        actual.push_back(element.isInteger() ? element.getInteger() : -1);
      if (!failed() && actual != expected)
        fail(member(path, "strides"),
             "expected the contiguous strides " + formatList(expected));
      tensor.strides = expected;
    }
    if (!failed() && tensor.numElements() > maxBytes / dtypeSize(tensor.dtype))
      fail(member(path, "shape"), "tensor too large");
    return tensor;
  }

  std::vector<int64_t> readShape(const json::Value &value,
                                 const std::string &path) {
    std::vector<int64_t> shape;
    int64_t elements = 1;
    for (const json::Value &element : array(value, path)) {
      if (!element.isInteger() || element.getInteger() <= 0) {
        fail(path, "expected an array of positive integers");
        return {};
      }
      if (element.getInteger() > maxBytes / elements) {
        fail(path, "tensor too large");
        return {};
      }
      elements *= element.getInteger();
      shape.push_back(element.getInteger());
    }
    return shape;
  }

  std::vector<BufferSpec> readBuffers(const json::Value &value,
                                      const std::string &path) {
    std::vector<BufferSpec> buffers;
    const std::vector<json::Value> &elements = array(value, path);
    for (size_t i = 0; i < elements.size() && !failed(); ++i) {
      std::string bufferPath = indexed(path, i);
      BufferSpec buffer;
      if (checkObject(elements[i], bufferPath, {"bytes", "zeroed"})) {
        if (const json::Value *bytes = field(elements[i], bufferPath, "bytes"))
          buffer.bytes =
              integer(*bytes, member(bufferPath, "bytes"), 1, maxBytes);
        if (const json::Value *zeroed = elements[i].find("zeroed"))
          buffer.zeroed =
              boolean(*zeroed, member(bufferPath, "zeroed"), buffer.zeroed);
      }
      buffers.push_back(buffer);
    }
    return buffers;
  }

  std::vector<Launch> readLaunches(const json::Value &value,
                                   const std::string &path,
                                   const Function &function) {
    std::vector<Launch> launches;
    const std::vector<json::Value> &elements = array(value, path);
    if (!failed() && elements.empty())
      fail(path, "expected at least one launch");
    for (size_t i = 0; i < elements.size() && !failed(); ++i)
      launches.push_back(readLaunch(elements[i], indexed(path, i), function));
    return launches;
  }

  Launch readLaunch(const json::Value &value, const std::string &path,
                    const Function &function) {
    if (value.isObject() && value.find("library"))
      return readLibraryCall(value, path, function);
    Launch launch;
    if (!checkObject(value, path,
                     {"kernel", "grid", "block", "cluster",
                      "non_portable_cluster", "shared_memory", "args"}))
      return launch;
    if (const json::Value *kernel = field(value, path, "kernel"))
      launch.kernel = name(*kernel, member(path, "kernel"));
    if (const json::Value *grid = field(value, path, "grid"))
      launch.grid = dim3(*grid, member(path, "grid"));
    if (const json::Value *block = field(value, path, "block"))
      launch.block = dim3(*block, member(path, "block"));
    if (const json::Value *cluster = field(value, path, "cluster"))
      launch.cluster = dim3(*cluster, member(path, "cluster"));
    if (const json::Value *nonPortable =
            field(value, path, "non_portable_cluster")) {
      if (nonPortable->isBool())
        launch.nonPortableCluster = nonPortable->getBool();
      else
        fail(member(path, "non_portable_cluster"), "expected a boolean");
    }
    if (const json::Value *shared = field(value, path, "shared_memory"))
      readSharedMemory(*shared, member(path, "shared_memory"), launch);
    if (const json::Value *args = field(value, path, "args")) {
      const std::vector<json::Value> &elements =
          array(*args, member(path, "args"));
      for (size_t i = 0; i < elements.size() && !failed(); ++i)
        launch.args.push_back(
            readArg(elements[i], indexed(member(path, "args"), i), function));
    }
    if (!failed())
      checkLaunchLimits(launch, path);
    return launch;
  }

  /// A library call: `"library": "matmul"`, its sizes and dtypes, and its
  /// arguments (lhs, rhs, result and an optional addend), each bound to
  /// memory that holds its whole matrix batch; the addend is not the
  /// result.
  Launch readLibraryCall(const json::Value &value, const std::string &path,
                         const Function &function) {
    Launch launch;
    if (!checkObject(value, path,
                     {"library", "batch", "m", "n", "k", "dtype",
                      "result_dtype", "args"}))
      return launch;
    std::string library =
        requireString(*value.find("library"), member(path, "library"));
    if (!failed() && library != "matmul")
      fail(member(path, "library"),
           "unknown library call \"" + library + "\" (expected matmul)");
    LibraryMatmul call;
    for (auto [key, size] :
         {std::pair{"batch", &call.batch}, std::pair{"m", &call.m},
          std::pair{"n", &call.n}, std::pair{"k", &call.k}})
      if (const json::Value *extent = field(value, path, key))
        *size = integer(*extent, member(path, key), 1, maxExtent);
    call.dtype = readDType(value, path, "dtype");
    call.resultDType = readDType(value, path, "result_dtype");
    if (!failed() && call.resultDType != call.dtype &&
        call.resultDType != DType::F32)
      fail(member(path, "result_dtype"), "must be the dtype or f32");
    const json::Value *args = field(value, path, "args");
    if (failed() || !args)
      return launch;
    std::string argsPath = member(path, "args");
    const std::vector<json::Value> &elements = array(*args, argsPath);
    if (!failed() && elements.size() != 3 && elements.size() != 4)
      fail(argsPath,
           "expected 3 or 4 arguments (lhs, rhs, result[, addend]), got " +
               std::to_string(elements.size()));
    call.addend = elements.size() == 4;
    const std::array<std::array<int64_t, 3>, 4> matrices = {
        {{call.m, call.k, dtypeSize(call.dtype)},
         {call.k, call.n, dtypeSize(call.dtype)},
         {call.m, call.n, dtypeSize(call.resultDType)},
         {call.m, call.n, dtypeSize(call.resultDType)}}};
    for (size_t i = 0; i < elements.size() && !failed(); ++i) {
      std::string argPath = indexed(argsPath, i);
      LaunchArg arg = readArg(elements[i], argPath, function);
      if (!failed() && (arg.tensorMap || !arg.chip.empty()))
        fail(argPath, "a library call's argument has no tensor_map or chip");
      if (failed())
        break;
      // Each factor is at most maxExtent, so no product overflows before
      // it is compared with maxBytes.
      int64_t needed = matrices[i][2];
      for (int64_t factor : {call.batch, matrices[i][0], matrices[i][1]}) {
        if (needed > maxBytes / factor) {
          needed = maxBytes + 1;
          break;
        }
        needed *= factor;
      }
      int64_t available = function.getBoundBytes(arg);
      if (needed > available)
        fail(argPath, "is bound to " + std::to_string(available) +
                          " bytes; the matmul needs " +
                          (needed > maxBytes ? std::string("more than 2^48")
                                             : std::to_string(needed)));
      if (i == 3 && arg.kind == launch.args[2].kind &&
          arg.index == launch.args[2].index)
        fail(argPath, "is the result; a library matmul's addend is another "
                      "buffer");
      launch.args.push_back(arg);
    }
    launch.library = call;
    return launch;
  }

  /// The dtype in the field `key` of `value`.
  DType readDType(const json::Value &value, const std::string &path,
                  const char *key) {
    const json::Value *dtype = field(value, path, key);
    if (!dtype)
      return DType::F16;
    std::string name = requireString(*dtype, member(path, key));
    std::optional<DType> parsed = parseDType(name);
    if (!parsed && !failed())
      fail(member(path, key),
           "unknown dtype \"" + name + "\" (expected f16, bf16 or f32)");
    return parsed.value_or(DType::F16);
  }

  /// Dynamic shared memory: bytes for every chip, or an object of bytes by
  /// chip naming each chip of `ptx`.
  void readSharedMemory(const json::Value &value, const std::string &path,
                        Launch &launch) {
    auto bytes = [&](const json::Value &count, const std::string &at) {
      return static_cast<uint32_t>(
          integer(count, at, 0, std::numeric_limits<int32_t>::max()));
    };
    if (!value.isObject()) {
      launch.sharedMemory = bytes(value, path);
      return;
    }
    for (const json::Value::Member &entry : value.getObject()) {
      if (!chips.count(entry.first))
        fail(path, "\"" + entry.first + "\" is not a chip of ptx");
      launch.chipSharedMemory[entry.first] =
          bytes(entry.second, member(path, entry.first));
    }
    for (const std::string &chip : chips)
      if (!failed() && !launch.chipSharedMemory.count(chip))
        fail(path, "no bytes for " + chip + ", a chip of ptx");
  }

  LaunchArg readArg(const json::Value &value, const std::string &path,
                    const Function &function) {
    LaunchArg arg;
    if (!checkObject(value, path, {"kind", "index", "tensor_map", "chip"}))
      return arg;
    const json::Value *kind = field(value, path, "kind");
    const json::Value *index = field(value, path, "index");
    if (!kind || !index)
      return arg;
    std::string kindName = requireString(*kind, member(path, "kind"));
    size_t count = 0;
    if (kindName == "input") {
      arg.kind = ArgKind::Input;
      count = function.inputs.size();
    } else if (kindName == "output") {
      arg.kind = ArgKind::Output;
      count = function.outputs.size();
    } else if (kindName == "buffer") {
      arg.kind = ArgKind::Buffer;
      count = function.buffers.size();
    } else {
      fail(member(path, "kind"), "unknown argument kind \"" + kindName +
                                     "\" (expected input, output or buffer)");
      return arg;
    }
    arg.index = integer(*index, member(path, "index"), 0, maxBytes);
    if (!failed() && static_cast<size_t>(arg.index) >= count)
      fail(member(path, "index"),
           std::to_string(arg.index) + " is out of range: the function has " +
               std::to_string(count) + " " + kindName + "s");
    if (const json::Value *chip = value.find("chip")) {
      arg.chip = requireString(*chip, member(path, "chip"));
      if (!failed() && !chips.count(arg.chip))
        fail(member(path, "chip"), "\"" + arg.chip + "\" is not a chip of ptx");
    }
    if (const json::Value *map = value.find("tensor_map"))
      if (!failed())
        readTensorMap(*map, member(path, "tensor_map"), function, arg);
    return arg;
  }

  /// A TMA descriptor argument: its tensor, which must fit the bound
  /// memory, and its box, checked against the limits of the TMA unit.
  void readTensorMap(const json::Value &value, const std::string &path,
                     const Function &function, LaunchArg &arg) {
    if (!checkObject(value, path, {"tensor", "box", "swizzle"}))
      return;
    const json::Value *tensor = field(value, path, "tensor");
    const json::Value *box = field(value, path, "box");
    if (!tensor || !box)
      return;
    TensorMap map;
    map.tensor = readTensor(*tensor, member(path, "tensor"));
    size_t rank = map.tensor.shape.size();
    if (!failed() && (rank < 1 || rank > 5))
      fail(member(path, "tensor"), "has " + std::to_string(rank) +
                                       " dimensions (a TMA tensor has 1 to 5)");
    if (failed())
      return;
    int64_t available = function.getBoundBytes(arg);
    if (map.tensor.numBytes() > available)
      fail(member(path, "tensor"),
           "needs " + std::to_string(map.tensor.numBytes()) +
               " bytes, more than the " + std::to_string(available) +
               " of the argument");
    const std::vector<json::Value> &extents = array(*box, member(path, "box"));
    for (size_t d = 0; d < extents.size() && !failed(); ++d)
      map.box.push_back(
          integer(extents[d], indexed(member(path, "box"), d), 1, 256));
    if (failed())
      return;
    int64_t elementBytes = dtypeSize(map.tensor.dtype);
    if (map.box.size() != rank)
      fail(member(path, "box"), "has " + std::to_string(map.box.size()) +
                                    " dimensions for a tensor of " +
                                    std::to_string(rank) +
                                    " (a TMA box has as many)");
    else if ((map.box.back() * elementBytes) % 16 != 0 ||
             (map.tensor.shape.back() * elementBytes) % 16 != 0)
      fail(member(path, "box"),
           "rows of the box and of the tensor must be whole 16-byte chunks");
    if (const json::Value *swizzle = value.find("swizzle");
        swizzle && !failed()) {
      map.swizzle = integer(*swizzle, member(path, "swizzle"), 32, 128);
      bool known = map.swizzle == 32 || map.swizzle == 64 || map.swizzle == 128;
      if (!failed() && (!known || map.swizzle != map.box.back() * elementBytes))
        fail(member(path, "swizzle"),
             "must be the bytes of a row of the box (32, 64 or 128), not " +
                 std::to_string(map.swizzle));
    }
    arg.tensorMap = std::move(map);
  }

  /// Checks the grid, block and cluster against the hardware's limits. Each
  /// product is formed once its factors are within the limits (a cluster
  /// that divides the grid is within the grid's), so none overflows.
  void checkLaunchLimits(const Launch &launch, const std::string &path) {
    const std::array<uint32_t, 3> &grid = launch.grid;
    const std::array<uint32_t, 3> &block = launch.block;
    const std::array<uint32_t, 3> &cluster = launch.cluster;
    if (grid[0] > maxGridX || grid[1] > maxGridYZ || grid[2] > maxGridYZ) {
      fail(member(path, "grid"), "exceeds the limits [" +
                                     std::to_string(maxGridX) + ", " +
                                     std::to_string(maxGridYZ) + ", " +
                                     std::to_string(maxGridYZ) + "]");
      return;
    }
    for (size_t i = 0; i < 3; ++i) {
      if (block[i] > maxBlock[i]) {
        fail(member(path, "block"), "exceeds the limits [1024, 1024, 64]");
        return;
      }
    }
    int64_t threads = int64_t(block[0]) * block[1] * block[2];
    if (threads > maxThreadsPerBlock) {
      fail(member(path, "block"), std::to_string(threads) +
                                      " threads exceed the limit of 1024 per "
                                      "block");
      return;
    }
    for (size_t i = 0; i < 3; ++i) {
      if (grid[i] % cluster[i] != 0) {
        fail(member(path, "cluster"), formatDim3(cluster) +
                                          " does not divide the grid " +
                                          formatDim3(grid));
        return;
      }
    }
    int64_t clusterSize = int64_t(cluster[0]) * cluster[1] * cluster[2];
    if (clusterSize > maxPortableClusterSize && !launch.nonPortableCluster)
      fail(member(path, "cluster"),
           std::to_string(clusterSize) +
               " blocks exceed the portable cluster size of 8 and "
               "non_portable_cluster is false");
  }

  /// Thread-block clusters exist from sm_90 on; sm_80 PTX cannot hold them.
  void checkClusterChips(const Plan &plan) {
    if (failed() || !plan.ptx.count("sm_80"))
      return;
    for (size_t f = 0; f < plan.functions.size(); ++f)
      for (size_t l = 0; l < plan.functions[f].launches.size(); ++l)
        if (plan.functions[f].launches[l].usesClusters())
          fail(member(indexed(member(indexed("functions", f), "launches"), l),
                      "cluster"),
               "thread-block clusters need sm_90a, but ptx also lists sm_80");
  }

  /// The chips of `ptx`.
  std::set<std::string> chips;
};

Expected<std::string> readFile(const std::filesystem::path &path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream contents;
  if (stream)
    contents << stream.rdbuf();
  if (!stream || stream.bad())
    return Error(ErrorCode::InvalidBundle, "cannot read " + path.string());
  return contents.str();
}

} // namespace

Expected<Plan> mirage::runtime::parsePlan(std::string_view text) {
  Expected<json::Value> root = json::parse(text);
  if (!root)
    return Error(ErrorCode::InvalidBundle,
                 "plan.json: " + root.error().message());
  return PlanReader().read(*root);
}

Expected<Plan> mirage::runtime::readPlan(const std::string &directory) {
  std::filesystem::path root(directory);
  std::error_code error;
  if (!std::filesystem::is_directory(root, error))
    return Error(ErrorCode::InvalidBundle,
                 "bundle " + directory + ": not a directory");
  Expected<std::string> text = readFile(root / "plan.json");
  if (!text)
    return Error(ErrorCode::InvalidBundle,
                 "bundle " + directory + ": " + text.error().message());
  Expected<Plan> plan = parsePlan(*text);
  if (!plan)
    return Error(ErrorCode::InvalidBundle,
                 "bundle " + directory + ": " + plan.error().message());
  for (const auto &[chip, file] : plan->ptx)
    if (!std::filesystem::is_regular_file(root / file, error))
      return Error(ErrorCode::InvalidBundle,
                   "bundle " + directory + ": plan.json: ptx." + chip +
                       ": file \"" + file + "\" not found");
  return plan;
}

Expected<std::string> mirage::runtime::readPtx(const std::string &directory,
                                               const Plan &plan,
                                               const std::string &chip) {
  auto entry = plan.ptx.find(chip);
  if (entry == plan.ptx.end())
    return Error(ErrorCode::InvalidBundle,
                 "bundle " + directory + ": no PTX for " + chip);
  Expected<std::string> text =
      readFile(std::filesystem::path(directory) / entry->second);
  if (!text)
    return Error(ErrorCode::InvalidBundle,
                 "bundle " + directory + ": " + text.error().message());
  return text;
}

bool mirage::runtime::chipRunsOn(std::string_view chip,
                                 const DeviceInfo &device) {
  if (chip == "sm_90a")
    return device.major == 9;
  return chip == "sm_80" && device.major >= 8;
}

Expected<std::string> mirage::runtime::selectChip(const Plan &plan,
                                                  const DeviceInfo &device,
                                                  std::string_view requested) {
  std::string chips;
  for (const auto &entry : plan.ptx)
    chips += (chips.empty() ? "" : ", ") + entry.first;
  std::string deviceText = "device " + std::to_string(device.ordinal) + " (" +
                           device.name + ", compute capability " +
                           std::to_string(device.major) + "." +
                           std::to_string(device.minor) + ")";
  if (!requested.empty()) {
    std::string chip(requested);
    if (!plan.ptx.count(chip))
      return Error(ErrorCode::InvalidBundle, "the bundle has no PTX for " +
                                                 chip + " (it has: " + chips +
                                                 ")");
    if (!chipRunsOn(chip, device))
      return Error(ErrorCode::InvalidBundle,
                   deviceText + " cannot run " + chip + " PTX");
    return chip;
  }
  if (device.major < 8)
    return Error(ErrorCode::InvalidBundle,
                 deviceText +
                     " is older than compute capability 8.0, the "
                     "oldest bundles target; the bundle has PTX for " +
                     chips);
  std::string chip = device.major == 9 ? "sm_90a" : "sm_80";
  if (!plan.ptx.count(chip))
    return Error(ErrorCode::InvalidBundle,
                 deviceText + " needs PTX for " + chip +
                     ", but the bundle has PTX only for " + chips);
  return chip;
}

int mirage::runtime::chooseLibraryAlgorithm(
    const std::vector<float> &fastestRounds) {
  int fastest = -1;
  for (int i = 0; i < static_cast<int>(fastestRounds.size()); ++i)
    if (fastestRounds[i] >= 0.0f &&
        (fastest < 0 || fastestRounds[i] < fastestRounds[fastest]))
      fastest = i;
  if (fastest <= 0 || fastestRounds[0] < 0.0f)
    return fastest;
  return fastestRounds[fastest] <= (1.0 - kMinAlgorithmGain) * fastestRounds[0]
             ? fastest
             : 0;
}

std::vector<std::pair<int, int>>
mirage::runtime::getLibraryAlgorithmPairs(int firstCount, int firstChosen,
                                          int secondCount, int secondChosen) {
  std::vector<std::pair<int, int>> pairs = {{firstChosen, secondChosen}};
  for (int i = 0; i < firstCount; ++i)
    for (int j = 0; j < secondCount; ++j)
      if (i != firstChosen || j != secondChosen)
        pairs.emplace_back(i, j);
  return pairs;
}
