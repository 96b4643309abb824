# Tests.tiers: every test of the build tree has exactly one tier label (tests/CMakeLists.txt), so running
# one tier leaves none out of the full run's reckoning and a test registered twice shows.
#   cmake -DCTEST=<ctest> -DBUILD=<build dir> -DTIERS=<unit|integration|...> -P check_tiers.cmake
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" TIERS "${TIERS}")

# The number of tests `ctest -N` lists with `args`.
function(count_tests out)
  execute_process(COMMAND "${CTEST}" --test-dir "${BUILD}" -N ${ARGN} OUTPUT_VARIABLE listing
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT listing MATCHES "Total Tests: ([0-9]+)")
    message(FATAL_ERROR "ctest -N ${ARGN} failed (${status}):\n${listing}")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

count_tests(total)
set(sum 0)
set(counts "")
foreach(tier IN LISTS TIERS)
  count_tests(n -L "^${tier}$")
  math(EXPR sum "${sum} + ${n}")
  string(APPEND counts " ${tier} ${n}")
endforeach()
list(JOIN TIERS "|" any_tier)
count_tests(untiered -LE "^(${any_tier})$")
if(NOT untiered EQUAL 0)
  execute_process(COMMAND "${CTEST}" --test-dir "${BUILD}" -N -LE "^(${any_tier})$" OUTPUT_VARIABLE listing)
  message(FATAL_ERROR "${untiered} tests have no tier (${TIERS}):\n${listing}")
endif()
if(NOT sum EQUAL total)
  message(FATAL_ERROR "the tiers count ${sum} tests (${counts} ) but ctest has ${total}: one is in two tiers")
endif()
message(STATUS "${total} tests, each in one tier:${counts}")
