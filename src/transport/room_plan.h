#pragma once
// MakeRoomFor's picture of a full peer table (enet_admission.cpp): per address, its unproven connections
// (handshakes never answered first, then oldest first) and how often it asked lately (ConnectMeter), and
// what each slot held when the picture was made. A CONNECT flood fills the table, and
// every further request must evict: the picture is made once per Service and kept as requests evict and
// take slots, so a request costs one check of the slots, not a recount of them all.
#include <enet/enet.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "netcube/transport/endpoint.h"

namespace netcube::transport {

class RoomPlan {
 public:
  // Starts a picture of `slot_count` slots, made during Service number `service` (from 1).
  void Begin(std::size_t slot_count, std::uint64_t service) {
    service_ = service;
    expected_.assign(slot_count, std::nullopt);
    for (std::size_t i = 0; i < used_queues_; ++i) queues_[i].Clear();
    used_queues_ = 0;
    const std::size_t size = std::bit_ceil(std::max<std::size_t>(2 * slot_count, 16));
    if (index_.size() != size) {
      index_.assign(size, IndexEntry{});
      shift_ = 32 - std::countr_zero(size);
    }
    ++generation_;
  }
  // The connection in `slot` when the picture was made; and whether it is unproven (a candidate): since
  // when, whether it answered ENet's handshake, and how often its address asked lately.
  void Occupied(std::size_t slot, enet_uint32 connect_id) { expected_[slot] = connect_id; }
  void AddUnproven(enet_uint32 host, std::size_t slot, Micros since, bool answered, double score) {
    Queue& queue = QueueOf(host);
    queue.Insert({answered, since, slot});
    queue.score = score;
  }
  // The picture is of this Service, and the slot holds what it says.
  bool MadeIn(std::uint64_t service) const { return service_ == service; }
  bool Holds(std::size_t slot, const ENetPeer& peer) const {
    return expected_[slot] && peer.state != ENET_PEER_STATE_DISCONNECTED &&
           peer.connectID == *expected_[slot];
  }

  // The slot to reset: of the address holding the most; then of one that asked more than once lately;
  // then a handshake never answered before a connection that answered (its address is real); then of the
  // address asking the most, the oldest (then the lowest slot). Taken out of the picture, which expects the
  // request it makes room for (from `new_host`, whose score is `new_score`) to take it.
  std::optional<std::size_t> TakeVictim(enet_uint32 new_host, enet_uint32 new_connect_id, Micros now,
                                        double new_score) {
    Queue* victim = nullptr;
    for (std::size_t i = 0; i < used_queues_; ++i) {
      Queue& queue = queues_[i];
      if (!queue.empty() && (victim == nullptr || queue.Before(*victim))) victim = &queue;
    }
    if (victim == nullptr) return std::nullopt;
    const std::size_t slot = victim->PopFront().slot;
    expected_[slot] = new_connect_id;  // ENet gives a request the first free slot: the only one
    Queue& taker = QueueOf(new_host);
    taker.Insert({false, now, slot});
    taker.score = new_score;
    if (2 * used_queues_ >= index_.size()) service_ = 0;  // the index half full: made again next time
    return slot;
  }

 private:
  struct Candidate {
    bool answered = false;
    Micros since{0};
    std::size_t slot = 0;
    bool operator<(const Candidate& other) const {
      if (answered != other.answered) return !answered;
      return since != other.since ? since < other.since : slot < other.slot;
    }
  };
  // One address's candidates, the first to go first; taken from the front.
  class Queue {
   public:
    double score = 0.0;  // its address's ConnectMeter score

    void Clear() {
      candidates_.clear();
      head_ = 0;
      score = 0.0;
    }
    // Its front goes before `other`'s.
    bool Before(const Queue& other) const {
      if (size() != other.size()) return size() > other.size();
      if (AsksAgain() != other.AsksAgain()) return AsksAgain();
      if (front().answered != other.front().answered) return !front().answered;
      if (score != other.score) return score > other.score;
      return front() < other.front();
    }
    // Its address asked more than once lately (an honest join asks once).
    bool AsksAgain() const { return score >= 2.0; }
    bool empty() const { return head_ == candidates_.size(); }
    std::size_t size() const { return candidates_.size() - head_; }
    const Candidate& front() const { return candidates_[head_]; }
    Candidate PopFront() { return candidates_[head_++]; }
    void Insert(const Candidate& candidate) {
      candidates_.insert(std::upper_bound(candidates_.begin() + static_cast<std::ptrdiff_t>(head_),
                                          candidates_.end(), candidate),
                         candidate);
    }

   private:
    std::vector<Candidate> candidates_;
    std::size_t head_ = 0;
  };
  struct IndexEntry {
    enet_uint32 host = 0;
    std::uint64_t generation = 0;
    std::size_t queue = 0;
  };

  // Open addressing in a power-of-two table of at least twice the slots, emptied by a generation stamp: no
  // allocation once warm. Multiplicative hashing, high bits: every byte of the address counts (its last
  // octet is its high byte).
  Queue& QueueOf(enet_uint32 host) {
    const std::size_t mask = index_.size() - 1;
    for (std::size_t i = static_cast<std::uint32_t>(host * 0x9E3779B1U) >> shift_;; i = (i + 1) & mask) {
      IndexEntry& entry = index_[i];
      if (entry.generation != generation_) {
        if (used_queues_ == queues_.size()) queues_.emplace_back();
        entry = {host, generation_, used_queues_++};
        return queues_[entry.queue];
      }
      if (entry.host == host) return queues_[entry.queue];
    }
  }

  std::uint64_t service_ = 0;
  std::vector<std::optional<enet_uint32>> expected_;
  std::vector<Queue> queues_;
  std::size_t used_queues_ = 0;
  std::vector<IndexEntry> index_;
  int shift_ = 32;
  std::uint64_t generation_ = 0;
};

}  // namespace netcube::transport
