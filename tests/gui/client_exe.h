#pragma once
// netcube-client run as a child process by the exe tests (NETCUBE_CLIENT_EXE), headless, and the files it
// writes: one place for the tests of its screenshots, its time machine and its explanations.
#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/command.h"

namespace netcube::gui {

inline const std::string kHeadless = "SDL_VIDEODRIVER=offscreen ";

// A file in the temporary directory for this process (each test runs in its own): the same name, the same
// path.
inline std::filesystem::path ClientTemp(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("netcube-client-test-" + std::to_string(::getpid()) + "-" + name);
}

inline testing::CommandResult RunClient(const std::string& args) {
  return testing::RunCommand(kHeadless + NETCUBE_CLIENT_EXE + " " + args);
}

}  // namespace netcube::gui
