#pragma once
// The rules a ServerConfig (and a live setting) must keep.
#include <cstdint>
#include <string>

#include "netcube/server/server_config.h"

namespace netcube::server {

// A tick or snapshot rate the wire can carry: [1, protocol::kMaxRate].
constexpr bool ValidRate(int rate) noexcept { return rate >= 1 && rate <= protocol::kMaxRate; }

// What is wrong with `config`, empty when nothing.
std::string CheckConfig(const ServerConfig& config);

// The most snapshots a second a client gets, whatever it asks: the operator's cap (a spectator's, when
// lower), at most one a tick.
int MostSnapshots(const ServerConfig& config, int tick_rate, bool spectator) noexcept;
// The snapshots a second a client gets until it asks for another rate: the server's (a spectator's cap,
// when lower), at most one a tick.
int UsualSnapshots(const ServerConfig& config, int tick_rate, bool spectator) noexcept;

// The settings a newcomer (a player, or a spectator) is told (all but its player id and seat), at `tick`
// and `tick_rate`.
protocol::Welcome WelcomeFor(const ServerConfig& config, int tick_rate, std::uint64_t tick,
                             bool spectator) noexcept;

}  // namespace netcube::server
