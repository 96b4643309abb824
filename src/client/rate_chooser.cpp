#include "rate_chooser.h"

#include <algorithm>

namespace netcube::client {
namespace {

// Staleness beyond the regular spacing, as a share of the server's snapshot interval: above kAskMore,
// losses and jitter cost enough delay to be worth three times the packets; below kAskLess, the link is
// clean at any rate.
constexpr double kAskMore = 0.25;
constexpr double kAskLess = 0.1;
// A judgement scans the staleness histogram twice: every 100 ms (ten new samples) is soon enough to
// follow the first loss the window shows, and spares the frames in between.
constexpr Micros kJudgementInterval{100'000};

}  // namespace

void SnapshotRateChooser::Reset(int server_rate, int tick_rate) noexcept {
  tick_rate_ = std::max(1, tick_rate);
  server_rate_ = std::clamp(server_rate, 1, tick_rate_);
  rate_ = server_rate_;
  started_ = false;
}

std::optional<int> SnapshotRateChooser::Decide(const ServerClock& clock, bool adaptive, Micros now) noexcept {
  int wanted = rate_;
  if (!adaptive) {
    wanted = server_rate_;
  } else if (!started_) {
    started_ = true;
    wanted = tick_rate_;  // an unmeasured link: its snapshots as cheap in delay as they come
  } else if (now >= next_judgement_ && clock.settled()) {
    next_judgement_ = now + kJudgementInterval;
    const double server_interval_ms = 1000.0 / server_rate_;
    const double interval_ms = 1000.0 / rate_;
    // More: at the 99th percentile, losses and jitter add enough. Less: even the stalest moment in a full
    // window (10 s) adds next to nothing. A loss at the tick rate adds a third of what it adds at the
    // server's, so the 99th percentile both ways would flip a link with 2% loss back and forth, and a
    // shorter window would let it go back after a lucky second.
    const double added_ms = clock.StalenessQuantileMs(ServerClock::kStalenessQuantile) - interval_ms;
    const double worst_added_ms = clock.StalenessQuantileMs(1.0) - interval_ms;
    if (rate_ < tick_rate_ && added_ms > kAskMore * server_interval_ms) wanted = tick_rate_;
    if (rate_ > server_rate_ && clock.window_full() && worst_added_ms < kAskLess * server_interval_ms) {
      wanted = server_rate_;
    }
  }
  if (wanted == rate_) return std::nullopt;
  return wanted;
}

Tick SnapshotRateChooser::SwitchTick(Tick newest, const LinkMetrics& link, double handshake_rtt_ms,
                                     const ServerClock& clock) noexcept {
  const double trip_ms =
      link.rtt_samples > 0 ? link.rtt_ms + 4.0 * link.rtt_jitter_ms : 3.0 * handshake_rtt_ms;
  return newest + static_cast<Tick>(trip_ms / clock.tick_period_ms()) + 1;
}

}  // namespace netcube::client
