#include "link_profiles.h"

#include <cstdlib>

#include "files.h"

namespace netcube::apps {

std::string AssetsDir() {
  if (const char* dir = std::getenv("NETCUBE_ASSETS_DIR"); dir != nullptr && *dir != '\0') return dir;
  return NETCUBE_SOURCE_ASSETS_DIR;
}

std::string LinkProfilesPath() { return AssetsDir() + "/link_profiles.json"; }

std::vector<transport::LinkProfile> LoadLinkProfiles(const std::string& path, std::string* error) {
  std::string text;
  if (!ReadFile(path, &text, error)) return {};
  std::vector<transport::LinkProfile> profiles = transport::ParseLinkProfiles(text, error);
  if (profiles.empty()) *error = path + ": " + *error;
  return profiles;
}

}  // namespace netcube::apps
