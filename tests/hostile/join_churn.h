#pragma once
// Issue 44's join churn: real clients, each from its own address, that join and leave in a loop as fast
// as the server lets them: connect, ask, answer the Challenge (or, `at_the_challenge`, leave as soon as it
// comes), leave at the Welcome, and start again; a connection not made in 100 ms is started again too.
// Used by the admission tests on a rig's clock and by netcube-hostile-load on the wall clock.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "netcube/sim/time.h"
#include "support/test_client.h"

namespace netcube::hostile {

class JoinChurn {
 public:
  JoinChurn(std::uint16_t port, std::vector<std::string> addresses, bool at_the_challenge)
      : port_(port), at_the_challenge_(at_the_challenge), churners_(addresses.size()) {
    for (std::size_t i = 0; i < addresses.size(); ++i) churners_[i].address = std::move(addresses[i]);
  }
  // Polls every churner and starts again each one done, refused, dropped or stuck. False, with `error`,
  // when a client could not be made (an address that cannot be bound).
  bool Step(Micros now, std::string* error);
  // Connections begun, since the first Step.
  std::uint64_t starts() const { return starts_; }

 private:
  struct Churner {
    std::string address;
    std::unique_ptr<testing::TestClient> client;
    bool asked = false;
    Micros started{0};
  };
  std::uint16_t port_;
  bool at_the_challenge_;
  std::vector<Churner> churners_;
  std::uint64_t starts_ = 0;
};

}  // namespace netcube::hostile
