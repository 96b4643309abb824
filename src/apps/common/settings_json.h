#pragma once
// A client's technique settings as JSON, every field by its name: a session file's entries and the bench's
// profiles report write the same object (session.cpp reads it back).
#include <nlohmann/json.hpp>

#include "netcube/client/settings.h"

namespace netcube::apps {

nlohmann::json SettingsJson(const client::Settings& settings);

}  // namespace netcube::apps
