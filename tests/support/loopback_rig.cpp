#include "support/loopback_rig.h"

#include <stdexcept>

namespace netcube::testing {

Buttons Hold(std::uint8_t buttons, Micros start, Micros duration) {
  return [=](Micros now) { return now >= start && now < start + duration ? buttons : std::uint8_t{0}; };
}

std::unique_ptr<LoopbackRig> LoopbackRig::Create(server::ServerConfig config, std::string* error) {
  config.bind_address = "127.0.0.1";
  config.port = 0;
  auto server = server::Server::Create(config, Micros(0), error);
  if (server == nullptr) return nullptr;
  std::unique_ptr<LoopbackRig> rig(new LoopbackRig(std::move(server)));
  rig->port_ = rig->server_->port();
  return rig;
}

std::unique_ptr<LoopbackRig> LoopbackRig::Start(server::ServerConfig config) {
  std::string error;
  std::unique_ptr<LoopbackRig> rig = Create(std::move(config), &error);
  if (rig == nullptr) throw std::runtime_error("no server: " + error);
  return rig;
}

TestClient* LoopbackRig::AddClient(const transport::HostConfig& config, std::string* error) {
  auto client = TestClient::Connect(port_, config, error);
  if (client == nullptr) return nullptr;
  clients_.push_back(std::move(client));
  return clients_.back().get();
}

TestClient* LoopbackRig::Join(const std::string& name, const transport::HostConfig& config) {
  TestClient* client = AddClient(config);
  if (client == nullptr || !StepUntil([client] { return client->inbox().connected; })) return nullptr;
  client->SendConnectRequest(now_, name);
  if (!StepUntil([client] { return client->inbox().welcome.has_value(); })) return nullptr;
  return client;
}

client::Client* LoopbackRig::AddPlayer(client::ClientConfig config, std::string* error) {
  auto player = std::make_unique<client::Client>(std::move(config));
  if (!player->Connect("127.0.0.1", port_, now_, error)) return nullptr;
  players_.push_back({std::move(player), nullptr, 1.0, now_, now_});
  return players_.back().client.get();
}

void LoopbackRig::SetClockRate(std::size_t player, double rate) {
  Player& p = players_[player];
  p.clock_origin = p.Now(now_);
  p.rig_origin = now_;
  p.clock_rate = rate;
}

void LoopbackRig::Step(Micros step) {
  now_ += step;
  if (server_) server_->Update(now_);
  for (const auto& client : clients_) client->Poll(now_);
  for (Player& player : players_) {
    const Micros now = player.Now(now_);
    if (player.client) player.client->Update(now, player.buttons ? player.buttons(now) : std::uint8_t{0});
  }
}

bool LoopbackRig::StepUntil(const std::function<bool()>& done, Micros virtual_limit,
                            const std::function<void()>& each_step) {
  const Micros virtual_deadline = now_ + virtual_limit;
  const auto real_deadline = std::chrono::steady_clock::now() + kRealTimeGuard;
  while (!done()) {
    if (now_ >= virtual_deadline || std::chrono::steady_clock::now() >= real_deadline) return false;
    Step();
    if (each_step) each_step();
  }
  return true;
}

void LoopbackRig::StepFor(Micros duration, const std::function<void()>& each_step) {
  const Micros end = now_ + duration;
  StepUntil([this, end] { return now_ >= end; }, duration + kStep, each_step);
}

bool LoopbackRig::AllConnected() const {
  for (const Player& p : players_) {
    // A spectator has no cube to be shown.
    if (p.client && (p.client->state() != client::ConnectionState::kConnected ||
                     (!p.client->local().present && !p.client->spectator()))) {
      return false;
    }
  }
  return true;
}

bool LoopbackRig::ConnectAll() {
  return StepUntil([this] { return AllConnected(); }, std::chrono::seconds(5));
}

bool LoopbackRig::AllSettled() const {
  for (const Player& p : players_) {
    if (p.client && !p.client->Settled()) return false;
  }
  return true;
}

const sim::PlayerCube* LoopbackRig::ServerCube(sim::PlayerId id) const {
  for (const sim::PlayerCube& cube : server_->world()) {
    if (cube.id == id) return &cube;
  }
  return nullptr;
}

}  // namespace netcube::testing
