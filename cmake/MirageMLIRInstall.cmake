# `cmake --install` writes the headers, the libraries and a CMake package:
# a compiler embedding Mirage calls find_package(MirageMLIR) and links
# MirageMLIR::<library> (docs/Embedding.md, "Linking"). Included after every
# library is defined.

include(CMakePackageConfigHelpers)
set(mirage_package_dir lib${LLVM_LIBDIR_SUFFIX}/cmake/MirageMLIR)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/Mirage
        ${PROJECT_SOURCE_DIR}/include/Mirage-c
        DESTINATION include COMPONENT mirage-headers
        FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/Mirage
        DESTINATION include COMPONENT mirage-headers
        FILES_MATCHING PATTERN "*.inc")

# add_mlir_library puts every library in the export set MLIRTargets; the
# tuning database's reader is a plain static library they link.
install(TARGETS MirageRuntimeTuning EXPORT MLIRTargets
        ARCHIVE DESTINATION lib${LLVM_LIBDIR_SUFFIX})
get_property(MIRAGE_EXPORTED_TARGETS GLOBAL PROPERTY MLIR_EXPORTS)
list(APPEND MIRAGE_EXPORTED_TARGETS MirageRuntimeTuning)
install(EXPORT MLIRTargets NAMESPACE MirageMLIR::
        FILE MirageMLIRTargets.cmake DESTINATION ${mirage_package_dir})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/MirageMLIRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/MirageMLIRConfig.cmake
  INSTALL_DESTINATION ${mirage_package_dir})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/MirageMLIRConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/MirageMLIRConfig.cmake
        ${PROJECT_BINARY_DIR}/MirageMLIRConfigVersion.cmake
        DESTINATION ${mirage_package_dir})
