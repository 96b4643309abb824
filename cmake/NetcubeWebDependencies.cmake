# The browser build's dependencies (emscripten), which scripts/web.sh prepares in build/web-deps:
#   NETCUBE_WEB_SDL2_DIR    SDL2 built for wasm from Debian's source package (its CMake config directory)
#   NETCUBE_WEB_IMGUI_DIR   Dear ImGui 1.86's sources, from Debian's source package (core and backends)
# The header-only libraries (CLI11, nlohmann/json, stb_image_write) are the Debian packages' headers, reached
# through links in build/web-deps/include: adding /usr/include itself would bring the host's C library.
set(NETCUBE_WEB_SDL2_DIR "" CACHE PATH "SDL2 for wasm: its lib/cmake/SDL2 directory")
set(NETCUBE_WEB_IMGUI_DIR "" CACHE PATH "Dear ImGui's source tree (imgui.cpp, backends/)")
foreach(dir NETCUBE_WEB_SDL2_DIR NETCUBE_WEB_IMGUI_DIR)
  if(NOT IS_DIRECTORY "${${dir}}")
    message(FATAL_ERROR "the browser build needs ${dir} (scripts/web.sh sets it): '${${dir}}' is no directory")
  endif()
endforeach()

find_package(SDL2 CONFIG REQUIRED PATHS "${NETCUBE_WEB_SDL2_DIR}" NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT TARGET SDL2::SDL2)
  add_library(SDL2::SDL2 ALIAS SDL2::SDL2-static)
endif()

set(netcube_host_headers "${CMAKE_BINARY_DIR}/host-headers")
file(MAKE_DIRECTORY "${netcube_host_headers}")
foreach(header_dir CLI nlohmann stb)
  if(NOT IS_DIRECTORY "/usr/include/${header_dir}")
    message(FATAL_ERROR "the browser build needs /usr/include/${header_dir} (run scripts/setup-deps.sh)")
  endif()
  file(CREATE_LINK "/usr/include/${header_dir}" "${netcube_host_headers}/${header_dir}" SYMBOLIC)
endforeach()
add_library(netcube_header_only INTERFACE)
target_include_directories(netcube_header_only SYSTEM INTERFACE "${netcube_host_headers}")
add_library(CLI11::CLI11 ALIAS netcube_header_only)
add_library(nlohmann_json::nlohmann_json ALIAS netcube_header_only)
set(STB_IMAGE_WRITE_INCLUDE_DIR "${netcube_host_headers}/stb")

# Dear ImGui from its sources, with stb_image_write's implementation (Debian's libstb has it on the desktop);
# third-party code, so without the project's warning flags.
set(netcube_stb_source "${CMAKE_BINARY_DIR}/stb_image_write.c")
file(WRITE "${netcube_stb_source}" "#define STB_IMAGE_WRITE_IMPLEMENTATION\n#include <stb_image_write.h>\n")
add_library(imgui_core STATIC
  "${NETCUBE_WEB_IMGUI_DIR}/imgui.cpp" "${NETCUBE_WEB_IMGUI_DIR}/imgui_draw.cpp"
  "${NETCUBE_WEB_IMGUI_DIR}/imgui_tables.cpp" "${NETCUBE_WEB_IMGUI_DIR}/imgui_widgets.cpp"
  "${netcube_stb_source}")
target_include_directories(imgui_core SYSTEM PUBLIC "${NETCUBE_WEB_IMGUI_DIR}" PRIVATE "${STB_IMAGE_WRITE_INCLUDE_DIR}")
add_library(ImGui::ImGui ALIAS imgui_core)
add_library(imgui_sdl_backends STATIC
  "${NETCUBE_WEB_IMGUI_DIR}/backends/imgui_impl_sdl.cpp" "${NETCUBE_WEB_IMGUI_DIR}/backends/imgui_impl_sdlrenderer.cpp")
target_include_directories(imgui_sdl_backends SYSTEM PUBLIC "${NETCUBE_WEB_IMGUI_DIR}/backends")
target_link_libraries(imgui_sdl_backends PUBLIC imgui_core SDL2::SDL2)
add_library(ImGui::SDLRenderer ALIAS imgui_sdl_backends)
