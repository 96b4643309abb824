#pragma once
// How many connection requests each address sent lately (enet_admission.cpp): a count that halves every
// 4 s, so an address asking n times a second settles at about 5.8 n, and one honest join scores 1 to 3
// (ENet resends its CONNECT). An address flooding or joining and leaving in a loop has its requests
// dropped; when the peer table is full, an address asking again is the one to make room, and an honest
// handshake is the last a flood can push out. Beside it, a budget of the room addresses asking again may
// make, so a flood's requests cost no eviction storm.
// Bounded: a fixed table of addresses; an entry whose count has decayed to nothing is free again, and an
// address that finds no entry within a few probes is scored as new.
#include <enet/enet.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "netcube/sim/time.h"

namespace netcube::transport {

class ConnectMeter {
 public:
  // Counts a request from `host` at `now`; returns its score, this one included.
  double Count(enet_uint32 host, Micros now) {
    Entry* entry = Find(host, now);
    if (entry == nullptr) return 1.0;
    entry->score = Decayed(*entry, now) + 1.0;
    entry->at = now;
    return entry->score;
  }
  // True (and one spent) if an address asking again may make room now: at most kEvictionsPerSecond, in
  // bursts of kEvictionBurst. An address's first request in a while is not limited (an honest join).
  bool TakeEviction(Micros now) {
    const double seconds = std::chrono::duration<double>(now - evictions_at_).count();
    if (seconds > 0.0) {
      evictions_ = std::min(kEvictionBurst, evictions_ + seconds * kEvictionsPerSecond);
      evictions_at_ = now;
    }
    if (evictions_ < 1.0) return false;
    evictions_ -= 1.0;
    return true;
  }
  // The score of `host` at `now` (0 if it is not tracked).
  double Score(enet_uint32 host, Micros now) const {
    if (entries_.empty()) return 0.0;
    const std::size_t home = Home(host);
    for (std::size_t i = 0; i < kProbes; ++i) {
      const Entry& entry = entries_[(home + i) & kMask];
      if (entry.host == host && entry.score > 0.0) return Decayed(entry, now);
    }
    return 0.0;
  }

 private:
  // 384 kB, taken at the first request: twice ten times issue 44's 800 flooding addresses.
  static constexpr std::size_t kEntries = 16384;
  static constexpr std::size_t kMask = kEntries - 1;
  static constexpr int kHashShift = 18;  // 32 - log2(kEntries)
  static_assert(std::size_t{1} << (32 - kHashShift) == kEntries);
  static constexpr std::size_t kProbes = 8;
  static constexpr double kHalfLifeSeconds = 4.0;
  // A score this small frees its entry (about 17 s after one request).
  static constexpr double kForgotten = 0.05;

  static constexpr double kEvictionsPerSecond = 1000.0;
  static constexpr double kEvictionBurst = 64.0;

  struct Entry {
    enet_uint32 host = 0;
    double score = 0.0;  // 0: free
    Micros at{0};
  };

  static double Decayed(const Entry& entry, Micros now) {
    if (now <= entry.at) return entry.score;
    const double seconds = std::chrono::duration<double>(now - entry.at).count();
    return entry.score * std::exp2(-seconds / kHalfLifeSeconds);
  }
  // Multiplicative hashing, high bits: every byte of the address counts.
  static std::size_t Home(enet_uint32 host) {
    return static_cast<std::uint32_t>(host * 0x9E3779B1U) >> kHashShift;
  }

  Entry* Find(enet_uint32 host, Micros now) {
    if (entries_.empty()) entries_.resize(kEntries);
    const std::size_t home = Home(host);
    Entry* free = nullptr;
    for (std::size_t i = 0; i < kProbes; ++i) {
      Entry& entry = entries_[(home + i) & kMask];
      if (entry.host == host && entry.score > 0.0) return &entry;
      if (free == nullptr && (entry.score == 0.0 || Decayed(entry, now) < kForgotten)) free = &entry;
    }
    if (free != nullptr) *free = Entry{host, 0.0, now};
    return free;
  }

  std::vector<Entry> entries_;
  double evictions_ = kEvictionBurst;
  Micros evictions_at_{0};
};

}  // namespace netcube::transport
