# Fails, naming each file, when a source or header under src/, include/ or tests/ differs from what
# clang-format makes of it. -DROOT=<source dir> -DCLANG_FORMAT=<program, or ...-NOTFOUND>.
if(NOT CLANG_FORMAT OR CLANG_FORMAT MATCHES "NOTFOUND$")
  message(FATAL_ERROR "clang-format is not installed: run scripts/setup-deps.sh (Debian package clang-format)")
endif()
file(GLOB_RECURSE sources LIST_DIRECTORIES false
     "${ROOT}/src/*.cpp" "${ROOT}/src/*.h" "${ROOT}/include/*.h" "${ROOT}/tests/*.cpp" "${ROOT}/tests/*.h")
list(SORT sources)
list(LENGTH sources count)
if(count EQUAL 0)
  message(FATAL_ERROR "no sources found under ${ROOT}")
endif()
# One call for all files: --dry-run --Werror reports every line it would change and exits non-zero.
execute_process(COMMAND "${CLANG_FORMAT}" --dry-run --Werror --style=file ${sources}
                WORKING_DIRECTORY "${ROOT}" RESULT_VARIABLE status ERROR_VARIABLE report)
if(NOT status EQUAL 0)
  string(REGEX MATCHALL "[^\n]+: error: code should be clang-formatted" lines "${report}")
  list(REMOVE_DUPLICATES lines)
  string(REPLACE ";" "\n" lines "${lines}")
  message(FATAL_ERROR "not as clang-format writes them (fix: clang-format -i FILE):\n${lines}")
endif()
message(STATUS "clang-format: ${count} files as it writes them")
