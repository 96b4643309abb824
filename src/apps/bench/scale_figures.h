#pragma once
// A scale run's figures: the server's totals at either end of the measurement window, and the result
// (ScaleResult, and its JSON) they make with the bots' reports.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>

#include "netcube/server/server.h"
#include "netcube/sim/time.h"
#include "scale.h"

namespace netcube::bench {

// What the players in this process (virtual time) have counted so far: the snapshots those who stay
// received, by kind, and the churning players' joins and leaves.
struct PlayerCounts {
  std::uint64_t snapshots_full = 0;
  std::uint64_t snapshots_delta = 0;
  std::uint64_t churn_joins = 0;
  std::uint64_t churn_leaves = 0;
};

// What the window's figures are computed from: the server's totals at its start and at its end, and the
// players' counts when they are in this process.
struct Totals {
  Micros at{0};
  server::ServerStats stats;
  std::uint64_t bytes_sent = 0;  // payload to the players, summed
  std::uint64_t bytes_received = 0;
  std::optional<PlayerCounts> players;
};

Totals TakeTotals(const server::Server& server, Micros now, std::optional<PlayerCounts> players);

// The run's result: the window's figures from its totals at either end, the inputs of the whole run
// (settling included) from `final_stats`, and the bots' figures from their reports unless `bots_problem`
// says why there are none.
ScaleResult ResultOf(const ScaleSettings& settings, const Totals& start, const Totals& end,
                     const server::ServerStats& final_stats, std::span<const nlohmann::json> reports,
                     const std::string& bots_problem);

}  // namespace netcube::bench
