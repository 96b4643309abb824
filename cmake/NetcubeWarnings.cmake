# Strict warnings for the project's own targets only; third-party sources (the ImGui backends) are
# compiled in their own target without these flags.
add_library(netcube_warnings INTERFACE)
target_compile_options(netcube_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Werror
  -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast -Wnon-virtual-dtor
  -Woverloaded-virtual -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough
  # GCC 12 at -O3 warns falsely inside std::string (GCC bug 105329); the check is not ours to satisfy.
  $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)

# Every project library and executable: C++20 plus the warnings above. With NETCUBE_ASSERTIONS the layered
# libraries keep their assert()s (broken invariants stop the asan run) while the executables, the tests
# and third-party code keep the build type's NDEBUG.
function(netcube_configure_target target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target} PRIVATE netcube_warnings)
  if(NETCUBE_ASSERTIONS AND target MATCHES "^netcube_(sim|protocol|transport|discovery|server|client)$")
    target_compile_options(${target} PRIVATE -UNDEBUG)
  endif()
endfunction()
