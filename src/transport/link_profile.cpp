#include "netcube/transport/link_profile.h"

#include <nlohmann/json.hpp>

namespace netcube::transport {
namespace {

bool ReadProbability(const nlohmann::json& j, const char* key, double& out, std::string* error) {
  out = j.value(key, 0.0);
  if (out < 0.0 || out > 1.0) {
    *error = std::string(key) + " must be within [0, 1]";
    return false;
  }
  return true;
}

bool ReadMilliseconds(const nlohmann::json& j, const char* key, double& out, std::string* error) {
  out = j.value(key, 0.0);
  if (out < 0.0 || out > 10'000.0) {
    *error = std::string(key) + " must be within [0, 10000] ms";
    return false;
  }
  return true;
}

}  // namespace

std::vector<LinkProfile> ParseLinkProfiles(std::string_view json_text, std::string* error) {
  std::vector<LinkProfile> profiles;
  try {
    const nlohmann::json doc = nlohmann::json::parse(json_text);
    for (const nlohmann::json& item : doc.at("profiles")) {
      LinkProfile p;
      p.name = item.at("name").get<std::string>();
      p.description = item.value("description", "");
      std::string why;
      if (!ReadMilliseconds(item, "latency_ms", p.settings.latency_ms, &why) ||
          !ReadMilliseconds(item, "jitter_ms", p.settings.jitter_ms, &why) ||
          !ReadProbability(item, "loss", p.settings.loss, &why) ||
          !ReadProbability(item, "duplicate", p.settings.duplicate, &why) ||
          !ReadProbability(item, "reorder", p.settings.reorder, &why)) {
        *error = "profile '" + p.name + "': " + why;
        return {};
      }
      profiles.push_back(std::move(p));
    }
  } catch (const nlohmann::json::exception& e) {
    *error = std::string("invalid link profile file: ") + e.what();
    return {};
  }
  if (profiles.empty()) *error = "the link profile file lists no profiles";
  return profiles;
}

std::optional<LinkProfile> FindLinkProfile(const std::vector<LinkProfile>& profiles, std::string_view name) {
  for (const LinkProfile& p : profiles) {
    if (p.name == name) return p;
  }
  return std::nullopt;
}

}  // namespace netcube::transport
