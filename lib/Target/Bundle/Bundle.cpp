//===- Bundle.cpp - PTX + launch-plan bundles -----------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Target/Bundle.h"

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Support/Chip.h"
#include "Mirage/Support/Tuning.h"
#include "Plan.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::mirage;
namespace json = llvm::json;

namespace {

bool hasKernelOps(func::FuncOp function) {
  return !function.isExternal() && kernel::containsKernelOps(function);
}

/// True for a function made only of predefined kernel ops.
bool isReferenceForm(func::FuncOp function) {
  return llvm::all_of(
      function.getBody().front().without_terminator(),
      [](Operation &op) { return kernel::isPredefinedKernelOp(&op); });
}

/// A function's `mirage.tuning` mark (Mirage/Support/Tuning.h).
struct TuningMark {
  StringRef key, compiler;
  int64_t candidate;
};

/// The well-formed `mirage.tuning` mark of `function`, if it has one.
std::optional<TuningMark> readTuning(func::FuncOp function) {
  auto tuning = function->getAttrOfType<DictionaryAttr>(kTuningAttrName);
  auto key = tuning ? tuning.getAs<StringAttr>("key") : StringAttr();
  auto compiler = tuning ? tuning.getAs<StringAttr>("compiler") : StringAttr();
  auto candidate =
      tuning ? tuning.getAs<IntegerAttr>("candidate") : IntegerAttr();
  if (!key || key.size() != 64 ||
      !llvm::all_of(key.getValue(), llvm::isHexDigit) || !compiler ||
      !candidate || candidate.getInt() < kAsWrittenCandidate)
    return std::nullopt;
  return TuningMark{key.getValue(), compiler.getValue(), candidate.getInt()};
}

/// The `mirage.tuning` mark of `function` as plan.json's `tuning`; null
/// without one, failure (with an error) when it is malformed.
FailureOr<std::optional<json::Object>> getTuning(func::FuncOp function) {
  Attribute attr = function->getAttr(kTuningAttrName);
  if (!attr)
    return std::optional<json::Object>();
  std::optional<TuningMark> mark = readTuning(function);
  if (!mark)
    return function.emitError()
           << kTuningAttrName
           << " must be {key = <64 hex digits>, compiler = <string>, "
              "candidate = <integer from -1>}, got "
           << attr;
  return std::optional<json::Object>(
      json::Object{{"key", mark->key.lower()},
                   {"compiler", mark->compiler},
                   {"candidate", mark->candidate}});
}

/// The reference program of `function`: itself when it is in reference form,
/// else the function of the same name in `references` (or its only one),
/// else the program as written of its tuning group, else the function of
/// its own module marked `mirage.reference`. Null when there is none.
FailureOr<std::optional<json::Object>> findReference(func::FuncOp function,
                                                     ModuleOp references) {
  func::FuncOp reference;
  if (isReferenceForm(function)) {
    reference = function;
  } else if (references) {
    auto candidates = llvm::to_vector(references.getOps<func::FuncOp>());
    reference = references.lookupSymbol<func::FuncOp>(function.getSymName());
    if (!reference && candidates.size() == 1)
      reference = candidates.front();
    if (!reference)
      return function.emitError()
             << "no reference function for @" << function.getSymName()
             << ": the reference file has no function of that name and more "
                "than one function";
  } else {
    auto module = function->getParentOfType<ModuleOp>();
    std::optional<TuningMark> mark = readTuning(function);
    for (auto candidate : module.getOps<func::FuncOp>()) {
      std::optional<TuningMark> other = readTuning(candidate);
      if (mark && other && other->key == mark->key &&
          other->candidate == kAsWrittenCandidate) {
        reference = candidate;
        break;
      }
      if (candidate->hasAttr("mirage.reference"))
        reference = candidate;
    }
  }
  if (reference && reference.getFunctionType() != function.getFunctionType())
    return function.emitError()
           << "reference @" << reference.getSymName() << " has type "
           << reference.getFunctionType() << ", but @" << function.getSymName()
           << " has type " << function.getFunctionType();
  if (!reference)
    return std::optional<json::Object>();
  FailureOr<json::Object> program = getProgram(reference, false);
  if (failed(program))
    return failure();
  return std::optional<json::Object>(std::move(*program));
}

/// What the launches of one function may differ in between chips: each
/// launch's shared memory (wgmma's operand copies and TMA's mbarriers exist
/// on sm_90a only, and each chip's kernel takes the stage count that suits
/// the chip's SMs) and its TMA descriptor arguments (the trailing arguments
/// with a "tensor_map", sm_90a only).
struct ChipSpecifics {
  SmallVector<int64_t> sharedMemory;
  SmallVector<json::Array> descriptors;
};

/// Removes the chip-specific parts of the kernel launches of `plan` (shared
/// memory set to 0, descriptor arguments dropped) and returns them, one
/// entry per launch (empty for library calls).
ChipSpecifics takeChipSpecifics(json::Object &plan) {
  ChipSpecifics specifics;
  for (json::Value &launch : *plan.getArray("launches")) {
    json::Object &entry = *launch.getAsObject();
    specifics.sharedMemory.push_back(
        entry.getInteger("shared_memory").value_or(0));
    specifics.descriptors.emplace_back();
    // Library calls are the same on every chip.
    if (entry.get("library"))
      continue;
    entry["shared_memory"] = 0;
    json::Array &args = *entry.getArray("args");
    json::Array descriptors;
    while (!args.empty() && args.back().getAsObject()->get("tensor_map")) {
      descriptors.insert(descriptors.begin(), std::move(args.back()));
      args.erase(args.end() - 1);
    }
    specifics.descriptors.back() = std::move(descriptors);
  }
  return specifics;
}

/// Merges the chip-specific parts of `chip`'s launches into `plan`, where
/// `firstChip`'s are already: each launch's shared memory in bytes while the
/// chips' kernels agree, else an object of bytes by chip; `chip`'s descriptor
/// arguments, marked as passed to `chip`'s kernels only.
void mergeChipSpecifics(json::Object &plan, const ChipSpecifics &specifics,
                        StringRef chip, StringRef firstChip) {
  for (auto [launch, shared, descriptors] :
       llvm::zip(*plan.getArray("launches"), specifics.sharedMemory,
                 specifics.descriptors)) {
    json::Object &entry = *launch.getAsObject();
    if (entry.get("library"))
      continue;
    json::Value &bytes = entry["shared_memory"];
    if (chip == firstChip) {
      bytes = shared;
    } else if (json::Object *byChip = bytes.getAsObject()) {
      (*byChip)[chip] = shared;
    } else if (bytes.getAsInteger() != shared) {
      bytes = json::Object{{firstChip, *bytes.getAsInteger()}, {chip, shared}};
    }
    for (const json::Value &descriptor : descriptors) {
      json::Object arg = *descriptor.getAsObject();
      arg["chip"] = chip;
      entry.getArray("args")->push_back(std::move(arg));
    }
  }
}

/// The PTX of `module`'s kernels after the pipeline.
FailureOr<std::string> getPTX(ModuleOp module) {
  auto binary = module.lookupSymbol<gpu::BinaryOp>("mirage_kernels");
  if (!binary || binary.getObjects().size() != 1)
    return module.emitError(
        "the pipeline produced no gpu.binary @mirage_kernels");
  auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
  return object.getObject().str();
}

LogicalResult writeFile(Location loc, StringRef path,
                        function_ref<void(raw_ostream &)> write) {
  std::error_code error;
  llvm::raw_fd_ostream stream(path, error);
  if (error)
    return emitError(loc) << "cannot write " << path << ": " << error.message();
  write(stream);
  return success();
}

} // namespace

LogicalResult mirage::writeBundle(ModuleOp module, StringRef directory,
                                  const BundleOptions &options) {
  Location loc = module.getLoc();
  SmallVector<func::FuncOp> functions;
  for (auto function : module.getOps<func::FuncOp>())
    if (hasKernelOps(function) &&
        (options.functions.empty() ||
         llvm::is_contained(options.functions, function.getSymName())))
      functions.push_back(function);
  for (const std::string &name : options.functions)
    if (!module.lookupSymbol<func::FuncOp>(name))
      return emitError(loc) << "no function named '" << name << "' to bundle";
  if (functions.empty())
    return emitError(loc, "the module has no function of mirage_kernel ops to "
                          "compile");
  // Compile only the chosen functions: the others, host functions calling
  // them included (mirage-outline-kernel-graphs), stay with the host.
  OwningOpRef<ModuleOp> chosen(module.clone());
  for (auto function :
       llvm::make_early_inc_range(chosen->getOps<func::FuncOp>()))
    if (!llvm::any_of(functions, [&](func::FuncOp f) {
          return f.getSymName() == function.getSymName();
        }))
      function.erase();

  json::Array plans;
  std::vector<json::Object> programs, references;
  std::vector<std::optional<json::Object>> tunings;
  for (func::FuncOp function : functions) {
    FailureOr<json::Object> program = getProgram(function, true);
    FailureOr<std::optional<json::Object>> reference =
        findReference(function, options.reference);
    FailureOr<std::optional<json::Object>> tuning = getTuning(function);
    if (failed(program) || failed(reference) || failed(tuning))
      return failure();
    programs.push_back(std::move(*program));
    references.push_back(reference->value_or(json::Object()));
    tunings.push_back(std::move(*tuning));
  }

  std::vector<std::string> chips = options.chips;
  if (chips.empty()) {
    bool usesClusters = false;
    module.walk([&](kernel::GraphDefOp graph) {
      usesClusters |= graph.getCluster().has_value();
    });
    for (const Chip *chip : getDefaultChips(usesClusters))
      chips.push_back(chip->name.str());
  }

  // One launch plan serves every chip: each chip's kernels are lowered
  // within the smallest shared-memory limit of the bundle's chips, so that
  // every launch fits on every chip; the plans must agree but in what
  // ChipSpecifics holds.
  SmallVector<const Chip *> targets;
  for (const std::string &chip : chips) {
    targets.push_back(lookupChip(chip));
    if (!targets.back())
      return emitError(loc)
             << "unknown chip '" << chip << "', expected " << getChipNames();
  }
  int64_t sharedLimit = getSharedBytesPerBlock(targets);
  json::Object ptxFiles;
  std::vector<std::pair<std::string, std::string>> ptx;
  // The first chip's plan of every function, before program and reference.
  std::vector<json::Value> launchPlans;
  for (const std::string &chip : chips) {
    OwningOpRef<ModuleOp> lowered(chosen->clone());
    PassManager pm(module.getContext());
    CodegenOptions codegen = options.codegen;
    codegen.chip = chip;
    codegen.maxSharedMemory = sharedLimit;
    buildMirageToPTXPipeline(pm, codegen);
    if (failed(pm.run(*lowered)))
      return emitError(loc) << "compiling for " << chip << " failed";
    FailureOr<std::string> assembly = getPTX(*lowered);
    if (failed(assembly))
      return failure();
    ptx.emplace_back(chip, std::move(*assembly));
    ptxFiles[chip] = chip + ".ptx";
    for (auto [index, function, program, reference, tuning] :
         llvm::enumerate(functions, programs, references, tunings)) {
      auto host = lowered->lookupSymbol<func::FuncOp>(function.getSymName());
      FailureOr<json::Object> plan = getFunctionPlan(host);
      if (failed(plan))
        return failure();
      ChipSpecifics specifics = takeChipSpecifics(*plan);
      if (index < launchPlans.size()) {
        if (json::Value(json::Object(*plan)) != launchPlans[index])
          return emitError(loc)
                 << "the launches of @" << function.getSymName() << " for "
                 << chip << " differ from those for " << chips.front();
        mergeChipSpecifics(*plans[index].getAsObject(), specifics, chip,
                           chips.front());
        continue;
      }
      launchPlans.push_back(json::Object(*plan));
      mergeChipSpecifics(*plan, specifics, chip, chips.front());
      (*plan)["program"] = json::Object(program);
      if (!reference.empty())
        (*plan)["reference"] = json::Object(reference);
      if (tuning)
        (*plan)["tuning"] = json::Object(*tuning);
      if (auto overlap = function->getAttrOfType<BoolAttr>(kOverlapAttrName);
          overlap && !overlap.getValue())
        (*plan)["overlap"] = false;
      plans.push_back(std::move(*plan));
    }
  }

  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return emitError(loc) << "cannot create " << directory << ": "
                          << error.message();
  for (const auto &chipAndPTX : ptx) {
    SmallString<128> path(directory);
    llvm::sys::path::append(path, chipAndPTX.first + ".ptx");
    if (failed(writeFile(loc, path,
                         [&](raw_ostream &os) { os << chipAndPTX.second; })))
      return failure();
  }
  json::Object bundle{{"format", "mirage-bundle"},
                      {"version", 1},
                      {"ptx", std::move(ptxFiles)},
                      {"functions", std::move(plans)}};
  SmallString<128> planPath(directory);
  llvm::sys::path::append(planPath, "plan.json");
  return writeFile(loc, planPath, [&](raw_ostream &os) {
    os << llvm::formatv("{0:2}", json::Value(std::move(bundle))) << "\n";
  });
}
