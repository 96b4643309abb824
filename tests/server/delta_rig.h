#pragma once
// What the delta tests of tests/server share: a loopback rig sending every client a snapshot a tick, the
// server's work timed on its thread's CPU clock, players steering at random, and the check that a player
// shows the server's world exactly.
#include <gtest/gtest.h>

#include <ctime>
#include <memory>
#include <string>

#include "netcube/client/input_script.h"
#include "netcube/server/server.h"
#include "support/loopback_rig.h"

namespace netcube::server {

inline Micros ThreadCpuNow() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return Micros(static_cast<std::int64_t>(t.tv_sec) * 1'000'000 + t.tv_nsec / 1000);
}

// A server for `players`, all on 127.0.0.1, at 60 snapshots a second; nullptr (the test failed) if none.
inline std::unique_ptr<testing::LoopbackRig> DeltaRig(int players) {
  ServerConfig config;
  config.snapshot_rate = 60;
  config.max_clients = static_cast<std::size_t>(players);
  config.work_clock = ThreadCpuNow;
  config.max_per_address = config.max_clients + kSpareConnectionSlots;
  std::string error;
  std::unique_ptr<testing::LoopbackRig> rig = testing::LoopbackRig::Create(config, &error);
  EXPECT_NE(rig, nullptr) << error;
  return rig;
}

// A player steering at random (its script seeded by `seed`).
inline void AddRandomPlayer(testing::LoopbackRig& rig, const client::ClientConfig& config,
                            std::uint64_t seed) {
  std::string error;
  const client::InputScript random = client::InputScript::Parse("random", &error).value();
  EXPECT_NE(rig.AddPlayer(config, &error), nullptr) << error;
  rig.SetButtons(rig.player_count() - 1, [random, seed](Micros now) { return random.ButtonsAt(now, seed); });
}

// The player's own cube and every remote one as the server has them, and nothing malformed received.
inline bool ShowsTheServersWorld(testing::LoopbackRig& rig, const client::Client& player) {
  const sim::PlayerCube* own = rig.ServerCube(*player.player_id());
  bool same = own != nullptr && sim::SamePhysics(player.local().server_state, own->state) &&
              player.remotes().size() + 1 == rig.server().world().size();
  for (const client::RemoteView& remote : player.remotes()) {
    const sim::PlayerCube* truth = rig.ServerCube(remote.id);
    same = same && truth != nullptr && sim::SamePhysics(remote.latest_state, truth->state);
  }
  return same && player.metrics().packets_malformed == 0;
}

}  // namespace netcube::server
