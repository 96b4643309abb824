#pragma once
// One server and any number of clients over real loopback sockets, stepped together on a virtual clock:
// each Step advances `now` by a millisecond and updates the server, then every client. Loops are also
// bounded in real time, so a test on a loaded machine (or under ASan) fails instead of hanging.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "netcube/server/server.h"
#include "support/test_client.h"

namespace netcube::testing {

inline constexpr Micros kStep{1000};
inline constexpr std::chrono::seconds kRealTimeGuard{60};

class LoopbackRig {
 public:
  // A server on 127.0.0.1 and an ephemeral port (the config's address and port are replaced).
  static std::unique_ptr<LoopbackRig> Create(server::ServerConfig config, std::string* error);

  server::Server& server() { return *server_; }
  Micros now() const { return now_; }

  // A TestClient connecting to the server, stepped with it from now on (owned by the rig).
  TestClient* AddClient(const transport::HostConfig& config = {}, std::string* error = nullptr);
  // A client that has connected, asked to join as `name` and got its Welcome; nullptr if it did not.
  TestClient* Join(const std::string& name, const transport::HostConfig& config = {});
  // Anything else to update at every step (a real game client, a bot), after the server and test clients.
  void AddParticipant(std::function<void(Micros now)> update);

  // One virtual step: now += step; the server, then every client and participant.
  void Step(Micros step = kStep);
  // Steps until `done` holds (true) or `virtual_limit` of virtual time or kRealTimeGuard passes (false).
  bool StepUntil(const std::function<bool()>& done, Micros virtual_limit = Micros(10'000'000));
  // Steps for `duration` of virtual time (bounded by kRealTimeGuard too).
  void StepFor(Micros duration);

 private:
  explicit LoopbackRig(std::unique_ptr<server::Server> server) : server_(std::move(server)) {}

  std::unique_ptr<server::Server> server_;
  Micros now_{0};
  std::vector<std::unique_ptr<TestClient>> clients_;
  std::vector<std::function<void(Micros)>> participants_;
};

}  // namespace netcube::testing
