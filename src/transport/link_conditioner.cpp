#include "netcube/transport/link_conditioner.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "netcube/protocol/channel.h"

namespace netcube::transport {
namespace {

double NonNegativeMs(double ms) { return std::isfinite(ms) && ms > 0.0 ? ms : 0.0; }
double Probability(double p) { return std::isnan(p) ? 0.0 : std::clamp(p, 0.0, 1.0); }

Micros FromMilliseconds(double ms) { return Micros(std::llround(ms * 1000.0)); }

// splitmix64's finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix with good avalanche, so hashing
// the inputs of a draw gives numbers as good as the generator's stream, and bit-identical everywhere.
std::uint64_t Mix(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31U);
}

}  // namespace

LinkConditioner::LinkConditioner(std::uint64_t seed) : seed_(seed) {}

void LinkConditioner::SetSettings(const LinkSettings& settings) {
  settings_.latency_ms = NonNegativeMs(settings.latency_ms);
  settings_.jitter_ms = NonNegativeMs(settings.jitter_ms);
  settings_.loss = Probability(settings.loss);
  settings_.duplicate = Probability(settings.duplicate);
  settings_.reorder = Probability(settings.reorder);
}

bool LinkConditioner::IsActive() const {
  return !queue_.empty() || log_ || settings_.latency_ms > 0.0 || settings_.jitter_ms > 0.0 ||
         settings_.loss > 0.0 || settings_.duplicate > 0.0 || settings_.reorder > 0.0;
}

void LinkConditioner::CountPassedThrough() {
  ++counters_.pushed;
  ++counters_.delivered;
}

void LinkConditioner::Push(Micros now, std::uint32_t peer, std::uint8_t channel, bool reliable,
                           std::span<const std::uint8_t> bytes) {
  ++counters_.pushed;
  const std::uint64_t key = KeyFor(now, peer, channel);
  LinkDecision decision{now, peer, channel, reliable};
  if (reliable) {
    Micros deliver_at = now + DrawDelay(key, Draw::kDelay);
    const auto [tail, inserted] = reliable_tail_.try_emplace(peer, deliver_at);
    if (!inserted) {
      deliver_at = std::max(deliver_at, tail->second);
      tail->second = deliver_at;
    }
    decision.delay = deliver_at - now;
    Enqueue(deliver_at, NewPacket(peer, channel, reliable, bytes));
  } else if (Chance(key, Draw::kLoss, settings_.loss)) {
    ++counters_.dropped;
    decision.dropped = true;
  } else {
    Micros deliver_at = now + DrawDelay(key, Draw::kDelay);
    if (Chance(key, Draw::kReorder, settings_.reorder)) {
      ++counters_.reordered;
      decision.reordered = true;
      deliver_at += FromMilliseconds(kReorderHoldMs + 2.0 * settings_.jitter_ms);
    }
    if (Chance(key, Draw::kDuplicate, settings_.duplicate)) {
      ++counters_.duplicated;
      decision.duplicated = true;
      Enqueue(now + DrawDelay(key, Draw::kDuplicateDelay), NewPacket(peer, channel, reliable, bytes));
    }
    decision.delay = deliver_at - now;
    Enqueue(deliver_at, NewPacket(peer, channel, reliable, bytes));
  }
  if (log_) log_(decision);
}

ConditionedPacket LinkConditioner::NewPacket(std::uint32_t peer, std::uint8_t channel, bool reliable,
                                             std::span<const std::uint8_t> bytes) {
  return ConditionedPacket{peer, channel, reliable, CopyToSpare(spare_, bytes)};
}

void LinkConditioner::RecycleDelivered() {
  for (ConditionedPacket& packet : delivered_) GiveToSpare(spare_, std::move(packet.data));
  delivered_.clear();
}

const ConditionedPacket& LinkConditioner::PopDue() {
  std::pop_heap(queue_.begin(), queue_.end(), DeliveredAfter);
  delivered_.push_back(std::move(queue_.back().packet));
  queue_.pop_back();
  ++counters_.delivered;
  return delivered_.back();
}

void LinkConditioner::ForgetPastTails(Micros now) {
  // A tail at or before now constrains nothing: every later push is delivered at now or after anyway.
  std::erase_if(reliable_tail_, [now](const auto& tail) { return tail.second <= now; });
}

std::size_t LinkConditioner::in_flight() const { return queue_.size(); }

bool LinkConditioner::DeliveredAfter(const Entry& a, const Entry& b) {
  if (a.deliver_at != b.deliver_at) return a.deliver_at > b.deliver_at;
  return a.push_order > b.push_order;
}

std::uint64_t LinkConditioner::KeyFor(Micros now, std::uint32_t peer, std::uint8_t channel) {
  if (now != rank_time_) {
    rank_time_ = now;
    ranks_.clear();
  }
  auto rank = std::find_if(ranks_.begin(), ranks_.end(),
                           [peer, channel](const Rank& r) { return r.peer == peer && r.channel == channel; });
  if (rank == ranks_.end()) rank = ranks_.insert(ranks_.end(), Rank{peer, channel, 0});
  // The peer is left out of the key: each peer's traffic at a moment meets the same network.
  return Mix(Mix(Mix(seed_) ^ static_cast<std::uint64_t>(now.count())) ^
             (std::uint64_t{channel} << 32U | rank->next++));
}

double LinkConditioner::Unit(std::uint64_t key, Draw draw) const {
  // The top 53 bits, exactly representable: a double uniform in [0, 1).
  return static_cast<double>(Mix(key ^ static_cast<std::uint64_t>(draw)) >> 11U) * 0x1.0p-53;
}

// Zero and one draw nothing.
bool LinkConditioner::Chance(std::uint64_t key, Draw draw, double probability) const {
  if (probability <= 0.0) return false;
  if (probability >= 1.0) return true;
  return Unit(key, draw) < probability;
}

Micros LinkConditioner::DrawDelay(std::uint64_t key, Draw draw) const {
  double delay_ms = settings_.latency_ms;
  if (settings_.jitter_ms > 0.0) delay_ms += settings_.jitter_ms * (2.0 * Unit(key, draw) - 1.0);
  return FromMilliseconds(std::max(delay_ms, 0.0));
}

void LinkConditioner::Enqueue(Micros deliver_at, ConditionedPacket packet) {
  queue_.push_back(Entry{deliver_at, next_push_order_++, std::move(packet)});
  std::push_heap(queue_.begin(), queue_.end(), DeliveredAfter);
}

}  // namespace netcube::transport
