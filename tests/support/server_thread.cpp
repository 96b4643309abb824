#include "support/server_thread.h"

#include <chrono>

namespace netcube::testing {

ServerThread::ServerThread(std::size_t max_clients, std::size_t max_per_address) {
  const auto start = std::chrono::steady_clock::now();
  const auto now = [start] {
    return std::chrono::duration_cast<Micros>(std::chrono::steady_clock::now() - start);
  };
  server::ServerConfig config;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  config.max_clients = max_clients;
  config.max_per_address = max_per_address;
  server_ = server::Server::Create(config, now(), &error_);
  if (server_ == nullptr) return;
  thread_ = std::thread([this, now] {
    while (!stop_) {
      server_->Update(now());
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
}

ServerThread::~ServerThread() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace netcube::testing
