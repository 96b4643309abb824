#pragma once
// Runs one of the project's executables through the shell, for tests of the thin mains: exit code and
// everything it printed.
#include <filesystem>
#include <string>

namespace netcube::testing {

struct CommandResult {
  int exit_code = -1;  // -1: killed by a signal or not run
  std::string output;  // stdout and stderr together
};

// A path in the temporary directory that no other test, process or call uses: "<stem>-<pid>-<n><extension>"
// (ctest runs tests in parallel, each its own process, and a test may run several commands).
std::filesystem::path UniqueTempPath(const std::string& stem, const std::string& extension);

// `command` is a shell command line (quoting is the caller's); it runs to its end.
CommandResult RunCommand(const std::string& command);

// What is wrong with `output` as a usage error of `program` (empty: nothing): it must be two lines,
// "<program>: <what is wrong>" and "Run '<program> --help' for the options.", without the usage itself.
std::string ShortUsageErrorProblem(const std::string& output, const std::string& program);

}  // namespace netcube::testing
