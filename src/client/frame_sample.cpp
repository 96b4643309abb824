#include "netcube/client/frame_sample.h"

#include <algorithm>
#include <cmath>

namespace netcube::client {
namespace {

const sim::PlayerCube* Find(std::span<const sim::PlayerCube> world, sim::PlayerId id) {
  const auto it = std::find_if(world.begin(), world.end(), [id](const sim::PlayerCube& c) { return c.id == id; });
  return it == world.end() ? nullptr : &*it;
}

Spread SpreadOf(std::span<const FrameSample> samples, std::optional<double> (*value)(const FrameSample&) noexcept) {
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

}  // namespace

std::optional<double> OwnError(const FrameSample& sample) noexcept {
  if (!sample.present) return std::nullopt;
  return sample.own_error;
}
std::optional<double> RemoteError(const FrameSample& sample) noexcept { return sample.remote_error; }
std::optional<double> PressDelayMs(const FrameSample& sample) noexcept { return sample.press_delay_ms; }

SampleSummary Summarize(std::span<const FrameSample> samples) {
  return {SpreadOf(samples, &OwnError), SpreadOf(samples, &RemoteError), SpreadOf(samples, &PressDelayMs)};
}

std::vector<sim::PlayerCube> NewestReceived(const Client& client) {
  std::vector<sim::PlayerCube> world;
  const std::optional<sim::PlayerId> id = client.player_id();
  if (id && client.local().present) world.push_back({*id, client.local().server_state});
  for (const RemoteView& remote : client.remotes()) {
    if (remote.sample != SampleKind::kEmpty) world.push_back({remote.id, remote.latest_state});
  }
  return world;
}

FrameSample FrameSampler::Sample(std::int64_t frame, Micros now, std::uint8_t held, const Client& client,
                                 std::span<const sim::PlayerCube> truth) {
  FrameSample s;
  s.frame = frame;
  s.time = now;
  const Metrics m = client.metrics();
  s.corrections = m.corrections;
  s.pending_inputs = m.pending_inputs;
  s.rtt_ms = m.rtt_ms;
  s.interp_delay_ms = m.interp_delay_ms;
  s.buffer_depth = m.buffer_depth;
  s.bytes_up = m.bytes_up;
  s.bytes_down = m.bytes_down;

  const std::optional<sim::PlayerId> id = client.player_id();
  const sim::PlayerCube* own = id ? Find(truth, *id) : nullptr;
  const LocalView& local = client.local();
  s.present = own != nullptr && local.present;
  if (s.present) {
    s.drawn = local.drawn;
    s.server = PositionOf(own->state);
    s.own_error = Length(s.drawn - s.server);
  }
  double remote_sum = 0.0;
  int remote_count = 0;
  for (const RemoteView& remote : client.remotes()) {
    if (remote.sample == SampleKind::kEmpty) continue;  // not drawn yet
    if (const sim::PlayerCube* cube = Find(truth, remote.id)) {
      remote_sum += Length(remote.drawn - PositionOf(cube->state));
      ++remote_count;
    }
  }
  if (remote_count > 0) s.remote_error = remote_sum / remote_count;

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
  return s;
}

}  // namespace netcube::client
