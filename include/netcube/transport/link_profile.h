#pragma once
// Named network profiles (lan, cross-continent, lossy, harsh) kept as data in assets/link_profiles.json,
// so the benchmarks, the bot and the GUI's presets all mean the same network by the same name. The
// executables read the file (apps/common/link_profiles.h); this layer only parses its text.
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
// The profile called `name`, if present.
std::optional<LinkProfile> FindLinkProfile(const std::vector<LinkProfile>& profiles, std::string_view name);

}  // namespace netcube::transport
