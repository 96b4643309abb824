#include "netcube/client/frame_sample.h"

#include <algorithm>
#include <cmath>

namespace netcube::client {
namespace {

const sim::PlayerCube* Find(std::span<const sim::PlayerCube> world, sim::PlayerId id) {
  const auto it =
      std::find_if(world.begin(), world.end(), [id](const sim::PlayerCube& c) { return c.id == id; });
  return it == world.end() ? nullptr : &*it;
}

Spread SpreadOf(std::span<const FrameSample> samples,
                std::optional<double> (*value)(const FrameSample&) noexcept) {
  std::vector<double> values;
  for (const FrameSample& sample : samples) {
    if (const std::optional<double> v = value(sample)) values.push_back(*v);
  }
  Spread spread;
  spread.count = values.size();
  if (values.empty()) return spread;
  std::sort(values.begin(), values.end());
  double sum = 0.0;
  for (const double v : values) sum += v;
  spread.min = values.front();
  spread.mean = sum / static_cast<double>(values.size());
  spread.p99 = values[static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(values.size()))) - 1];
  spread.max = values.back();
  return spread;
}

// Whether the server's `truth` has applied input `seq`. Inputs count from 0 and a first input always holds
// a key (a keyless sample of a cube at rest is never sent), so last_input 0 with no buttons means none yet.
bool Applied(sim::Seq seq, const sim::CubeState& truth) noexcept {
  if (seq == truth.last_input) return seq != 0 || truth.buttons != 0;
  return sim::SeqGreater(truth.last_input, seq);
}

// Where the keys pressed so far put the cube: the server's state now, with the inputs it has not applied
// yet replayed on top, as the server will apply them.
Vec2 KeysPosition(const sim::CubeState& truth, const PendingInputs& pending,
                  const sim::Arena& arena) noexcept {
  sim::CubeState state = truth;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (!Applied(pending[i].input.seq, truth)) state = sim::Move(state, pending[i].input, arena);
  }
  return PositionOf(state);
}

bool IsJump(Vec2 step, double seconds) noexcept {
  return Length(step) > kJumpFactor * kTopSpeedUnitsPerS * seconds;
}

}  // namespace

std::optional<double> OwnError(const FrameSample& sample) noexcept {
  if (!sample.present) return std::nullopt;
  return sample.own_error;
}
std::optional<double> RemoteError(const FrameSample& sample) noexcept { return sample.remote_error; }
std::optional<double> RemoteErrorDrawn(const FrameSample& sample) noexcept {
  return sample.remote_error_drawn;
}
std::optional<double> ViewDelayMs(const FrameSample& sample) noexcept { return sample.view_delay_ms; }
std::optional<double> PressDelayMs(const FrameSample& sample) noexcept { return sample.press_delay_ms; }
std::optional<double> KeysError(const FrameSample& sample) noexcept { return sample.keys_error; }
std::optional<double> Drift(const FrameSample& sample) noexcept { return sample.drift; }
std::optional<double> RemoteJumpsPerS(const FrameSample& sample) noexcept {
  return sample.remote_jumps_per_s;
}

SampleSummary Summarize(std::span<const FrameSample> samples) {
  SampleSummary summary;
  summary.own_error = SpreadOf(samples, &OwnError);
  summary.remote_error = SpreadOf(samples, &RemoteError);
  summary.remote_error_drawn = SpreadOf(samples, &RemoteErrorDrawn);
  summary.view_delay_ms = SpreadOf(samples, &ViewDelayMs);
  summary.press_delay_ms = SpreadOf(samples, &PressDelayMs);
  summary.keys_error = SpreadOf(samples, &KeysError);
  summary.drift = SpreadOf(samples, &Drift);
  summary.remote_jumps_per_s = SpreadOf(samples, &RemoteJumpsPerS);
  double remote_seconds = 0.0;
  double own_seconds = 0.0;
  int remote_jumps = 0;
  int frozen = 0;
  int moving = 0;
  int own_jumps = 0;
  std::optional<Micros> last_time;
  for (const FrameSample& sample : samples) {
    remote_seconds += sample.remote_seconds;
    remote_jumps += sample.remote_jumps.value_or(0);
    frozen += sample.remote_frozen.value_or(0);
    moving += sample.remote_moving;
    if (sample.present && last_time)
      own_seconds += static_cast<double>((sample.time - *last_time).count()) / 1e6;
    if (sample.own_jump) ++own_jumps;
    last_time = sample.time;
  }
  if (remote_seconds > 0.0) summary.remote_jumps_rate = remote_jumps / remote_seconds;
  if (moving > 0) summary.remote_frozen_share = static_cast<double>(frozen) / moving;
  if (own_seconds > 0.0) summary.own_jumps_rate = own_jumps / own_seconds;
  if (!samples.empty()) {
    summary.corrections = samples.back().corrections;
    summary.correction_max = samples.back().correction_max;
    summary.correction_mean = samples.back().correction_mean;
  }
  return summary;
}

std::vector<sim::PlayerCube> NewestReceived(const Client& client) {
  std::vector<sim::PlayerCube> world;
  NewestReceived(client, world);
  return world;
}

void NewestReceived(const Client& client, std::vector<sim::PlayerCube>& world) {
  world.clear();
  const std::optional<sim::PlayerId> id = client.player_id();
  if (id && client.local().present) world.push_back({*id, client.local().server_state});
  for (const RemoteView& remote : client.remotes()) {
    if (remote.sample != SampleKind::kEmpty) world.push_back({remote.id, remote.latest_state});
  }
}

std::optional<Vec2> FrameSampler::TruthAt(sim::PlayerId id, double tick) const {
  const auto whole = static_cast<Tick>(std::floor(tick));
  const PastTruth& at = past_[static_cast<std::size_t>(whole) % kTruthTicks];
  const PastTruth& next = past_[static_cast<std::size_t>(whole + 1) % kTruthTicks];
  if (at.tick != whole) return std::nullopt;
  const sim::PlayerCube* a = Find(at.world, id);
  if (a == nullptr) return std::nullopt;
  const sim::PlayerCube* b = next.tick == whole + 1 ? Find(next.world, id) : nullptr;
  const Vec2 from = PositionOf(a->state);
  if (b == nullptr) return from;
  return from + (PositionOf(b->state) - from) * (tick - static_cast<double>(whole));
}

FrameSample FrameSampler::Sample(std::int64_t frame, Micros now, std::uint8_t held, const Client& client,
                                 std::span<const sim::PlayerCube> truth, std::optional<Tick> truth_tick) {
  if (truth_tick && *truth_tick >= 0) {
    PastTruth& slot = past_[static_cast<std::size_t>(*truth_tick) % kTruthTicks];
    slot.tick = *truth_tick;
    slot.world.assign(truth.begin(), truth.end());
  }
  FrameSample s;
  s.frame = frame;
  s.time = now;
  const Metrics m = client.metrics();
  s.corrections = m.corrections;
  s.correction_max = m.max_correction;
  s.correction_mean = m.mean_correction;
  s.pending_inputs = m.pending_inputs;
  s.rtt_ms = m.rtt_ms;
  s.interp_delay_ms = m.interp_delay_ms;
  s.buffer_depth = m.buffer_depth;
  s.bytes_up = m.bytes_up;
  s.bytes_down = m.bytes_down;

  const double seconds = last_time_ ? static_cast<double>((now - *last_time_).count()) / 1e6 : 0.0;
  last_time_ = now;
  SampleOwn(s, client, truth, seconds);
  SampleRemotes(s, client, truth, truth_tick, seconds);
  SamplePress(s, now, held);
  return s;
}

void FrameSampler::SampleOwn(FrameSample& s, const Client& client, std::span<const sim::PlayerCube> truth,
                             double seconds) const {
  const std::optional<sim::PlayerId> id = client.player_id();
  const sim::PlayerCube* own = id ? Find(truth, *id) : nullptr;
  const LocalView& local = client.local();
  s.present = own != nullptr && local.present;
  if (!s.present) return;
  s.drawn = local.drawn;
  s.server = PositionOf(own->state);
  s.own_error = Length(s.drawn - s.server);
  const Vec2 keys = KeysPosition(own->state, client.pending(), client.welcome().arena);
  s.keys_error = Length(s.drawn - keys);
  if (client.settings().prediction) s.drift = Length(local.predicted - keys);
  s.own_jump = last_drawn_ && seconds > 0.0 && IsJump(s.drawn - *last_drawn_, seconds);
}

void FrameSampler::SampleRemotes(FrameSample& s, const Client& client, std::span<const sim::PlayerCube> truth,
                                 std::optional<Tick> truth_tick, double seconds) {
  double remote_sum = 0.0;
  int remote_count = 0;
  double drawn_sum = 0.0;
  int drawn_count = 0;
  int jumps = 0;
  int frozen = 0;
  next_tracks_.clear();
  for (const RemoteView& remote : client.remotes()) {
    if (remote.sample == SampleKind::kEmpty) continue;  // not drawn yet
    const sim::PlayerCube* cube = Find(truth, remote.id);
    if (cube == nullptr) continue;
    const Vec2 true_position = PositionOf(cube->state);
    remote_sum += Length(remote.drawn - true_position);
    ++remote_count;
    if (truth_tick) {
      // A moment drawn beyond the server's newest tick is judged against that tick: the truth it will have
      // then is not known yet.
      const double moment = std::min(client.render_tick(), static_cast<double>(*truth_tick));
      if (const std::optional<Vec2> then = TruthAt(remote.id, moment)) {
        drawn_sum += Length(remote.drawn - *then);
        ++drawn_count;
      }
    }
    const auto last =
        std::find_if(tracks_.begin(), tracks_.end(), [&](const RemoteTrack& t) { return t.id == remote.id; });
    RemoteTrack& track =
        next_tracks_.emplace_back(RemoteTrack{remote.id, remote.drawn, true_position, false});
    if (last == tracks_.end() || seconds <= 0.0) continue;
    s.remote_seconds += seconds;
    TrackMotion(s, remote, *last, track, seconds, jumps, frozen);
  }
  tracks_.swap(next_tracks_);
  if (drawn_count > 0) s.remote_error_drawn = drawn_sum / drawn_count;
  if (remote_count > 0 && truth_tick) {
    s.view_delay_ms =
        (static_cast<double>(*truth_tick) - client.render_tick()) * 1000.0 / sim::kTicksPerSecond;
  }
  if (remote_count > 0) {
    s.remote_error = remote_sum / remote_count;
    s.remote_jumps = jumps;
    s.remote_frozen = frozen;
  }
  CountJumpsPerSecond(s, jumps, remote_count > 0);
}

void FrameSampler::TrackMotion(FrameSample& s, const RemoteView& remote, const RemoteTrack& last,
                               RemoteTrack& track, double seconds, int& jumps, int& frozen) {
  const bool drawn_moved = !(remote.drawn == last.drawn);
  const bool truth_moved = !(track.truth == last.truth);
  if (IsJump(remote.drawn - last.drawn, seconds)) {
    ++jumps;
    if (!s.jumped_cube) s.jumped_cube = remote.id;
  }
  // A stall: a cube drawn in motion stands still while its true cube goes on. The wait before a drawn cube
  // starts is its delay, counted in the remote error, not here.
  track.in_motion = truth_moved && (drawn_moved || last.in_motion);
  if (truth_moved) {
    ++s.remote_moving;
    if (!drawn_moved && last.in_motion) {
      ++frozen;
      if (!s.frozen_cube) s.frozen_cube = remote.id;
    }
  }
}

void FrameSampler::CountJumpsPerSecond(FrameSample& s, int jumps, bool any_remote) {
  window_jumps_[window_next_] = jumps;
  window_seconds_[window_next_] = s.remote_seconds;
  window_next_ = (window_next_ + 1) % kSmoothnessWindow;
  double window_seconds = 0.0;
  int window_jumps = 0;
  for (std::size_t i = 0; i < kSmoothnessWindow; ++i) {
    window_seconds += window_seconds_[i];
    window_jumps += window_jumps_[i];
  }
  if (any_remote && window_seconds > 0.0) s.remote_jumps_per_s = window_jumps / window_seconds;
}

void FrameSampler::SamplePress(FrameSample& s, Micros now, std::uint8_t held) {
  // A press is a key going down while none was held and the drawn cube stood still; the delay runs until
  // the drawn cube first moves.
  if (held != 0 && last_held_ == 0 && !moved_ && s.present) press_ = now;
  last_held_ = held;
  if (s.present) {
    moved_ = last_drawn_ && !(s.drawn == *last_drawn_);
    if (press_ && moved_) {
      s.press_delay_ms = static_cast<double>((now - *press_).count()) / 1000.0;
      press_.reset();
    }
    last_drawn_ = s.drawn;
  }
}

}  // namespace netcube::client
