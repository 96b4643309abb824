#pragma once
// What every executable's command line shares: --version (the project version from CMake and the wire
// protocol's version), and a usage error said in two lines instead of the whole --help.
#include <optional>
#include <string>

#include "cli_forward.h"

namespace netcube::apps {

// "<program> <version> (protocol <kProtocolVersion>)".
std::string VersionLine(const std::string& program);
// Adds --version, which prints VersionLine(program) and exits 0.
void AddVersionFlag(CLI::App& app, const std::string& program);
// A bad command line prints "<program>: <what is wrong>" and one line on how to get the options, so the
// cause does not scroll away above the usage.
void ShortUsageErrors(CLI::App& app, const std::string& program);
// Parses the command line: the exit code when that ends the process (--help, --version, a usage error,
// said as the app says them), nothing when the program is to run.
std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv);

}  // namespace netcube::apps
