#include "config.h"

#include <algorithm>
#include <cstddef>
#include <string>

#include "netcube/protocol/rules.h"

namespace netcube::server {
namespace {

// ENet's own limit on peers (and so on peers from one address).
constexpr std::size_t kMaxPerAddress = 4095;

}  // namespace

std::string CheckConfig(const ServerConfig& config) {
  if (!ValidRate(config.tick_rate)) {
    return "tick rate must be in [1, " + std::to_string(protocol::kMaxRate) + "]";
  }
  if (!ValidRate(config.snapshot_rate)) {
    return "snapshot rate must be in [1, " + std::to_string(protocol::kMaxRate) + "]";
  }
  if (config.max_snapshot_rate < config.snapshot_rate || config.max_snapshot_rate > protocol::kMaxRate) {
    return "max snapshot rate must be in [snapshot rate, " + std::to_string(protocol::kMaxRate) + "]";
  }
  if (!ValidRate(config.spectator_snapshot_rate)) {
    return "spectator snapshot rate must be in [1, " + std::to_string(protocol::kMaxRate) + "]";
  }
  if (config.max_clients < 1 || config.max_clients > protocol::kMaxPlayers) {
    return "max clients must be in [1, " + std::to_string(protocol::kMaxPlayers) + "]";
  }
  if (config.max_spectators > kMaxSpectators) {
    return "max spectators must be in [0, " + std::to_string(kMaxSpectators) + "]";
  }
  if (!config.arena.Valid()) {
    return "arena sides must be whole units in [" + std::to_string(sim::kMinArenaUnits) + ", " +
           std::to_string(sim::kMaxArenaUnits) + "]";
  }
  if (config.interest_radius_units < kMinInterestRadiusUnits ||
      config.interest_radius_units > sim::kMaxArenaUnits) {
    return "interest radius must be in [" + std::to_string(kMinInterestRadiusUnits) + ", " +
           std::to_string(sim::kMaxArenaUnits) + "] units";
  }
  if (config.snapshot_budget < protocol::kMinSnapshotBudget ||
      config.snapshot_budget > protocol::kMaxPacketBytes) {
    return "snapshot budget must be in [" + std::to_string(protocol::kMinSnapshotBudget) + ", " +
           std::to_string(protocol::kMaxPacketBytes) + "] bytes";
  }
  if (config.max_rewind_ms < 0 || config.max_rewind_ms > protocol::kMaxTagDelayMs) {
    return "max rewind must be in [0, " + std::to_string(protocol::kMaxTagDelayMs) + "] ms";
  }
  if (config.spawn_spacing_units < 1 || config.spawn_spacing_units > kMaxSpawnSpacingUnits) {
    return "spawn spacing must be in [1, " + std::to_string(kMaxSpawnSpacingUnits) + "] units";
  }
  if (config.max_per_address < 1 || config.max_per_address > kMaxPerAddress) {
    return "max per address must be in [1, " + std::to_string(kMaxPerAddress) + "]";
  }
  return {};
}

namespace {

int SeatCap(const ServerConfig& config, int rate, bool spectator) noexcept {
  return spectator ? std::min(rate, config.spectator_snapshot_rate) : rate;
}

}  // namespace

int MostSnapshots(const ServerConfig& config, int tick_rate, bool spectator) noexcept {
  return protocol::EffectiveSnapshotRate(SeatCap(config, config.max_snapshot_rate, spectator), tick_rate);
}

int UsualSnapshots(const ServerConfig& config, int tick_rate, bool spectator) noexcept {
  return protocol::EffectiveSnapshotRate(SeatCap(config, config.snapshot_rate, spectator), tick_rate);
}

protocol::Welcome WelcomeFor(const ServerConfig& config, int tick_rate, std::uint64_t tick,
                             bool spectator) noexcept {
  protocol::Welcome welcome;
  welcome.tick_rate = static_cast<std::uint8_t>(tick_rate);
  welcome.snapshot_rate = static_cast<std::uint8_t>(UsualSnapshots(config, tick_rate, spectator));
  welcome.max_snapshot_rate = static_cast<std::uint8_t>(MostSnapshots(config, tick_rate, spectator));
  welcome.spectator = spectator;
  welcome.max_players = static_cast<std::uint16_t>(config.max_clients);
  welcome.collisions = config.collisions;
  welcome.arena = config.arena;
  welcome.server_tick = static_cast<std::uint32_t>(tick);
  return welcome;
}

const char* ToString(SnapshotEncoding encoding) noexcept {
  return encoding == SnapshotEncoding::kFull ? "full" : "delta";
}

}  // namespace netcube::server
