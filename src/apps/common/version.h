#pragma once
// --version for every executable: the project version from CMake and the wire protocol's version.
#include <string>

#include <CLI/CLI.hpp>

namespace netcube::apps {

// "<program> <version> (protocol <kProtocolVersion>)".
std::string VersionLine(const std::string& program);
// Adds --version, which prints VersionLine(program) and exits 0.
void AddVersionFlag(CLI::App& app, const std::string& program);

}  // namespace netcube::apps
