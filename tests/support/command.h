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

// What is wrong with `output` as a usage error of `program` (empty: nothing): it must be two lines,
// "<program>: <what is wrong>" and "Run '<program> --help' for the options.", without the usage itself.
std::string ShortUsageErrorProblem(const std::string& output, const std::string& program);

}  // namespace netcube::testing
