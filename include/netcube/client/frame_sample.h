#pragma once
// What a comparison records about one client at one frame: where it draws its own cube against where
// the server has it, how far its remote cubes are from the truth, its queue, link and traffic, and how
// long a key press took to move the drawn cube. One sampler per client, fed every frame; the CSV, the
// plot and the printed figures are made from these samples, and every mean and percentile from Summarize.
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
  bool present = false;  // the client knows its cube and the server has it; else the next three are 0
  Vec2 drawn;            // the own cube as drawn
  Vec2 server;           // the own cube on the server, now (the truth)
  double own_error = 0.0;  // |drawn - server|, units
  std::uint64_t corrections = 0;
  std::size_t pending_inputs = 0;
  double rtt_ms = 0.0;
  double interp_delay_ms = 0.0;
  double buffer_depth = 0.0;
  // Mean over the remote cubes of |drawn - where the server has that cube now|, units; none while the
  // client draws no remote cube the server has.
  std::optional<double> remote_error;
  std::uint64_t bytes_up = 0;  // protocol payload bytes so far
  std::uint64_t bytes_down = 0;
  // On the frame the drawn own cube first moved after a key press (a key going down while none was held
  // and the cube stood still): how long after the press, ms.
  std::optional<double> press_delay_ms;
};

// The figures of a run, one definition for every place that shows them (the plot's headers, the printed
// summary, the README): the own cube's error over the frames where it is present, the remote error over
// the frames with a remote cube, the key-press-to-motion delay over the presses. A frame without the value
// counts nowhere (not as 0).
std::optional<double> OwnError(const FrameSample& sample) noexcept;
std::optional<double> RemoteError(const FrameSample& sample) noexcept;
std::optional<double> PressDelayMs(const FrameSample& sample) noexcept;

struct Spread {
  std::size_t count = 0;  // samples that had the value
  double min = 0.0;
  double mean = 0.0;
  double p99 = 0.0;  // the smallest value at or above 99% of the samples (nearest rank)
  double max = 0.0;
};
struct SampleSummary {
  Spread own_error;       // units
  Spread remote_error;    // units
  Spread press_delay_ms;  // ms
};
SampleSummary Summarize(std::span<const FrameSample> samples);

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
