#pragma once
// The JSON netcube-bot writes with --report: {"players": [...], "totals": {...}}.
#include <string>

#include "netcube/client/bot.h"

namespace netcube::apps {

std::string BotReportJson(const client::BotReport& report);

}  // namespace netcube::apps
