# Checks the library layers over the sources (cmake -P, so it needs no build):
#   cmake -DROOT=<repository> -DCHECK=includes|no_io -P check_layers.cmake
# `includes`: a library includes only its own headers and those of the layers below it (the table), and
# third-party headers only where that library is the one that wraps them.
# `no_io`: a library reads no file, console, environment or clock and never sleeps; time is a parameter,
# randomness is seeded, and the executables (src/apps) do the I/O.
# Every library folder under src/ and include/netcube/ must be in the table: a new library gets a row.
# The executables (src/apps/<app>/) are rooms too, with a table of their own: an app may include every
# library's headers, its own folder's and those of the app folders in its row (apps/common's code is
# shared), and no third-party header a library wraps; I/O is theirs, so `no_io` passes them. Every folder
# under src/apps/ must be in that table.
# Exits non-zero listing each violation as FILE:LINE: what.

cmake_minimum_required(VERSION 3.25)

# library | the netcube libraries whose headers it may include (besides its own)
set(layers sim protocol transport discovery server client timeline gui)
set(uses_sim "")
set(uses_protocol sim)
set(uses_transport protocol sim)
set(uses_discovery transport protocol sim)
set(uses_server transport protocol sim)
set(uses_client transport protocol sim)
set(uses_timeline client server transport protocol sim)
set(uses_gui timeline client server discovery transport protocol sim)

# app folder under src/apps | the app folders whose headers it may include (besides its own)
set(apps common bench bot client server web)
set(app_uses_common "")
set(app_uses_bench common)
set(app_uses_bot common)
set(app_uses_client common)
set(app_uses_server common)
set(app_uses_web client common)

# third-party header prefix | the only library that may include it
set(third_party "enet/=transport" "SDL=gui" "imgui=gui" "stb_=gui")

# What the libraries must not touch, as a regex over code with comments removed | what it means.
set(forbidden
  "#include <(iostream|fstream|filesystem|thread|ctime|unistd\\.h|sys/)=an I/O, clock or sleep header"
  "std::(cout|cerr|clog|cin)[^A-Za-z0-9_]=console I/O"
  "(^|[^A-Za-z0-9_])(f|v|vf)?printf *\\(=console I/O (printf)"
  "(^|[^A-Za-z0-9_])(puts|fputs|fopen|fwrite|fread) *\\(=file or console I/O"
  "std::(ifstream|ofstream|fstream|filebuf)=file I/O"
  "(^|[^A-Za-z0-9_])(std::)?getenv *\\(=the environment"
  "(steady_clock|system_clock|high_resolution_clock|utc_clock|file_clock)=a clock"
  "(^|[^A-Za-z0-9_])(std::)?(time|clock|clock_gettime|gettimeofday) *\\([^)]*\\)=a clock"
  "(sleep_for|sleep_until|usleep|nanosleep)=sleeping"
  "random_device=unseeded randomness"
  "SDL_(GetTicks|GetTicks64|GetPerformanceCounter|Delay|getenv|RWFromFile)=an SDL clock, sleep, environment or file"
  "stbi_write_(png|bmp|tga|jpg|hdr) *\\(=a file write (encode to memory with stbi_write_*_to_func)")

if(NOT DEFINED ROOT OR NOT CHECK MATCHES "^(includes|no_io)$")
  message(FATAL_ERROR "usage: cmake -DROOT=<repository> -DCHECK=includes|no_io -P check_layers.cmake")
endif()

set(violations "")
macro(report file line what)
  file(RELATIVE_PATH rel "${ROOT}" "${file}")
  list(APPEND violations "${rel}:${line}: ${what}")
endmacro()

# Every library folder is in the table, and every app folder in the apps' table.
file(GLOB folders LIST_DIRECTORIES true "${ROOT}/src/*" "${ROOT}/include/netcube/*")
foreach(folder IN LISTS folders)
  get_filename_component(name "${folder}" NAME)
  if(IS_DIRECTORY "${folder}" AND NOT name STREQUAL "apps" AND NOT name IN_LIST layers)
    file(RELATIVE_PATH rel "${ROOT}" "${folder}")
    list(APPEND violations "${rel}: library folder '${name}' is not in the layer table of tests/layers/check_layers.cmake")
  endif()
endforeach()
file(GLOB folders LIST_DIRECTORIES true "${ROOT}/src/apps/*")
foreach(folder IN LISTS folders)
  get_filename_component(name "${folder}" NAME)
  if(IS_DIRECTORY "${folder}" AND NOT name IN_LIST apps)
    file(RELATIVE_PATH rel "${ROOT}" "${folder}")
    list(APPEND violations "${rel}: app folder '${name}' is not in the apps' table of tests/layers/check_layers.cmake")
  endif()
endforeach()

# Checks one source file of `room` (a library, or apps/<app>): its netcube includes name only the libraries
# in `libraries`, its own includes are in one of `folders`, and (for `no_io`, libraries only) it does no I/O.
function(check_file file room libraries folders)
  list(JOIN libraries ", " allowed_text)
  # One list element per line: semicolons and brackets would split or join CMake list elements, and
  # no pattern needs them.
  file(READ "${file}" text)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "[" "(" text "${text}")
  string(REPLACE "]" ")" text "${text}")
  string(REPLACE "\\" "/" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    string(REGEX REPLACE "//.*$" "" code "${line}")
    if(CHECK STREQUAL "includes")
      if(code MATCHES "^[ \t]*#[ \t]*include[ \t]*\"netcube/([^/\"]+)/")
        if(NOT CMAKE_MATCH_1 IN_LIST libraries)
          report("${file}" ${number}
                 "${room} includes a header of '${CMAKE_MATCH_1}', not a layer below it (${room} may use: ${allowed_text})")
        endif()
      elseif(code MATCHES "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">]")
        set(header "${CMAKE_MATCH_1}")
        set(owner "")
        foreach(entry IN LISTS third_party)
          string(REPLACE "=" ";" pair "${entry}")
          list(GET pair 0 prefix)
          string(FIND "${header}" "${prefix}" at)
          if(at EQUAL 0)
            list(GET pair 1 owner)
          endif()
        endforeach()
        set(found FALSE)
        foreach(folder ${folders})
          if(EXISTS "${folder}/${header}")
            set(found TRUE)
          endif()
        endforeach()
        if(owner AND NOT owner STREQUAL room)
          report("${file}" ${number} "${room} includes ${header}, which only ${owner} may wrap")
        elseif(NOT owner AND code MATCHES "\"" AND NOT found)
          report("${file}" ${number} "${room} includes \"${header}\" from outside its own folder${folders_text}")
        endif()
      endif()
    elseif(room IN_LIST layers)
      foreach(entry IN LISTS forbidden)
        string(FIND "${entry}" "=" split REVERSE)
        string(SUBSTRING "${entry}" 0 ${split} pattern)
        math(EXPR after "${split} + 1")
        string(SUBSTRING "${entry}" ${after} -1 what)
        if(code MATCHES "${pattern}")
          report("${file}" ${number} "${room} uses ${what}: ${CMAKE_MATCH_0}")
        endif()
      endforeach()
    endif()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

foreach(layer IN LISTS layers)
  file(GLOB_RECURSE files "${ROOT}/src/${layer}/*.h" "${ROOT}/src/${layer}/*.cpp"
       "${ROOT}/include/netcube/${layer}/*.h")
  list(SORT files)
  set(folders_text "")
  foreach(file IN LISTS files)
    get_filename_component(dir "${file}" DIRECTORY)
    check_file("${file}" "${layer}" "${layer};${uses_${layer}}" "${dir}")
  endforeach()
endforeach()

if(CHECK STREQUAL "includes")
  foreach(app IN LISTS apps)
    file(GLOB_RECURSE files "${ROOT}/src/apps/${app}/*.h" "${ROOT}/src/apps/${app}/*.cpp")
    list(SORT files)
    set(folders "${ROOT}/src/apps/${app}")
    set(folders_text "")
    foreach(used IN LISTS app_uses_${app})
      list(APPEND folders "${ROOT}/src/apps/${used}")
      string(APPEND folders_text " or apps/${used}")
    endforeach()
    foreach(file IN LISTS files)
      check_file("${file}" "apps/${app}" "${layers}" "${folders}")
    endforeach()
  endforeach()
endif()

if(violations)
  foreach(violation IN LISTS violations)
    message(NOTICE "${violation}")
  endforeach()
  list(LENGTH violations count)
  message(FATAL_ERROR "${count} layer violation(s) (${CHECK})")
endif()
message(STATUS "layers ${CHECK}: ${layers} and apps (${apps}) clean")
