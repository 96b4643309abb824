#include "tagging.h"

#include <algorithm>
#include <cmath>

namespace netcube::client {

void Tagging::Reset() noexcept {
  sampled_ = {};
  newest_sampled_.reset();
  next_shot_ = 0;
  last_fired_.reset();
  shots_.clear();
  flashes_.clear();
  metrics_ = {};
  rewind_sum_ms_ = 0.0;
  rewinds_ = 0;
  victim_view_histogram_ = {};
  victim_view_sum_ms_ = 0.0;
}

void Tagging::OnInputSampled(sim::Seq seq, Micros now) noexcept {
  // Every sample resends the unacknowledged inputs: only a newer newest one was sampled now.
  if (newest_sampled_ && !sim::SeqGreater(seq, *newest_sampled_)) return;
  sampled_[seq % sampled_.size()] = {seq, true, now};
  newest_sampled_ = seq;
}

std::optional<Micros> Tagging::SampledAt(sim::Seq seq) const noexcept {
  const Sampled& slot = sampled_[seq % sampled_.size()];
  if (!slot.used || slot.seq != seq) return std::nullopt;
  return slot.at;
}

std::optional<protocol::Tag> Tagging::Fire(Micros now, sim::Aim aim, const Sight& sight) {
  if (last_fired_ && now - *last_fired_ < Micros(sim::kTagCooldownMs * 1000)) return std::nullopt;
  last_fired_ = now;
  protocol::Tag tag;
  tag.shot = next_shot_++;
  tag.seq = sight.seq;
  const double whole = std::floor(sight.render_tick);
  // The fraction is rounded down, so the claim is never later than what was drawn.
  tag.render_tick = static_cast<std::uint32_t>(static_cast<Tick>(whole));
  tag.render_fraction =
      static_cast<std::uint16_t>(std::clamp((sight.render_tick - whole) * protocol::kRenderFractionSteps, 0.0,
                                            protocol::kRenderFractionSteps - 1.0));
  tag.seen_tick = static_cast<std::uint32_t>(sight.seen_tick);
  tag.delay_ms =
      static_cast<std::uint16_t>(std::clamp(std::lround(sight.delay_ms), 0L, long{protocol::kMaxTagDelayMs}));
  tag.aim = aim;

  ShotView shot;
  shot.shot = tag.shot;
  shot.origin = sight.origin;
  shot.aim = aim;
  shot.fired_at = now;
  shots_.push_back(shot);
  ++metrics_.tags_fired;
  return tag;
}

void Tagging::OnResult(const protocol::TagResult& result, std::optional<sim::PlayerId> me, Micros now) {
  if (result.shooter == me) {
    const auto it = std::find_if(shots_.begin(), shots_.end(),
                                 [&](const ShotView& s) { return s.shot == result.shot && !s.judged; });
    if (it != shots_.end()) {
      it->judged = true;
      it->outcome = result.outcome;
      it->target = result.target;
      it->rewind_ms = result.rewind_ms;
    }
    switch (result.outcome) {
      case protocol::TagOutcome::kHit:
        ++metrics_.tags_hit;
        break;
      case protocol::TagOutcome::kMiss:
        ++metrics_.tags_missed;
        break;
      case protocol::TagOutcome::kRefused:
        ++metrics_.tags_refused;
        break;
    }
    if (result.outcome != protocol::TagOutcome::kRefused) {
      rewind_sum_ms_ += result.rewind_ms;
      ++rewinds_;
    }
  }
  if (result.outcome != protocol::TagOutcome::kHit) return;
  flashes_.push_back({result.target, result.shooter, now});
  if (result.target != me) return;
  ++metrics_.tags_taken;
  if (!result.target_has_input) return;
  // The cube was where it was hit from input target_seq until the next input moved it on; with no later
  // input it is there still.
  const auto next = static_cast<sim::Seq>(result.target_seq + 1);
  const bool moved_on = newest_sampled_ && !sim::SeqLess(*newest_sampled_, next);
  if (moved_on && !SampledAt(next)) return;  // older than the inputs remembered
  const double ms = moved_on ? static_cast<double>((now - *SampledAt(next)).count()) / 1000.0 : 0.0;
  metrics_.victim_view_ms_last = ms;
  metrics_.victim_view_ms_max = std::max(metrics_.victim_view_ms_max, ms);
  victim_view_sum_ms_ += ms;
  ++metrics_.victim_view_samples;
  const auto bucket = std::min<std::size_t>(static_cast<std::size_t>(ms), victim_view_histogram_.size() - 1);
  ++victim_view_histogram_[bucket];
}

void Tagging::Expire(Micros now) {
  std::erase_if(flashes_, [now](const TagFlash& f) { return now - f.at > kTagDisplayTime; });
  std::erase_if(shots_, [now](const ShotView& s) { return now - s.fired_at > kTagDisplayTime && s.judged; });
  // A shot whose result never came (the connection ended) is bounded too.
  if (shots_.size() > kMaxShotViews) shots_.erase(shots_.begin(), shots_.end() - kMaxShotViews);
}

TagMetrics Tagging::metrics() const noexcept {
  TagMetrics m = metrics_;
  m.rewind_ms_mean = rewinds_ > 0 ? rewind_sum_ms_ / static_cast<double>(rewinds_) : 0.0;
  if (m.victim_view_samples > 0) {
    m.victim_view_ms_mean = victim_view_sum_ms_ / static_cast<double>(m.victim_view_samples);
    const auto wanted =
        static_cast<std::uint64_t>(std::ceil(0.99 * static_cast<double>(m.victim_view_samples)));
    std::uint64_t seen = 0;
    for (std::size_t ms = 0; ms < victim_view_histogram_.size(); ++ms) {
      seen += victim_view_histogram_[ms];
      if (seen >= wanted) {
        m.victim_view_ms_p99 = static_cast<double>(ms + 1);  // the bucket's upper edge
        break;
      }
    }
  }
  return m;
}

}  // namespace netcube::client
