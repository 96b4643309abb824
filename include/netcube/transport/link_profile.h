#pragma once
// Named network profiles (lan, cross-continent, lossy, harsh) kept as data in assets/link_profiles.json,
// so the benchmarks, the bot and the GUI's presets all mean the same network by the same name.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netcube/transport/link_conditioner.h"

namespace netcube::transport {

struct LinkProfile {
  std::string name;
  std::string description;
  LinkSettings settings;
};

// Parses the profile file's text. Empty result and `error` set when it is not valid.
std::vector<LinkProfile> ParseLinkProfiles(std::string_view json_text, std::string* error);
// Reads and parses a profile file.
std::vector<LinkProfile> LoadLinkProfiles(const std::string& path, std::string* error);
// The profile called `name`, if present.
std::optional<LinkProfile> FindLinkProfile(const std::vector<LinkProfile>& profiles, std::string_view name);

// Where the installed assets are: NETCUBE_ASSETS_DIR from the environment if set, else the source tree's
// assets/ (baked in at build time).
std::string AssetsDir();

}  // namespace netcube::transport
