#pragma once
// The shared preamble of the client's loopback tests: real clients against the real server in one process,
// stepped on a virtual clock by the test support's LoopbackRig.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "netcube/client/client.h"
#include "support/loopback_rig.h"

namespace netcube::client {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::Hold;
using testing::LoopbackRig;

// A rig around a fresh server; throws (failing the test) if the server cannot start.
inline std::unique_ptr<LoopbackRig> StartRig(const server::ServerConfig& config = {}) {
  return LoopbackRig::Start(config);
}

// A player of `rig` that has started connecting; throws (failing the test) if it could not start.
inline Client& AddPlayer(LoopbackRig& rig, ClientConfig config) {
  std::string error;
  Client* player = rig.AddPlayer(std::move(config), &error);
  if (player == nullptr) throw std::runtime_error("no client: " + error);
  return *player;
}

inline ClientConfig Named(std::string name, const Settings& settings = {}) {
  ClientConfig config;
  config.name = std::move(name);
  config.settings = settings;
  return config;
}

// `config` behind `link` (both directions).
inline ClientConfig Behind(ClientConfig config, const transport::LinkSettings& link) {
  config.link = link;
  return config;
}

// Interest management in a 256 x 64 arena with a radius of 16, cubes spawned 32 units apart: none is
// relevant to another (a cube comes in within 16 units, leaves beyond 32).
inline server::ServerConfig SparseInterest() {
  server::ServerConfig config;
  config.interest = true;
  config.arena = sim::Arena::OfUnits(256, 64);
  config.interest_radius_units = 16;
  config.spawn_spacing_units = 32;
  return config;
}

// The view `client` draws of remote cube `id`, or nullptr while it draws none.
inline const RemoteView* FindRemote(const Client& client, sim::PlayerId id) {
  for (const RemoteView& r : client.remotes()) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

}  // namespace netcube::client
