#include "link_profiles.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "files.h"

namespace netcube::apps {

std::string AssetsDir() {
  if (const char* dir = std::getenv("NETCUBE_ASSETS_DIR"); dir != nullptr && *dir != '\0') return dir;
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path beside = executable.parent_path() / NETCUBE_DATA_FROM_BIN;
    if (std::filesystem::is_directory(beside, error)) return beside.lexically_normal().string();
  }
  return NETCUBE_INSTALLED_DATA_DIR;
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
