#pragma once
// A real-time server on 127.0.0.1 and an ephemeral port, updated every millisecond on its own thread: the
// counterpart for tests that run an executable, which keeps its own (real) clock.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "netcube/server/server.h"

namespace netcube::testing {

class ServerThread {
 public:
  // A server that fails to start leaves port() 0 and says why in error().
  explicit ServerThread(std::size_t max_clients = 32,
                        std::size_t max_per_address = server::ServerConfig{}.max_per_address);
  ~ServerThread();
  ServerThread(const ServerThread&) = delete;
  ServerThread& operator=(const ServerThread&) = delete;

  std::uint16_t port() const { return server_ ? server_->port() : 0; }
  const std::string& error() const { return error_; }

 private:
  std::string error_;
  std::unique_ptr<server::Server> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace netcube::testing
