#pragma once
// What a comparison records about one client at one frame: where it draws its own cube against where
// the server has it and against where its keys put it, how far its prediction drifts, how far its remote
// cubes are from the truth and how smoothly they move, its queue, link and traffic, and how long a key
// press took to move the drawn cube. Each technique's cost and what it buys, side by side. One sampler per
// client, fed every frame; the CSV, the plot and the printed figures are made from these samples, and every
// mean and percentile from Summarize.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "netcube/client/client.h"
#include "netcube/client/units.h"
#include "netcube/sim/move.h"
#include "netcube/sim/world.h"

namespace netcube::client {

struct FrameSample {
  std::int64_t frame = 0;
  Micros time{0};
  bool present = false;    // the client knows its cube and the server has it; else the next three are 0
  Vec2 drawn;              // the own cube as drawn
  Vec2 server;             // the own cube on the server, now (the truth)
  double own_error = 0.0;  // |drawn - server|, units
  std::uint64_t corrections = 0;
  double correction_max = 0.0;   // the largest correction so far, units
  double correction_mean = 0.0;  // their mean, units
  std::size_t pending_inputs = 0;
  double rtt_ms = 0.0;
  double interp_delay_ms = 0.0;
  double buffer_depth = 0.0;
  // Mean over the remote cubes of |drawn - where the server has that cube now|, units; none while the
  // client draws no remote cube the server has.
  std::optional<double> remote_error;
  // The same against where the server had each cube at the moment the client draws (its render tick:
  // interpolation's promise; the present itself when predicting the others), and how far that moment lies
  // behind the server's tick now, ms: both only when the truth's tick is known (not for a bot).
  std::optional<double> remote_error_drawn;
  std::optional<double> view_delay_ms;
  std::uint64_t bytes_up = 0;  // protocol payload bytes so far
  std::uint64_t bytes_down = 0;
  // On the frame the drawn own cube first moved after a key press (a key going down while none was held
  // and the cube stood still): how long after the press, ms.
  std::optional<double> press_delay_ms;
  // What prediction buys: |drawn - where the keys put the cube|, units. "Where the keys put it" is the
  // server's state now with the inputs it has not applied yet replayed on top: where the server will have
  // the cube once every key pressed so far has reached it. Present frames only.
  std::optional<double> keys_error;
  // What reconciliation buys: |raw prediction - where the keys put the cube|, units; with prediction only.
  std::optional<double> drift;
  // What interpolation buys, the smoothness of remote cubes this frame: drawn remote cubes that stepped
  // farther than a cube can move in the frame's time (kJumpFactor), and that stalled (drawn in motion,
  // then still while the true cube moved on); with `remote_moving`, the drawn remote cubes whose true cube
  // moved. Empty with none drawn.
  std::optional<int> remote_jumps;
  std::optional<int> remote_frozen;
  // The first remote cube (in id order) that jumped, and that froze, this frame: whom the glitch was seen on.
  std::optional<sim::PlayerId> jumped_cube;
  std::optional<sim::PlayerId> frozen_cube;
  int remote_moving = 0;
  // Remote jumps per remote cube and second over the last second (kSmoothnessWindow frames).
  std::optional<double> remote_jumps_per_s;
  double remote_seconds = 0.0;  // drawn remote cubes times this frame's length, s: the jumps' time base
  bool own_jump = false;        // the drawn own cube stepped farther than a cube can move (a visible snap)
};

// A step counts as a jump when it is this much longer than the farthest a cube moves at top speed in the
// frame's time: a second tick's step in one frame counts, rounding and a paced clock's few percent do not.
inline constexpr double kJumpFactor = 1.5;
inline constexpr double kTopSpeedUnitsPerS =
    static_cast<double>(sim::kMaxSpeed) * sim::kTicksPerSecond / sim::kSubUnitsPerUnit;
inline constexpr std::size_t kSmoothnessWindow = 60;  // frames: one second at 60 frames a second

// The figures of a run, one definition for every place that shows them (the plot's headers, the printed
// summary, the README): the own cube's error over the frames where it is present, the remote error over
// the frames with a remote cube, the key-press-to-motion delay over the presses. A frame without the value
// counts nowhere (not as 0).
std::optional<double> OwnError(const FrameSample& sample) noexcept;
std::optional<double> RemoteError(const FrameSample& sample) noexcept;
std::optional<double> RemoteErrorDrawn(const FrameSample& sample) noexcept;
std::optional<double> ViewDelayMs(const FrameSample& sample) noexcept;
std::optional<double> PressDelayMs(const FrameSample& sample) noexcept;
std::optional<double> KeysError(const FrameSample& sample) noexcept;
std::optional<double> Drift(const FrameSample& sample) noexcept;
std::optional<double> RemoteJumpsPerS(const FrameSample& sample) noexcept;

struct Spread {
  std::size_t count = 0;  // samples that had the value
  double min = 0.0;
  double mean = 0.0;
  double p99 = 0.0;  // the smallest value at or above 99% of the samples (nearest rank)
  double max = 0.0;
};
struct SampleSummary {
  Spread own_error;           // units
  Spread remote_error;        // units
  Spread remote_error_drawn;  // units
  Spread view_delay_ms;       // ms
  Spread press_delay_ms;      // ms
  Spread keys_error;          // units
  Spread drift;               // units
  Spread remote_jumps_per_s;  // the last second's rate, frame by frame (the plot's curve)
  // Over the whole run: remote jumps per remote cube and second, the share of the frames a remote cube
  // moved in truth that it was frozen mid-motion (stalled), and the own cube's snaps per second of its
  // presence.
  double remote_jumps_rate = 0.0;
  double remote_frozen_share = 0.0;
  double own_jumps_rate = 0.0;
  // The own cube's corrections over the run, and the largest.
  std::uint64_t corrections = 0;
  double correction_max = 0.0;
  double correction_mean = 0.0;
};
SampleSummary Summarize(std::span<const FrameSample> samples);

// The world as `client` last heard of it: its own cube's and every remote cube's newest received state.
// A bot's stand-in for the server's world, which it cannot see.
std::vector<sim::PlayerCube> NewestReceived(const Client& client);
// The same into `world` (cleared first), which keeps its capacity: nothing allocated once it has grown.
void NewestReceived(const Client& client, std::vector<sim::PlayerCube>& world);

class FrameSampler {
 public:
  // `held` are the buttons given to the client this frame; `truth` is the server's world now, the own
  // cube's `last_input` the newest input the server has applied; `truth_tick` its server tick, when known.
  FrameSample Sample(std::int64_t frame, Micros now, std::uint8_t held, const Client& client,
                     std::span<const sim::PlayerCube> truth, std::optional<Tick> truth_tick = std::nullopt);

 private:
  std::uint8_t last_held_ = 0;
  std::optional<Micros> press_;  // a key went down here and the drawn cube has not moved since
  std::optional<Vec2> last_drawn_;
  bool moved_ = false;  // the drawn cube moved on the last sampled frame
  std::optional<Micros> last_time_;
  // Each remote cube's drawn and true position on the last frame (reused: no allocation once grown).
  struct RemoteTrack {
    sim::PlayerId id = 0;
    Vec2 drawn;
    Vec2 truth;
    bool in_motion = false;  // drawn moving (or stalled since) while the true cube moves
  };
  std::vector<RemoteTrack> tracks_;
  std::vector<RemoteTrack> next_tracks_;
  // The truth at each of the last kTruthTicks server ticks, a ring by tick (reused: no allocation once
  // grown), for the error at the moment drawn.
  static constexpr std::size_t kTruthTicks = 128;
  struct PastTruth {
    std::optional<Tick> tick;
    std::vector<sim::PlayerCube> world;
  };
  std::array<PastTruth, kTruthTicks> past_{};
  std::optional<Vec2> TruthAt(sim::PlayerId id, double tick) const;
  // The parts of a sample: the own cube's figures, the remote cubes' (each one's motion against its last
  // frame, the jumps a second over the window), and the key press's delay.
  void SampleOwn(FrameSample& s, const Client& client, std::span<const sim::PlayerCube> truth,
                 double seconds) const;
  void SampleRemotes(FrameSample& s, const Client& client, std::span<const sim::PlayerCube> truth,
                     std::optional<Tick> truth_tick, double seconds);
  static void TrackMotion(FrameSample& s, const RemoteView& remote, const RemoteTrack& last,
                          RemoteTrack& track, double seconds, int& jumps, int& frozen);
  void CountJumpsPerSecond(FrameSample& s, int jumps, bool any_remote);
  void SamplePress(FrameSample& s, Micros now, std::uint8_t held);
  // The last kSmoothnessWindow frames' remote jumps and remote cube-seconds, a ring by frame count.
  std::array<int, kSmoothnessWindow> window_jumps_{};
  std::array<double, kSmoothnessWindow> window_seconds_{};
  std::size_t window_next_ = 0;
};

}  // namespace netcube::client
