#pragma once
// A network simulator in the project's own code (after yojimbo's NetworkSimulator): added one-way latency,
// jitter, loss, duplication and reordering, from a seeded generator and an injected clock, so a test can
// replay exactly the same bad network. The kernel here has no netem, and a LAN has no latency to show.
#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>
#include <vector>

#include "netcube/sim/time.h"
#include "netcube/transport/recycled_buffers.h"

namespace netcube::transport {

struct LinkSettings {
  double latency_ms = 0.0;  // added one way
  double jitter_ms = 0.0;   // each packet's delay varies by up to ± this
  double loss = 0.0;        // probability a packet is dropped, [0, 1]
  double duplicate = 0.0;   // probability a packet is delivered twice, [0, 1]
  double reorder = 0.0;     // probability a packet is held back behind later ones, [0, 1]
  friend bool operator==(const LinkSettings&, const LinkSettings&) = default;
};

// One packet (or connection event) in flight through the conditioner; its bytes are the conditioner's.
struct ConditionedPacket {
  std::uint32_t peer = 0;
  std::uint8_t channel = 0;
  // Reliable traffic is only delayed: never lost, duplicated or reordered. A peer's reliable entries are
  // delivered first in, first out.
  bool reliable = false;
  std::vector<std::uint8_t> data;
};

struct LinkConditionerCounters {
  std::uint64_t pushed = 0;
  std::uint64_t delivered = 0;
  std::uint64_t dropped = 0;
  std::uint64_t duplicated = 0;
  std::uint64_t reordered = 0;
};

// What the conditioner did with one pushed packet: its log, for checking that two conditioners treated
// their traffic alike.
struct LinkDecision {
  Micros at{0};  // push time
  std::uint32_t peer = 0;
  std::uint8_t channel = 0;
  bool reliable = false;
  bool dropped = false;
  bool duplicated = false;
  bool reordered = false;
  Micros delay{0};  // until delivery (0 when dropped)
};
using LinkLog = std::function<void(const LinkDecision&)>;

// A reordered packet is held back this long plus twice the jitter on top of its delay, so every packet
// pushed up to this long after it overtakes it, whatever their jitter: longer than one 20 Hz snapshot gap.
inline constexpr double kReorderHoldMs = 75.0;

// Each packet is delivered at now + latency ± jitter (uniform, never before now). Poll returns due packets
// ordered by (delivery time, push order); with all-zero settings that is push order, at the push time, so
// an owner may then skip the conditioner altogether (IsActive, as yojimbo's network simulator).
// Packets are held in recycled buffers of their size class: once as many packets of a size as ever before
// are in flight, nothing more is allocated.
// Every random draw is a hash of the seed, the push time, the packet's rank among the pushes for its peer
// and channel at that time, and what is drawn, rather than the next number of one stream: two
// conditioners with the same seed treat packets pushed at the same moments alike, whatever else each of
// them carried, so compared clients see the same delays and losses at the same moments. The hash is
// splitmix64's finaliser with an explicit integer-to-double conversion (no std distributions, whose
// results differ between standard libraries): the same seed gives the same network on every compiler.
class LinkConditioner {
 public:
  explicit LinkConditioner(std::uint64_t seed);

  // New settings apply to packets pushed from now on; packets already in flight keep their times.
  // Out-of-range values are clamped: times below 0 (or NaN) to 0, probabilities to [0, 1].
  void SetSettings(const LinkSettings& settings);
  const LinkSettings& settings() const { return settings_; }

  // Calls `log` with every push's decision (nothing when empty).
  void SetLog(LinkLog log) { log_ = std::move(log); }

  // False when the conditioner would hand every packet back at once and in order: all-zero settings,
  // nothing in flight and no log to keep.
  bool IsActive() const;
  // Counts a packet its owner passed on directly because the conditioner was not active.
  void CountPassedThrough();

  // Copies `bytes` into a buffer of the conditioner's own.
  void Push(Micros now, std::uint32_t peer, std::uint8_t channel, bool reliable,
            std::span<const std::uint8_t> bytes);
  // Calls deliver(const ConditionedPacket&) for every packet due at `now`, in delivery-time order. The
  // packets' bytes stay valid until the next Poll.
  template <class Deliver>
  void Poll(Micros now, Deliver&& deliver);

  std::size_t in_flight() const;
  const LinkConditionerCounters& counters() const { return counters_; }

  // Implementation detail below: see link_conditioner.cpp.
 private:
  struct Entry {
    Micros deliver_at{0};
    std::uint64_t push_order = 0;  // breaks ties in delivery time: stable, and the same on every run
    ConditionedPacket packet;
  };
  // The packets pushed at one moment for one (peer, channel): the rank of the next one.
  struct Rank {
    std::uint32_t peer = 0;
    std::uint8_t channel = 0;
    std::uint32_t next = 0;
  };
  // What a draw decides: part of its hash, so that each decision has its own number.
  enum class Draw : std::uint8_t { kLoss, kDelay, kReorder, kDuplicate, kDuplicateDelay };

  static bool DeliveredAfter(const Entry& a, const Entry& b);
  std::uint64_t KeyFor(Micros now, std::uint32_t peer, std::uint8_t channel);
  double Unit(std::uint64_t key, Draw draw) const;
  bool Chance(std::uint64_t key, Draw draw, double probability) const;
  Micros DrawDelay(std::uint64_t key, Draw draw) const;
  ConditionedPacket NewPacket(std::uint32_t peer, std::uint8_t channel, bool reliable,
                              std::span<const std::uint8_t> bytes);
  void Enqueue(Micros deliver_at, ConditionedPacket packet);
  void RecycleDelivered();
  bool Due(Micros now) const { return !queue_.empty() && queue_.front().deliver_at <= now; }
  const ConditionedPacket& PopDue();
  void ForgetPastTails(Micros now);

  LinkSettings settings_;
  LinkConditionerCounters counters_;
  std::uint64_t seed_;
  LinkLog log_;
  Micros rank_time_{-1};     // the moment `ranks_` counts
  std::vector<Rank> ranks_;  // one per (peer, channel) pushed at rank_time_
  std::uint64_t next_push_order_ = 0;
  std::vector<Entry> queue_;  // a min-heap on (deliver_at, push_order)
  // Per peer, the delivery time of its newest reliable entry still in the future: reliable traffic is FIFO.
  std::unordered_map<std::uint32_t, Micros> reliable_tail_;
  std::vector<ConditionedPacket> delivered_;  // handed out by the last Poll
  SpareBytes spare_;
};

template <class Deliver>
void LinkConditioner::Poll(Micros now, Deliver&& deliver) {
  RecycleDelivered();
  while (Due(now)) deliver(PopDue());
  ForgetPastTails(now);
}

}  // namespace netcube::transport
