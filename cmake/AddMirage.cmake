# Thin wrappers that keep Mirage's target names uniform.

# The upstream headers that most of the project's sources include are most of
# their compile time (30 of the 35 seconds a code generator file took); they
# are precompiled once, with the first target that asks, and every other
# library, tool and unit test reuses that header (docs/Building.md).
option(MIRAGE_PRECOMPILED_HEADERS
  "Precompile the common MLIR and LLVM headers once for every target" ON)
set(MIRAGE_PRECOMPILED_HEADER_LIST
  <mlir/IR/Builders.h> <mlir/IR/BuiltinOps.h> <mlir/IR/PatternMatch.h>
  <mlir/Pass/Pass.h> <mlir/Pass/PassManager.h>
  <mlir/Transforms/DialectConversion.h>
  <mlir/Dialect/Func/IR/FuncOps.h> <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/GPU/IR/GPUDialect.h> <mlir/Dialect/LLVMIR/LLVMDialect.h>
  <mlir/Dialect/LLVMIR/NVVMDialect.h> <mlir/Dialect/SCF/IR/SCF.h>
  <mlir/Dialect/MemRef/IR/MemRef.h> <mlir/Dialect/Math/IR/Math.h>
  <llvm/ADT/DenseMap.h> <llvm/ADT/STLExtras.h> <llvm/ADT/SmallVector.h>
  <llvm/Support/FormatVariadic.h> <llvm/Support/JSON.h>)

# Compiles `target`'s sources with the project's precompiled header.
function(mirage_use_precompiled_headers target)
  if(NOT MIRAGE_PRECOMPILED_HEADERS)
    return()
  endif()
  get_property(owner GLOBAL PROPERTY MIRAGE_PRECOMPILED_HEADER_OWNER)
  if(owner)
    target_precompile_headers(${target} REUSE_FROM ${owner})
  else()
    target_precompile_headers(${target} PRIVATE
      ${MIRAGE_PRECOMPILED_HEADER_LIST})
    set_property(GLOBAL PROPERTY MIRAGE_PRECOMPILED_HEADER_OWNER ${target})
  endif()
endfunction()

# Generates the ODS outputs of one Mirage dialect level:
#   add_mirage_dialect(Kernel kernel) -> MirageKernelIncGen, with
#   KernelOps.{h,cpp}.inc, KernelDialect.{h,cpp}.inc, and, when present,
#   KernelTypes/KernelAttrs/KernelEnums .inc files (docs: scripts/update-docs.sh).
function(add_mirage_dialect level dialect_suffix)
  set(dialect mirage_${dialect_suffix})
  set(LLVM_TARGET_DEFINITIONS ${level}Ops.td)
  mlir_tablegen(${level}Ops.h.inc -gen-op-decls)
  mlir_tablegen(${level}Ops.cpp.inc -gen-op-defs)
  mlir_tablegen(${level}Dialect.h.inc -gen-dialect-decls -dialect=${dialect})
  mlir_tablegen(${level}Dialect.cpp.inc -gen-dialect-defs -dialect=${dialect})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${level}Types.td)
    mlir_tablegen(${level}Types.h.inc -gen-typedef-decls -typedefs-dialect=${dialect})
    mlir_tablegen(${level}Types.cpp.inc -gen-typedef-defs -typedefs-dialect=${dialect})
  endif()
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${level}Attrs.td)
    mlir_tablegen(${level}Attrs.h.inc -gen-attrdef-decls -attrdefs-dialect=${dialect})
    mlir_tablegen(${level}Attrs.cpp.inc -gen-attrdef-defs -attrdefs-dialect=${dialect})
    mlir_tablegen(${level}Enums.h.inc -gen-enum-decls)
    mlir_tablegen(${level}Enums.cpp.inc -gen-enum-defs)
  endif()
  add_public_tablegen_target(Mirage${level}IncGen)
  # The ops implement ElementwiseOpInterface (Dialect/Common).
  add_dependencies(Mirage${level}IncGen MirageCommonIncGen)
endfunction()

# Adds a Mirage library. Upstream MLIR libraries go in MLIR_LIBS (they resolve
# to libMLIR.so), the project's own in LINK_LIBS:
#   add_mirage_library(MirageKernelIR Foo.cpp DEPENDS MirageKernelIncGen
#                      LINK_LIBS MirageDialectCommon MLIR_LIBS MLIRIR)
function(add_mirage_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    DEPENDS ${ARG_DEPENDS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  # The sources compile in obj.${name} where add_mlir_library makes one.
  if(TARGET obj.${name})
    mirage_use_precompiled_headers(obj.${name})
  else()
    mirage_use_precompiled_headers(${name})
  endif()
endfunction()
