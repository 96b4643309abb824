#pragma once
// One server and any number of clients over real loopback sockets, stepped together on a virtual clock:
// each Step advances `now` by a millisecond and updates the server, then every raw protocol client
// (TestClient), then every player (a real client::Client holding scripted buttons). Loops are also bounded
// in real time, so a test on a loaded machine (or under ASan) fails instead of hanging.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "netcube/client/client.h"
#include "netcube/server/server.h"
#include "support/test_client.h"

namespace netcube::testing {

inline constexpr Micros kStep{1000};
// Generous for a loaded 2-core machine under ASan; the virtual limits are what the tests reason about.
inline constexpr std::chrono::seconds kRealTimeGuard{120};

// Buttons a player holds, as a function of the virtual time.
using Buttons = std::function<std::uint8_t(Micros)>;
// Holds `buttons` from `start` for `duration`.
Buttons Hold(std::uint8_t buttons, Micros start, Micros duration);

class LoopbackRig {
 public:
  // A server on 127.0.0.1 and an ephemeral port (the config's address and port are replaced).
  static std::unique_ptr<LoopbackRig> Create(server::ServerConfig config, std::string* error);
  // Create, for a test that cannot go on without its server: throws (failing the test) with the reason.
  static std::unique_ptr<LoopbackRig> Start(server::ServerConfig config = {});

  server::Server& server() { return *server_; }
  bool has_server() const { return server_ != nullptr; }
  Micros now() const { return now_; }

  // A TestClient connecting to the server, stepped with it from now on (owned by the rig).
  TestClient* AddClient(const transport::HostConfig& config = {}, std::string* error = nullptr);
  // A client that has connected, asked to join as `name` and got its Welcome; nullptr if it did not.
  TestClient* Join(const std::string& name, const transport::HostConfig& config = {});

  // A player that has started connecting (step the rig to complete it); nullptr and `error` set if it
  // could not start.
  client::Client* AddPlayer(client::ClientConfig config, std::string* error);
  void SetButtons(std::size_t player, Buttons buttons) { players_[player].buttons = std::move(buttons); }
  // The player's clock runs `rate` times as fast as the rig's from now on (a machine whose clock drifts).
  void SetClockRate(std::size_t player, double rate);
  client::Client& player(std::size_t index) { return *players_[index].client; }
  std::size_t player_count() const { return players_.size(); }

  // Kills the server without a goodbye.
  void DestroyServer() { server_.reset(); }
  // Kills a player without a goodbye (its slot stays, empty).
  void DestroyPlayer(std::size_t index) { players_[index].client.reset(); }

  // One virtual step: now += step; the server, then every client and player.
  void Step(Micros step = kStep);
  // Steps until `done` holds (true) or `virtual_limit` of virtual time or kRealTimeGuard passes (false).
  // `each_step` runs after every step.
  bool StepUntil(const std::function<bool()>& done, Micros virtual_limit = Micros(10'000'000),
                 const std::function<void()>& each_step = nullptr);
  // Steps for `duration` of virtual time (bounded by kRealTimeGuard too).
  void StepFor(Micros duration, const std::function<void()>& each_step = nullptr);

  // Every player connected and shown its cube (a spectator: connected); ConnectAll steps until then (at
  // most 5 s).
  bool AllConnected() const;
  bool ConnectAll();
  bool AllSettled() const;
  // The server's cube for `id`, if present.
  const sim::PlayerCube* ServerCube(sim::PlayerId id) const;

 private:
  struct Player {
    std::unique_ptr<client::Client> client;
    Buttons buttons;
    // The player's time: clock_origin + (rig time - rig_origin) * clock_rate.
    double clock_rate = 1.0;
    Micros rig_origin{0};
    Micros clock_origin{0};
    Micros Now(Micros rig_now) const {
      return clock_origin + Micros(static_cast<std::int64_t>(
                                static_cast<double>((rig_now - rig_origin).count()) * clock_rate));
    }
  };

  explicit LoopbackRig(std::unique_ptr<server::Server> server) : server_(std::move(server)) {}

  std::unique_ptr<server::Server> server_;
  std::uint16_t port_ = 0;  // kept after DestroyServer, so players can still aim at it
  Micros now_{0};
  std::vector<std::unique_ptr<TestClient>> clients_;
  std::vector<Player> players_;
};

}  // namespace netcube::testing
