#include "version.h"

#include <CLI/CLI.hpp>

#include "netcube/protocol/messages.h"

namespace netcube::apps {

std::string VersionLine(const std::string& program) {
  return program + " " + NETCUBE_VERSION + " (protocol " + std::to_string(protocol::kProtocolVersion) + ")";
}

void AddVersionFlag(CLI::App& app, const std::string& program) {
  app.set_version_flag("--version", VersionLine(program),
                       "Print the version and the protocol version, then exit");
}

void ShortUsageErrors(CLI::App& app, const std::string& program) {
  app.failure_message([program](const CLI::App*, const CLI::Error& e) {
    return program + ": " + e.what() + "\nRun '" + program + " --help' for the options.\n";
  });
}

std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return std::nullopt;
}

}  // namespace netcube::apps
