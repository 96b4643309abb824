#pragma once
// Runs one of the project's executables through the shell, for tests of the thin mains: exit code and
// everything it printed.
#include <string>

namespace netcube::testing {

struct CommandResult {
  int exit_code = -1;  // -1: killed by a signal or not run
  std::string output;  // stdout and stderr together
};

// `command` is a shell command line (quoting is the caller's); it runs to its end.
CommandResult RunCommand(const std::string& command);

}  // namespace netcube::testing
