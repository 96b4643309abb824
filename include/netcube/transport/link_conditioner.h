#pragma once
// A network simulator in the project's own code (after yojimbo's NetworkSimulator): added one-way latency,
// jitter, loss, duplication and reordering, from a seeded generator and an injected clock, so a test can
// replay exactly the same bad network. The kernel here has no netem, and a LAN has no latency to show.
#include <cstdint>
#include <vector>

#include "netcube/transport/time.h"

namespace netcube::transport {

struct LinkSettings {
  double latency_ms = 0.0;  // added one way
  double jitter_ms = 0.0;   // each packet's delay varies by up to ± this
  double loss = 0.0;        // probability a packet is dropped, [0, 1]
  double duplicate = 0.0;   // probability a packet is delivered twice, [0, 1]
  double reorder = 0.0;     // probability a packet is held back behind later ones, [0, 1]
  friend bool operator==(const LinkSettings&, const LinkSettings&) = default;
};

// One packet (or connection event) in flight through the conditioner.
struct ConditionedPacket {
  std::uint32_t peer = 0;
  std::uint8_t channel = 0;
  bool reliable = false;  // reliable traffic is only delayed: never lost, duplicated or reordered
  std::vector<std::uint8_t> data;
};

struct LinkConditionerCounters {
  std::uint64_t pushed = 0;
  std::uint64_t delivered = 0;
  std::uint64_t dropped = 0;
  std::uint64_t duplicated = 0;
  std::uint64_t reordered = 0;
};

class LinkConditioner {
 public:
  explicit LinkConditioner(std::uint64_t seed);

  // New settings apply to packets pushed from now on; packets already in flight keep their times.
  void SetSettings(const LinkSettings& settings);
  const LinkSettings& settings() const { return settings_; }

  void Push(Micros now, ConditionedPacket packet);
  // Moves every packet due at `now` into `out` (appended), in delivery-time order.
  void Poll(Micros now, std::vector<ConditionedPacket>& out);

  std::size_t in_flight() const;
  const LinkConditionerCounters& counters() const { return counters_; }

  // Implementation detail below: see link_conditioner.cpp.
 private:
  struct Entry;
  LinkSettings settings_;
  LinkConditionerCounters counters_;
  std::uint64_t rng_state_;
  std::vector<Entry> queue_;
};

}  // namespace netcube::transport
