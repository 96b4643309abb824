#include "hostile/join_churn.h"

namespace netcube::hostile {

bool JoinChurn::Step(Micros now, std::string* error) {
  for (Churner& churner : churners_) {
    if (churner.client != nullptr) {
      churner.client->Poll(now);
      const testing::Inbox& inbox = churner.client->inbox();
      if (inbox.connected && !churner.asked)
        churner.asked = churner.client->SendConnectRequest(now, "churner");
      const bool done = at_the_challenge_ ? inbox.challenge.has_value() : inbox.welcome.has_value();
      // A request the server dropped is made again after 100 ms (ENet itself would wait 500 ms).
      const bool stuck = !inbox.connected && now - churner.started >= Micros(100'000);
      if (!done && !stuck && !inbox.disconnected && !inbox.refused) continue;
      churner.client->Disconnect(now);
      churner.client->Poll(now);
    }
    transport::HostConfig config;
    config.bind_address = churner.address;
    churner.client = testing::TestClient::Connect(port_, config, error);
    churner.asked = false;
    churner.started = now;
    if (churner.client == nullptr) return false;
    churner.client->AnswerChallenges(!at_the_challenge_);
    ++starts_;
  }
  return true;
}

}  // namespace netcube::hostile
