# Proves check_layers.cmake catches what it is for: builds a small tree under WORK with one planted
# violation of each kind next to code that must pass (comments, snprintf, a folder-local header, an
# injected clock), runs both checks over it and expects exactly the planted violations. Then the same
# for check_documented.cmake, over that tree and a planted docs/ARCHITECTURE.md.
#   cmake -DWORK=<scratch dir> -DCHECKER=<check_layers.cmake> -DDOCUMENTED=<check_documented.cmake>
#         -P check_layers_selftest.cmake
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
function(plant path text)
  file(WRITE "${WORK}/${path}" "${text}")
endfunction()

plant(src/sim/upward.cpp "#include \"netcube/sim/move.h\"
#include \"netcube/client/client.h\"
// std::cout and steady_clock in a comment are fine
void F() { std::cout << 1; }
auto t = std::chrono::steady_clock::now();
")
plant(src/protocol/clean.cpp "#include <cstdio>
#include \"netcube/sim/time.h\"
void G(char* b) { std::snprintf(b, 4, \"%d\", 1); Micros now = config.work_clock(); }
")
plant(src/transport/sdl.cpp "#include <SDL.h>\n#include <enet/enet.h>\n")
plant(src/server/private.h "#pragma once\n")
plant(src/server/server.cpp "#include \"private.h\"\n#include \"../client/secret.h\"\n")
plant(include/netcube/server/server.h "#include \"netcube/gui/app.h\"\n")
plant(src/client/clean.cpp "#include \"netcube/transport/host.h\"\n")
plant(src/gui/env.cpp "#include <thread>
const char* d = getenv(\"X\");
void S() { std::this_thread::sleep_for(ms); stbi_write_png(p, w, h, 3, d, s); }
")
plant(src/newlib/x.cpp "\n")
# The apps: one includes a header of its own folder, apps/common's and every library's, and does I/O (theirs
# to do); another reaches into an app folder outside its row and includes SDL; a new app has no row.
plant(src/apps/common/files.h "#pragma once\n")
plant(src/apps/client/runner.h "#pragma once\n")
plant(src/apps/client/main.cpp "#include \"runner.h\"
#include \"files.h\"
#include \"netcube/gui/app.h\"
#include <iostream>
void M() { std::cout << 1; }
")
plant(src/apps/bot/main.cpp "#include \"files.h\"\n#include \"runner.h\"\n#include <SDL.h>\n")
plant(src/apps/newapp/main.cpp "\n")

function(expect check count)
  execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${WORK} -DCHECK=${check} -P "${CHECKER}"
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(result EQUAL 0)
    message(FATAL_ERROR "the ${check} check passed a tree with planted violations:\n${out}")
  endif()
  if(NOT out MATCHES "${count} layer violation\\(s\\)")
    message(FATAL_ERROR "the ${check} check should report ${count} violations:\n${out}")
  endif()
  foreach(expected IN LISTS ARGN)
    string(FIND "${out}" "${expected}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "the ${check} check missed '${expected}':\n${out}")
    endif()
  endforeach()
  message(STATUS "${check}: caught all ${count}")
endfunction()

expect(includes 8
  "src/newlib: library folder 'newlib' is not in the layer table"
  "src/apps/newapp: app folder 'newapp' is not in the apps' table"
  "src/apps/bot/main.cpp:2: apps/bot includes \"runner.h\" from outside its own folder or apps/common"
  "src/apps/bot/main.cpp:3: apps/bot includes SDL.h, which only gui may wrap"
  "src/sim/upward.cpp:2: sim includes a header of 'client'"
  "src/transport/sdl.cpp:1: transport includes SDL.h, which only gui may wrap"
  "src/server/server.cpp:2: server includes \"../client/secret.h\" from outside its own folder"
  "include/netcube/server/server.h:1: server includes a header of 'gui'")
expect(no_io 8
  "src/newlib: library folder 'newlib' is not in the layer table"
  "src/apps/newapp: app folder 'newapp' is not in the apps' table"
  "src/sim/upward.cpp:4: sim uses console I/O"
  "src/sim/upward.cpp:5: sim uses a clock"
  "src/gui/env.cpp:1: gui uses an I/O, clock or sleep header"
  "src/gui/env.cpp:2: gui uses the environment"
  "src/gui/env.cpp:3: gui uses sleeping"
  "src/gui/env.cpp:3: gui uses a file write")

file(REMOVE_RECURSE "${WORK}/src/apps")  # the apps' files are for the layer checks only
# Named in its own library's section only: clean.cpp is under "### client:", not "### protocol:"; a file of
# a library with no section, and a public header named nowhere, are missing.
plant(docs/ARCHITECTURE.md "# Architecture
### sim: the simulation
| `upward.cpp` | planted |
### protocol: the bits
| `messages.h` | another file |
### server: the authority
| `server.cpp`, `private.h` | planted |
### client: the client
| `clean.cpp` | planted |
## A walk
`server.h` is named here, outside its section
")
execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${WORK} -P "${DOCUMENTED}"
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(result EQUAL 0)
  message(FATAL_ERROR "the documented check passed a tree with undocumented files:\n${out}")
endif()
foreach(expected
    "5 source file(s) not named"
    "include/netcube/server/server.h: not named in docs/ARCHITECTURE.md (add `server.h` to a row of the table under '### server:')"
    "src/protocol/clean.cpp: not named in docs/ARCHITECTURE.md (add `clean.cpp` to a row of the table under '### protocol:')"
    "src/transport/sdl.cpp: docs/ARCHITECTURE.md has no section '### transport:'"
    "src/gui/env.cpp: docs/ARCHITECTURE.md has no section '### gui:'"
    "src/newlib/x.cpp: docs/ARCHITECTURE.md has no section '### newlib:'")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the documented check missed '${expected}':\n${out}")
  endif()
endforeach()
message(STATUS "documented: caught all 5")
