#include "support/loopback_rig.h"

namespace netcube::testing {

std::unique_ptr<LoopbackRig> LoopbackRig::Create(server::ServerConfig config, std::string* error) {
  config.bind_address = "127.0.0.1";
  config.port = 0;
  auto server = server::Server::Create(config, Micros(0), error);
  if (server == nullptr) return nullptr;
  return std::unique_ptr<LoopbackRig>(new LoopbackRig(std::move(server)));
}

TestClient* LoopbackRig::AddClient(const transport::HostConfig& config, std::string* error) {
  auto client = TestClient::Connect(server_->port(), config, error);
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

void LoopbackRig::AddParticipant(std::function<void(Micros now)> update) {
  participants_.push_back(std::move(update));
}

void LoopbackRig::Step(Micros step) {
  now_ += step;
  server_->Update(now_);
  for (const auto& client : clients_) client->Poll(now_);
  for (const auto& update : participants_) update(now_);
}

bool LoopbackRig::StepUntil(const std::function<bool()>& done, Micros virtual_limit) {
  const Micros virtual_deadline = now_ + virtual_limit;
  const auto real_deadline = std::chrono::steady_clock::now() + kRealTimeGuard;
  while (!done()) {
    if (now_ >= virtual_deadline || std::chrono::steady_clock::now() >= real_deadline) return false;
    Step();
  }
  return true;
}

void LoopbackRig::StepFor(Micros duration) {
  const Micros end = now_ + duration;
  StepUntil([this, end] { return now_ >= end; }, duration + kStep);
}

}  // namespace netcube::testing
