# Every dependency is a Debian 12 package; each failure names the package to install
# (scripts/setup-deps.sh installs them all).
function(netcube_require found package what)
  if(NOT ${found})
    message(FATAL_ERROR "netcube needs ${what}: install the Debian package '${package}' "
                        "(or run scripts/setup-deps.sh)")
  endif()
endfunction()

# The browser build takes its dependencies from build/web-deps (scripts/web.sh).
if(EMSCRIPTEN)
  include(NetcubeWebDependencies)
  return()
endif()

find_package(PkgConfig QUIET)
netcube_require(PkgConfig_FOUND pkg-config "pkg-config")

if(NETCUBE_WITH_ENET)
  find_package(ENet)
  netcube_require(ENet_FOUND libenet-dev "ENet 1.3")
  # ENet 1.3.17 (Debian 12's) lets a peer make it allocate a 128 KiB bitmap per bogus fragment start, and
  # its service call gives up on a datagram larger than its buffer; 1.3.18 fixes the first inside the library.
  # netcube's transport defends against both with any version (src/transport/datagram_filter.h, and the
  # receive loop in host.cpp), and the defences stay on with 1.3.18 and later.
  if(ENet_VERSION AND ENet_VERSION VERSION_LESS 1.3.18)
    message(STATUS "ENet ${ENet_VERSION} (< 1.3.18): netcube's own datagram filter covers its known flaws")
  endif()
endif()

find_package(CLI11 CONFIG QUIET)
netcube_require(CLI11_FOUND libcli11-dev "CLI11")

find_package(nlohmann_json 3 CONFIG QUIET)
netcube_require(nlohmann_json_FOUND nlohmann-json3-dev "nlohmann/json")

find_package(Threads REQUIRED)

if(NETCUBE_BUILD_GUI)
  find_package(SDL2 CONFIG QUIET)
  netcube_require(SDL2_FOUND libsdl2-dev "SDL2 (or configure with -DNETCUBE_BUILD_GUI=OFF)")
  find_package(ImGui)
  netcube_require(ImGui_FOUND libimgui-dev "Dear ImGui 1.86 (or configure with -DNETCUBE_BUILD_GUI=OFF)")
  find_path(STB_IMAGE_WRITE_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb)
  netcube_require(STB_IMAGE_WRITE_INCLUDE_DIR libstb-dev "stb_image_write.h")
endif()

if(NETCUBE_BUILD_TESTS)
  if(NOT NETCUBE_WITH_ENET)
    message(FATAL_ERROR "the tests need ENet (real UDP): configure with -DNETCUBE_BUILD_TESTS=OFF or NETCUBE_WITH_ENET=ON")
  endif()
  find_package(GTest QUIET)
  netcube_require(GTest_FOUND libgtest-dev "GoogleTest")
  include(GoogleTest)
endif()
