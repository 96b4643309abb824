#pragma once
// netcube-bot's time. The steady clock, with a 1 ms sleep between updates; or, with the server in this
// process, a virtual clock that each Advance moves by 1 ms (a frame is never skipped) after updating the
// server to it, as fast as it goes.
#include <chrono>
#include <thread>

#include "netcube/server/server.h"

namespace netcube::apps {

class BotClock {
 public:
  static constexpr auto kStep = std::chrono::milliseconds(1);

  explicit BotClock(server::Server* server) : server_(server) {}
  Micros Now() const {
    if (server_ != nullptr) return virtual_now_;
    return std::chrono::duration_cast<Micros>(std::chrono::steady_clock::now() - start_);
  }
  void Advance() {
    if (server_ == nullptr) {
      std::this_thread::sleep_for(kStep);
      return;
    }
    virtual_now_ += kStep;
    server_->Update(virtual_now_);
  }

 private:
  server::Server* server_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  Micros virtual_now_{0};
};

}  // namespace netcube::apps
