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

}  // namespace

LinkConditioner::LinkConditioner(std::uint64_t seed) : rng_state_(seed) {}

void LinkConditioner::SetSettings(const LinkSettings& settings) {
  settings_.latency_ms = NonNegativeMs(settings.latency_ms);
  settings_.jitter_ms = NonNegativeMs(settings.jitter_ms);
  settings_.loss = Probability(settings.loss);
  settings_.duplicate = Probability(settings.duplicate);
  settings_.reorder = Probability(settings.reorder);
}

bool LinkConditioner::IsActive() const {
  return !queue_.empty() || settings_.latency_ms > 0.0 || settings_.jitter_ms > 0.0 || settings_.loss > 0.0 ||
         settings_.duplicate > 0.0 || settings_.reorder > 0.0;
}

void LinkConditioner::CountPassedThrough() {
  ++counters_.pushed;
  ++counters_.delivered;
}

void LinkConditioner::Push(Micros now, std::uint32_t peer, std::uint8_t channel, bool reliable,
                           std::span<const std::uint8_t> bytes) {
  ++counters_.pushed;
  if (reliable) {
    Micros deliver_at = now + DrawDelay();
    const auto [tail, inserted] = reliable_tail_.try_emplace(peer, deliver_at);
    if (!inserted) {
      deliver_at = std::max(deliver_at, tail->second);
      tail->second = deliver_at;
    }
    Enqueue(deliver_at, NewPacket(peer, channel, reliable, bytes));
    return;
  }
  if (Chance(settings_.loss)) {
    ++counters_.dropped;
    return;
  }
  Micros deliver_at = now + DrawDelay();
  if (Chance(settings_.reorder)) {
    ++counters_.reordered;
    deliver_at += FromMilliseconds(kReorderHoldMs + 2.0 * settings_.jitter_ms);
  }
  if (Chance(settings_.duplicate)) {
    ++counters_.duplicated;
    Enqueue(now + DrawDelay(), NewPacket(peer, channel, reliable, bytes));
  }
  Enqueue(deliver_at, NewPacket(peer, channel, reliable, bytes));
}

ConditionedPacket LinkConditioner::NewPacket(std::uint32_t peer, std::uint8_t channel, bool reliable,
                                             std::span<const std::uint8_t> bytes) {
  ConditionedPacket packet{peer, channel, reliable, {}};
  using Spare = decltype(spare_);
  if (const std::optional<std::size_t> size_class = Spare::ClassFor(bytes.size())) {
    if (std::optional<std::vector<std::uint8_t>> spare = spare_.Take(*size_class)) {
      packet.data = std::move(*spare);
    } else {
      packet.data.reserve(Spare::ClassBytes(*size_class));
    }
  }
  packet.data.assign(bytes.begin(), bytes.end());
  return packet;
}

void LinkConditioner::RecycleDelivered() {
  for (ConditionedPacket& packet : delivered_) {
    // An oversized packet (hostile, or a test of one) does not keep its large buffer.
    if (const auto size_class = decltype(spare_)::ClassServedBy(packet.data.capacity())) {
      spare_.Give(*size_class, std::move(packet.data));
    }
  }
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

// splitmix64 (Steele, Lea, Flood 2014): one 64-bit word of state, full period, good enough statistics for
// a network simulator, and bit-identical everywhere.
double LinkConditioner::NextUnit() {
  rng_state_ += 0x9E3779B97F4A7C15ULL;
  std::uint64_t z = rng_state_;
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  z ^= z >> 31U;
  // The top 53 bits, exactly representable: a double uniform in [0, 1).
  return static_cast<double>(z >> 11U) * 0x1.0p-53;
}

// Zero and one draw nothing, so a setting that is off leaves the random sequence of the others alone.
bool LinkConditioner::Chance(double probability) {
  if (probability <= 0.0) return false;
  if (probability >= 1.0) return true;
  return NextUnit() < probability;
}

Micros LinkConditioner::DrawDelay() {
  double delay_ms = settings_.latency_ms;
  if (settings_.jitter_ms > 0.0) delay_ms += settings_.jitter_ms * (2.0 * NextUnit() - 1.0);
  return FromMilliseconds(std::max(delay_ms, 0.0));
}

void LinkConditioner::Enqueue(Micros deliver_at, ConditionedPacket packet) {
  queue_.push_back(Entry{deliver_at, next_push_order_++, std::move(packet)});
  std::push_heap(queue_.begin(), queue_.end(), DeliveredAfter);
}

}  // namespace netcube::transport
