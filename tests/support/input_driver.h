#pragma once
// Plays a TestClient's part in the game: new inputs on a fixed interval of the virtual clock, each packet
// carrying every unacknowledged input (InputSender), acknowledgements taken from the newest snapshot.
#include <cstdint>
#include <functional>
#include <vector>

#include "support/test_client.h"

namespace netcube::testing {

class InputDriver {
 public:
  struct Options {
    sim::Seq first_seq = 1;
    Micros interval{1'000'000 / sim::kTicksPerSecond};  // one send per interval
    int inputs_per_send = 1;                            // 2 = a speed hack
    int copies = 1;                                     // each packet sent this many times
  };
  InputDriver(TestClient& client, Options options)
      : client_(client), options_(options), sender_(options.first_seq) {}

  // Call at every step. Adds `inputs_per_send` new inputs (buttons from `buttons`) while `keep_adding`,
  // and sends what is unacknowledged, whenever an interval has passed.
  void Update(Micros now, const std::function<std::uint8_t()>& buttons, bool keep_adding = true);

  const std::vector<sim::Input>& sent() const { return sent_; }
  // The newest snapshot acknowledges the last input sent.
  bool AllAcknowledged() const;

 private:
  TestClient& client_;
  Options options_;
  InputSender sender_;
  std::vector<sim::Input> sent_;
  std::optional<Micros> next_send_;
};

// The state `start` reaches under `inputs`, applied in order with sim::Move.
sim::CubeState Replay(sim::CubeState start, std::span<const sim::Input> inputs);

}  // namespace netcube::testing
