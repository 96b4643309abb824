#include "netcube/timeline/journal.h"

#include <algorithm>
#include <cassert>

namespace netcube::timeline {

const char* ToString(EventKind kind) noexcept {
  switch (kind) {
    case EventKind::kPacketUp:
      return "packet_up";
    case EventKind::kPacketDown:
      return "packet_down";
    case EventKind::kSnapshotArrived:
      return "snapshot_arrived";
    case EventKind::kSnapshotsMissing:
      return "snapshots_missing";
    case EventKind::kSnapshotLate:
      return "snapshot_late";
    case EventKind::kSnapshotEncoding:
      return "snapshot_encoding";
    case EventKind::kCorrection:
      return "correction";
    case EventKind::kUnderrun:
      return "underrun";
    case EventKind::kExtrapolating:
      return "extrapolating";
    case EventKind::kRateChange:
      return "rate_change";
    case EventKind::kDelayChange:
      return "delay_change";
    case EventKind::kTagFired:
      return "tag_fired";
    case EventKind::kTagJudged:
      return "tag_judged";
    case EventKind::kInputsSent:
      return "inputs_sent";
    case EventKind::kDryTicks:
      return "dry_ticks";
    case EventKind::kInputsLost:
      return "inputs_lost";
    case EventKind::kInputsRefused:
      return "inputs_refused";
    case EventKind::kInputTarget:
      return "input_target";
    case EventKind::kSnapshotsEncoded:
      return "snapshots_encoded";
    case EventKind::kContact:
      return "contact";
    case EventKind::kLinkChange:
      return "link_change";
    case EventKind::kClockStep:
      return "clock_step";
  }
  return "?";
}

EventRing::EventRing(std::size_t capacity) : events_(std::max<std::size_t>(capacity, 1)) {}

void EventRing::Add(const Event& event) noexcept {
  events_[next_] = event;
  next_ = (next_ + 1) % events_.size();
  size_ = std::min(size_ + 1, events_.size());
  ++total_;
}

const Event& EventRing::at(std::size_t i) const noexcept {
  assert(i < size_);
  const std::size_t oldest = (next_ + events_.size() - size_) % events_.size();
  return events_[(oldest + i) % events_.size()];
}

Journal::Journal(std::size_t clients, std::size_t capacity_per_source) {
  rings_.reserve(clients + 1);
  for (std::size_t i = 0; i <= clients; ++i) rings_.emplace_back(capacity_per_source);
}

std::size_t Journal::memory_bytes() const noexcept {
  std::size_t bytes = 0;
  for (const EventRing& ring : rings_) bytes += ring.capacity() * sizeof(Event);
  return bytes;
}

}  // namespace netcube::timeline
