# FindImGui: Dear ImGui 1.86 as Debian ships it (libimgui-dev).
#   ImGui::ImGui        the core (libimgui.a, which needs stb)
#   ImGui::SDLRenderer  the SDL2 platform and SDL_Renderer backends, compiled from the sources Debian
#                       ships as examples; built here without the project's warning flags.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_IMGUI QUIET imgui)
endif()
find_path(ImGui_INCLUDE_DIR imgui.h HINTS ${PC_IMGUI_INCLUDE_DIRS} PATH_SUFFIXES imgui)
find_library(ImGui_LIBRARY NAMES imgui HINTS ${PC_IMGUI_LIBRARY_DIRS})
find_path(ImGui_BACKEND_SOURCE_DIR imgui_impl_sdl.cpp
          PATHS /usr/share/doc/libimgui-dev/examples/backends NO_DEFAULT_PATH)
find_path(ImGui_BACKEND_INCLUDE_DIR imgui_impl_sdl.h HINTS "${ImGui_INCLUDE_DIR}/backends")
set(ImGui_VERSION "${PC_IMGUI_VERSION}")

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(ImGui
  REQUIRED_VARS ImGui_LIBRARY ImGui_INCLUDE_DIR ImGui_BACKEND_SOURCE_DIR ImGui_BACKEND_INCLUDE_DIR
  VERSION_VAR ImGui_VERSION)

if(ImGui_FOUND AND NOT TARGET ImGui::ImGui)
  pkg_check_modules(PC_STB QUIET stb)
  find_library(STB_LIBRARY NAMES stb HINTS ${PC_STB_LIBRARY_DIRS})
  add_library(ImGui::ImGui UNKNOWN IMPORTED)
  set_target_properties(ImGui::ImGui PROPERTIES
    IMPORTED_LOCATION "${ImGui_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${ImGui_INCLUDE_DIR}")
  if(STB_LIBRARY)
    set_property(TARGET ImGui::ImGui APPEND PROPERTY INTERFACE_LINK_LIBRARIES "${STB_LIBRARY}")
  endif()

  if(TARGET SDL2::SDL2)
    add_library(imgui_sdl_backends STATIC
      "${ImGui_BACKEND_SOURCE_DIR}/imgui_impl_sdl.cpp"
      "${ImGui_BACKEND_SOURCE_DIR}/imgui_impl_sdlrenderer.cpp")
    target_include_directories(imgui_sdl_backends SYSTEM PUBLIC "${ImGui_BACKEND_INCLUDE_DIR}")
    target_link_libraries(imgui_sdl_backends PUBLIC ImGui::ImGui SDL2::SDL2)
    add_library(ImGui::SDLRenderer ALIAS imgui_sdl_backends)
  endif()
endif()
mark_as_advanced(ImGui_INCLUDE_DIR ImGui_LIBRARY ImGui_BACKEND_SOURCE_DIR ImGui_BACKEND_INCLUDE_DIR)
