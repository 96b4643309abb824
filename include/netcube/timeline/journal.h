#pragma once
// The journal of a run: what happened at the message boundary and inside each technique, per client and
// for the server, each event stamped with the run's time and frame. Every source has a ring of fixed
// capacity, allocated once: the newest events overwrite the oldest, so an hour costs no more memory than
// a minute (the ring simply covers less of it), and recording allocates nothing. Explanations are made as
// the glitches happen, from the last seconds, which a ring of the default size holds many times over.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "netcube/sim/time.h"

namespace netcube::timeline {

// Journal files save these values (journal_file.h): a new kind goes at the end, and kLastEventKind moves.
enum class EventKind : std::uint8_t {
  // A client's link, one event per packet through its conditioner (LinkDecision): `flags` kDropped,
  // kDuplicated, kReordered; a = the delay until delivery, us; b = the channel.
  kPacketUp,    // client to server: inputs, acks, time echoes
  kPacketDown,  // server to client: snapshots, time echo replies
  // A client.
  kSnapshotArrived,   // a = the newest tick; b = distinct snapshots accepted since the last frame; value = ms
                      // since the previous arrival; flags = the interpolation buffer's depth after it
                      // (snapshots ahead of the render time, rounded, at most 255)
  kSnapshotsMissing,  // a newer snapshot came after a gap: a = the first tick missing, b = the last
  kSnapshotLate,      // b = snapshots accepted after a newer one since the last frame
  kSnapshotEncoding,  // b = full snapshots, a = deltas, since the last frame
  kCorrection,        // value = its size, units
  kUnderrun,          // a = underruns so far
  kExtrapolating,     // value = ms extrapolated (summed over remote cubes) since the last frame
  kRateChange,        // a = the snapshot rate before, b = after
  kDelayChange,       // a = the interpolation delay before, b = after, us
  kTagFired,          // a = the shot, b = the cube the shooter saw it cross (0: none)
  kTagJudged,         // a = the shot, b = the outcome (protocol::TagOutcome), player = the target on a hit
  kInputsSent,        // b = inputs sampled and sent since the last frame
  // The server.
  kDryTicks,       // player = whose; b = dry ticks since the last frame
  kInputsLost,     // player = whose; b = inputs never arrived, since the last frame
  kInputsRefused,  // player = whose; b = inputs that came with its queue full (the rate limit), dropped
  kInputTarget,    // player = whose; a = the input buffer's target before, b = after; value = inputs queued
  kSnapshotsEncoded,  // a = deltas, b = full snapshots, value = bytes, since the last frame
  kContact,           // player and b: two cubes touching (a collision) this frame; a = 1 on its first frame
  kLinkChange,        // a scripted link change: a = its index in the script; player = the client (0: server)
  // A client.
  kClockStep,  // its clock stepped forward: a = the step, us; b = the change's index in the script
};
inline constexpr EventKind kLastEventKind = EventKind::kClockStep;
const char* ToString(EventKind kind) noexcept;

namespace event_flags {
inline constexpr std::uint8_t kDropped = 1;
inline constexpr std::uint8_t kDuplicated = 2;
inline constexpr std::uint8_t kReordered = 4;
}  // namespace event_flags

struct Event {
  Micros at{0};
  std::int32_t frame = 0;
  EventKind kind = EventKind::kPacketUp;
  std::uint8_t flags = 0;
  std::uint16_t player = 0;
  std::int32_t a = 0;
  std::int32_t b = 0;
  float value = 0.0F;
};

// One source's events, oldest overwritten first.
class EventRing {
 public:
  explicit EventRing(std::size_t capacity);
  void Add(const Event& event) noexcept;
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return events_.size(); }
  std::uint64_t total() const noexcept { return total_; }  // ever added, overwritten ones included
  // The i-th oldest event held, i < size().
  const Event& at(std::size_t i) const noexcept;
  // Calls visit(event) on every event held with `from` <= at <= `to`, newest first, until it returns false.
  template <class Visit>
  void VisitBackward(Micros from, Micros to, Visit&& visit) const;

 private:
  std::vector<Event> events_;
  std::size_t next_ = 0;
  std::size_t size_ = 0;
  std::uint64_t total_ = 0;
};

inline constexpr std::size_t kDefaultRingCapacity = 1 << 16;

// Source 0 is the server, source i + 1 client i.
class Journal {
 public:
  Journal(std::size_t clients, std::size_t capacity_per_source = kDefaultRingCapacity);
  EventRing& server() noexcept { return rings_[0]; }
  const EventRing& server() const noexcept { return rings_[0]; }
  EventRing& client(std::size_t index) noexcept { return rings_[index + 1]; }
  const EventRing& client(std::size_t index) const noexcept { return rings_[index + 1]; }
  std::size_t clients() const noexcept { return rings_.size() - 1; }
  std::size_t memory_bytes() const noexcept;

 private:
  std::vector<EventRing> rings_;
};

template <class Visit>
void EventRing::VisitBackward(Micros from, Micros to, Visit&& visit) const {
  std::size_t slot = next_;
  for (std::size_t i = 0; i < size_; ++i) {
    slot = slot == 0 ? events_.size() - 1 : slot - 1;
    const Event& event = events_[slot];
    if (event.at > to) continue;
    if (event.at < from) return;
    if (!visit(event)) return;
  }
}

}  // namespace netcube::timeline
