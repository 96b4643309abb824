#include "remote_cubes.h"

#include <algorithm>

namespace netcube::client {
namespace {

// Smoothing: how far a cube can move in one tick, and the gap beyond which a cube is not chased but drawn
// where it is (a respawn, a cube pushed across a wall: not a correction worth easing).
constexpr double kTopSpeedUnitsPerTick = static_cast<double>(sim::kMaxSpeed) / sim::kSubUnitsPerUnit;
constexpr double kMaxChaseUnits = 4.0;

// `target`, or as far toward it from `from` as `budget` units allow.
Vec2 StepToward(const Vec2& from, const Vec2& target, double budget) noexcept {
  const Vec2 gap = target - from;
  const double distance = Length(gap);
  if (distance <= budget || distance > kMaxChaseUnits) return target;
  return from + gap * (budget / distance);
}

}  // namespace

void RemoteCubes::Reset() {
  cubes_.clear();
  cursor_ = 0;
  names_.clear();
  underrun_ = false;
  dry_ = false;
  metrics_ = {};
  views_.clear();
}

void RemoteCubes::OnJoined(const protocol::PlayerJoined& joined) {
  for (const protocol::JoinedPlayer& player : joined.players) {
    auto it = std::lower_bound(names_.begin(), names_.end(), player.player_id,
                               [](const auto& e, sim::PlayerId v) { return e.first < v; });
    if (it != names_.end() && it->first == player.player_id) {
      it->second = player.name;
    } else {
      names_.insert(it, {player.player_id, player.name});
    }
  }
}

std::vector<RemoteCubes::Cube>::iterator RemoteCubes::LowerBound(sim::PlayerId id) noexcept {
  if (cursor_ > cubes_.size() || (cursor_ > 0 && cubes_[cursor_ - 1].id >= id)) cursor_ = 0;
  auto it = cubes_.begin() + static_cast<std::ptrdiff_t>(cursor_);
  // A few steps on, the next id of a snapshot is nearly always found; past them, a search.
  constexpr int kSteps = 8;
  for (int step = 0; it != cubes_.end() && it->id < id; ++it) {
    if (++step == kSteps) {
      it = std::lower_bound(it, cubes_.end(), id, [](const Cube& c, sim::PlayerId v) { return c.id < v; });
      break;
    }
  }
  cursor_ = static_cast<std::size_t>(it - cubes_.begin());
  return it;
}

void RemoteCubes::Forget(sim::PlayerId id) {
  std::erase_if(names_, [id](const auto& e) { return e.first == id; });
  std::erase_if(cubes_, [id](const Cube& c) { return c.id == id; });
}

void RemoteCubes::BeginSnapshot() noexcept {
  for (Cube& cube : cubes_) cube.seen = false;
}

void RemoteCubes::Receive(Tick tick, const sim::PlayerCube& player) {
  auto it = LowerBound(player.id);
  if (it == cubes_.end() || it->id != player.id) {
    it = cubes_.insert(it, Cube{});
    it->id = player.id;
  }
  it->buffer.Insert(tick, player.state);
  it->latest = player.state;
  it->seen = true;
  it->kept = false;
}

void RemoteCubes::Keep(sim::PlayerId id) noexcept {
  const auto it = LowerBound(id);
  if (it == cubes_.end() || it->id != id) return;  // its state has not come yet: nothing to draw
  it->seen = true;
  it->kept = true;
}

void RemoteCubes::ReceiveLate(Tick tick, const sim::PlayerCube& player, const ViewDelay& delay) {
  if (static_cast<double>(tick) <= delay.render_tick()) return;
  auto it = LowerBound(player.id);
  if (it != cubes_.end() && it->id == player.id) it->buffer.Insert(tick, player.state);
}

void RemoteCubes::EndSnapshot() {
  std::erase_if(cubes_, [](const Cube& c) { return !c.seen; });
}

void RemoteCubes::RefreshViews(double elapsed_ms, const ViewDelay& delay, const ServerClock& clock,
                               const Settings& settings, const sim::Arena& arena) {
  metrics_.interp_delay_ms = delay.delay_ms();
  const double render = delay.render_tick();
  const double period_ms = clock.tick_period_ms();
  // By the render clock, which runs at most kDelayShrinkRate fast while the delay shrinks (time dilation: a
  // cube is drawn moving that much faster, or it would fall behind its path for good), but no faster: a
  // jump of the server clock's estimate should not show as a faster cube.
  const double elapsed_ticks = elapsed_ms / period_ms;
  const double step_budget =
      kTopSpeedUnitsPerTick *
      std::max(elapsed_ticks,
               std::min(delay.render_moved(), (1.0 + ViewDelay::kDelayShrinkRate) * elapsed_ticks));

  // Extrapolation bridges one missing snapshot, no more: beyond that a guess drifts too far from the truth.
  const double max_extrapolation_ticks =
      settings.extrapolation ? clock.nominal_interval_ms() / period_ms : 0.0;
  views_.clear();
  double depth = 0.0;
  bool dry = false;
  bool underrun = false;
  auto name = names_.begin();  // both in increasing id: the names are walked beside the cubes
  for (Cube& cube : cubes_) {
    RemoteView view;
    view.id = cube.id;
    while (name != names_.end() && name->first < cube.id) ++name;
    if (name != names_.end() && name->first == cube.id) view.name = name->second;
    view.latest_state = cube.latest;
    view.latest = PositionOf(cube.latest);
    if (settings.interpolation) {
      const Sample sample = cube.buffer.SampleAt(render, max_extrapolation_ticks, arena);
      view.drawn = settings.smoothing && cube.was_drawn ? StepToward(cube.drawn, sample.position, step_budget)
                                                        : sample.position;
      view.sample = sample.kind;
      // A kept cube's newest state is older than the newest snapshot by design: it says nothing of the
      // delay.
      dry = dry || (!cube.kept && sample.ticks_past_newest > 0.0);
      underrun = underrun || (!cube.kept && sample.ticks_past_newest > max_extrapolation_ticks);
      if (sample.kind == SampleKind::kExtrapolated) metrics_.extrapolation_ms += elapsed_ms;
      cube.buffer.DropBefore(render);
      depth += static_cast<double>(cube.buffer.CountAfter(render));
    } else {
      view.drawn = view.latest;
      view.sample = SampleKind::kLatest;
    }
    cube.was_drawn = view.sample != SampleKind::kBeforeOldest;
    cube.drawn = view.drawn;
    if (cube.was_drawn) views_.push_back(std::move(view));
  }
  if (underrun && !underrun_) ++metrics_.interp_underruns;
  underrun_ = underrun;
  dry_ = dry;
  metrics_.buffer_depth = cubes_.empty() ? 0.0 : depth / static_cast<double>(cubes_.size());
}

}  // namespace netcube::client
