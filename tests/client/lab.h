#pragma once
// A server and clients in one test process over real loopback sockets, driven by a virtual clock: every
// step runs the server and each client once and advances the clock by 1 ms. A real-time guard bounds
// every run, so a broken network path fails the test instead of hanging it.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "netcube/client/client.h"
#include "netcube/server/server.h"

namespace netcube::client::testing {

inline constexpr Micros kStep{1000};
// Generous for a loaded 2-core machine under ASan; the virtual limits are what the tests reason about.
inline constexpr std::chrono::seconds kRealTimeGuard{120};

class Lab {
 public:
  explicit Lab(server::ServerConfig config = {}) {
    config.bind_address = "127.0.0.1";
    config.port = 0;
    std::string error;
    server_ = server::Server::Create(config, now_, &error);
    EXPECT_NE(server_, nullptr) << error;
  }

  server::Server& server() { return *server_; }
  bool has_server() const { return server_ != nullptr; }
  Micros now() const { return now_; }

  // Adds a client and starts its connection (run the lab to complete it).
  Client& Add(ClientConfig config) {
    clients_.push_back(std::make_unique<Client>(std::move(config)));
    buttons_.push_back(nullptr);
    std::string error;
    EXPECT_TRUE(clients_.back()->Connect("127.0.0.1", server_->port(), now_, &error)) << error;
    return *clients_.back();
  }

  // Buttons the client at `index` holds, as a function of the virtual time.
  void SetButtons(std::size_t index, std::function<std::uint8_t(Micros)> buttons) {
    buttons_[index] = std::move(buttons);
  }

  Client& client(std::size_t index) { return *clients_[index]; }
  std::size_t client_count() const { return clients_.size(); }

  // Kills the server without a goodbye.
  void DestroyServer() { server_.reset(); }
  // Kills a client without a goodbye (its slot stays, empty).
  void DestroyClient(std::size_t index) { clients_[index].reset(); }

  // One step: the server, then every client, then the clock.
  void Step() {
    if (server_) server_->Update(now_);
    for (std::size_t i = 0; i < clients_.size(); ++i) {
      if (!clients_[i]) continue;
      const std::uint8_t held = buttons_[i] ? buttons_[i](now_) : 0;
      clients_[i]->Update(now_, held);
    }
    now_ += kStep;
  }

  // Steps until `done` holds (true) or `virtual_limit` of virtual time or the real-time guard passes
  // (false). `each_step` runs after every step.
  bool RunUntil(const std::function<bool()>& done, Micros virtual_limit,
                const std::function<void()>& each_step = nullptr) {
    const Micros end = now_ + virtual_limit;
    const auto real_deadline = std::chrono::steady_clock::now() + kRealTimeGuard;
    while (!done()) {
      if (now_ >= end || std::chrono::steady_clock::now() > real_deadline) return false;
      Step();
      if (each_step) each_step();
    }
    return true;
  }

  // Steps for `duration` of virtual time.
  void RunFor(Micros duration, const std::function<void()>& each_step = nullptr) {
    RunUntil([] { return false; }, duration, each_step);
  }

  bool AllConnected() const {
    for (const auto& c : clients_) {
      if (c && (c->state() != ConnectionState::kConnected || !c->local().present)) return false;
    }
    return true;
  }

  bool ConnectAll() { return RunUntil([this] { return AllConnected(); }, std::chrono::seconds(5)); }

  bool AllSettled() const {
    for (const auto& c : clients_) {
      if (c && !c->Settled()) return false;
    }
    return true;
  }

  // The server's cube for `id`, if present.
  const sim::PlayerCube* ServerCube(sim::PlayerId id) const {
    for (const sim::PlayerCube& cube : server_->world()) {
      if (cube.id == id) return &cube;
    }
    return nullptr;
  }

 private:
  Micros now_{std::chrono::seconds(1)};
  std::unique_ptr<server::Server> server_;
  std::vector<std::unique_ptr<Client>> clients_;
  std::vector<std::function<std::uint8_t(Micros)>> buttons_;
};

// Holds `buttons` from `start` for `duration`.
inline std::function<std::uint8_t(Micros)> Hold(std::uint8_t buttons, Micros start, Micros duration) {
  return [=](Micros now) { return now >= start && now < start + duration ? buttons : std::uint8_t{0}; };
}

}  // namespace netcube::client::testing
