#pragma once
// What a comparison records about one client at one frame: where it draws its own cube against where
// the server has it, how far its remote cubes are from the truth, its queue, link and traffic, and how
// long a key press took to move the drawn cube. One sampler per client, fed every frame; the CSV and
// the plot are made from these samples.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "netcube/client/client.h"
#include "netcube/client/units.h"
#include "netcube/sim/world.h"

namespace netcube::client {

struct FrameSample {
  std::int64_t frame = 0;
  Micros time{0};
  bool present = false;  // the client knows its cube and the server has it
  Vec2 drawn;            // the own cube as drawn
  Vec2 server;           // the own cube on the server, now (the truth)
  double own_error = 0.0;  // |drawn - server|, units
  std::uint64_t corrections = 0;
  std::size_t pending_inputs = 0;
  double rtt_ms = 0.0;
  double interp_delay_ms = 0.0;
  double buffer_depth = 0.0;
  // Mean over the remote cubes of |drawn - where the server has that cube now|, units; 0 with none.
  double remote_error = 0.0;
  std::uint64_t bytes_up = 0;  // protocol payload bytes so far
  std::uint64_t bytes_down = 0;
  // On the frame the drawn own cube first moved after a key press (a key going down while none was held
  // and the cube stood still): how long after the press, ms.
  std::optional<double> press_delay_ms;
};

// The world as `client` last heard of it: its own cube's and every remote cube's newest received state.
// A bot's stand-in for the server's world, which it cannot see.
std::vector<sim::PlayerCube> NewestReceived(const Client& client);

class FrameSampler {
 public:
  // `held` are the buttons given to the client this frame; `truth` is the server's world now.
  FrameSample Sample(std::int64_t frame, Micros now, std::uint8_t held, const Client& client,
                     std::span<const sim::PlayerCube> truth);

 private:
  std::uint8_t last_held_ = 0;
  std::optional<Micros> press_;  // a key went down here and the drawn cube has not moved since
  std::optional<Vec2> last_drawn_;
  bool moved_ = false;  // the drawn cube moved on the last sampled frame
};

}  // namespace netcube::client
