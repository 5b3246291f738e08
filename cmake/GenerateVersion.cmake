# Writes ${OUTPUT}: the compiler version, "${VERSION}+g<commit>" in a git
# checkout at ${SOURCE_DIR}, else "${VERSION}". Run at every build; the file
# changes (and its users rebuild) only when the version does.
execute_process(
  COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE status ERROR_QUIET)
set(version "${VERSION}")
if(status EQUAL 0 AND commit)
  set(version "${VERSION}+g${commit}")
endif()
set(text "#define MIRAGE_COMPILER_VERSION \"${version}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
