#pragma once
// The client's room for the link's statistics: the round trip (TimeEcho requests and replies), snapshot
// arrivals and loss, and the traffic totals and one-second rates from the transport's counters.
#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>

#include "netcube/client/interpolation_buffer.h"
#include "netcube/client/metrics.h"
#include "netcube/protocol/messages.h"
#include "netcube/transport/host.h"

namespace netcube::client {

// A snapshot of the whole world (full, or a delta rebuilt), or of the client's relevant set.
enum class SnapshotKind : std::uint8_t { kFull, kDelta, kInterest };

class LinkStats {
 public:
  // Starts a new connection's statistics at `now`.
  void Reset(Micros now) noexcept;

  // The TimeEcho request to send at `now`, if one is due.
  std::optional<protocol::TimeEcho> EchoDue(Micros now) noexcept;
  // A TimeEcho reply; false if it answers nothing this client could have sent.
  bool OnTimeEcho(const protocol::TimeEcho& echo, Micros now) noexcept;

  // A snapshot of server tick `tick` arrived from a server with these rates. False for one to drop (a
  // duplicate, or too old to tell); true for one not seen before, the newest or a late one.
  bool OnSnapshot(Tick tick, int tick_rate, int snapshot_rate) noexcept {
    return OnArrival(tick, true, tick_rate, snapshot_rate);
  }
  // A delta of server tick `tick` arrived against a baseline this client no longer holds: it came, so it is
  // no loss of the link, but it is of no use (snapshot_unusable).
  void OnMissingBaseline(Tick tick, int tick_rate, int snapshot_rate) noexcept {
    OnArrival(tick, false, tick_rate, snapshot_rate);
  }
  // The snapshot rate changes at about `tick` (the client asked for another): loss is counted from there,
  // since the snapshots expected before it came at the old rate.
  void CountLossFrom(Tick tick) noexcept;
  // One that arrived before the Welcome.
  void OnEarlySnapshot() noexcept { ++metrics_.snapshots_early; }
  // How an accepted snapshot was encoded.
  void OnEncoding(SnapshotKind kind) noexcept {
    ++(kind == SnapshotKind::kDelta      ? metrics_.snapshots_delta
       : kind == SnapshotKind::kInterest ? metrics_.snapshots_interest
                                         : metrics_.snapshots_full);
  }

  // The transport's counters as of now; they are kept after the host is gone.
  void SetCounters(const transport::TransportCounters& counters) noexcept { counters_ = counters; }
  // Brings the totals up to date and closes a rate window when a second has passed.
  void UpdateRates(Micros now) noexcept;

  const LinkMetrics& metrics() const noexcept { return metrics_; }
  // The snapshot loss has been measured over its full horizon (since Reset): before that, a few percent
  // cannot be told from none.
  bool loss_measured() const noexcept { return loss_measured_; }
  const transport::TransportCounters& counters() const noexcept { return counters_; }

 private:
  LinkMetrics metrics_;
  transport::TransportCounters counters_;
  bool OnArrival(Tick tick, bool usable, int tick_rate, int snapshot_rate) noexcept;
  void UpdateLoss(int tick_rate, int snapshot_rate) noexcept;

  struct Arrival {
    Tick tick = 0;
    bool usable = false;  // not a delta against a baseline no longer held
  };
  // The last kRecent distinct snapshots that arrived, a ring in arrival order: for duplicates, and the loss
  // over a horizon long enough to see a loss of a few percent.
  static constexpr std::size_t kRecent = 256;
  std::array<Arrival, kRecent> recent_{};
  std::size_t recent_count_ = 0;  // arrived so far (the ring holds the last kRecent)
  Tick newest_ = 0;
  // Loss is counted from the oldest snapshot received at or after count_from_ (so a span starts in step
  // with the rate's spacing); none yet: not counting.
  Tick count_from_ = 0;
  Tick first_counted_ = 0;
  bool counting_ = false;
  bool loss_measured_ = false;
  Micros next_echo_{0};
  Micros rate_window_start_{0};
  transport::TransportCounters rate_counters_;
  std::uint64_t rate_snapshots_ = 0;
};

}  // namespace netcube::client
