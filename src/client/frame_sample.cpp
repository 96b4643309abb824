#include "netcube/client/frame_sample.h"

#include <algorithm>

namespace netcube::client {
namespace {

const sim::PlayerCube* Find(std::span<const sim::PlayerCube> world, sim::PlayerId id) {
  const auto it = std::find_if(world.begin(), world.end(), [id](const sim::PlayerCube& c) { return c.id == id; });
  return it == world.end() ? nullptr : &*it;
}

}  // namespace

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
