# FindENet: ENet 1.3 through pkg-config (Debian: libenet-dev). Defines ENet::ENet.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_ENET QUIET libenet)
endif()
find_path(ENet_INCLUDE_DIR enet/enet.h HINTS ${PC_ENET_INCLUDE_DIRS})
find_library(ENet_LIBRARY NAMES enet HINTS ${PC_ENET_LIBRARY_DIRS})
set(ENet_VERSION "${PC_ENET_VERSION}")

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ENet REQUIRED_VARS ENet_LIBRARY ENet_INCLUDE_DIR VERSION_VAR ENet_VERSION)

if(ENet_FOUND AND NOT TARGET ENet::ENet)
  add_library(ENet::ENet UNKNOWN IMPORTED)
  set_target_properties(ENet::ENet PROPERTIES
    IMPORTED_LOCATION "${ENet_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${ENet_INCLUDE_DIR}")
endif()
mark_as_advanced(ENet_INCLUDE_DIR ENet_LIBRARY)
