# Thin wrappers that keep Mirage's target names uniform.

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
endfunction()
