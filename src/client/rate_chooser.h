#pragma once
// The client's room for the snapshot rate it asks the server for (protocol section 7, "Snapshot rate").
//
// Each snapshot the interpolation buffer must ride out (lost, or late past the next) costs a snapshot
// interval of view delay: at the server's 20 a second, 50 ms each. On a link that loses or delays
// snapshots, the client asks for the tick rate instead, so each costs a third of that and the buffer can
// be both shorter and safer; on a clean link the server's rate is enough and costs a third of the packets.
// The measure is the staleness of the newest snapshot (ServerClock) beyond one interval of regular
// spacing: what loss and jitter add. Its 99th percentile decides for more snapshots, its largest value in
// a full window for fewer. A new connection starts at the tick rate: its link is not measured yet, the
// delay has to assume the worst, and at the tick rate the worst costs a third as much.
#include <algorithm>
#include <optional>

#include "netcube/client/metrics.h"
#include "netcube/client/server_clock.h"
#include "netcube/client/views.h"

namespace netcube::client {

class SnapshotRateChooser {
 public:
  // A new connection: snapshots come at `server_rate` (the Welcome's), and the client may ask for up to
  // `tick_rate` (the tick rate, or the server's max_snapshot_rate below it), which is also the start's.
  void Reset(int server_rate, int tick_rate) noexcept;

  // The rate to ask for at `now`, if it is not the one asked (or given) so far; `adaptive` off (the toggle
  // off, or no interpolation buffer to shorten) asks for the server's rate back at once. The first call with
  // `adaptive` on asks for the tick rate; after it, the link is judged at most every 100 ms (a call in
  // between returns nothing), and only once the clock has 1 s of staleness samples at the current rate (10 s
  // to go back to the server's).
  std::optional<int> Decide(const ServerClock& clock, bool adaptive, Micros now) noexcept;
  // Records that `rate` was asked for.
  void Asked(int rate) noexcept { rate_ = rate; }
  // The first tick the server sends at a rate asked for now: the request arrives about a round trip (and
  // its jitter) past the newest snapshot; snapshots before that come at the old rate. Before the first
  // TimeEcho reply, the handshake's round trip stands in, with RFC 6298's first jitter of half of it.
  static Tick SwitchTick(Tick newest, const LinkMetrics& link, double handshake_rtt_ms,
                         const ServerClock& clock) noexcept;

  int rate() const noexcept { return rate_; }  // the rate snapshots come at: asked for, or the server's
  // How long no snapshot has come, as of `now`, when that is longer than kSilentSnapshotIntervals of them
  // (and kMinSnapshotSilence); else nullopt.
  std::optional<Micros> SilenceAt(Micros last_snapshot_at, Micros now) const noexcept {
    if (rate_ <= 0) return std::nullopt;
    const Micros silence = now - last_snapshot_at;
    if (silence <= std::max(kMinSnapshotSilence, kSilentSnapshotIntervals * Micros(1'000'000) / rate_))
      return std::nullopt;
    return silence;
  }
  bool asked() const noexcept { return rate_ != server_rate_; }

 private:
  int server_rate_ = 20;
  int tick_rate_ = 60;
  int rate_ = 20;
  bool started_ = false;  // the start's tick rate has been asked for
  Micros next_judgement_{0};
};

}  // namespace netcube::client
