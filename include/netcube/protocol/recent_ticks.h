#pragma once
// A set of snapshot ticks within 64 of the newest ever put in it, a bit a tick: the snapshots a client
// received and has not told the server of yet, and on the server the ones each client told of. Telling
// covers kHeldBaselines (64) ticks: a delta's baseline is at most that old, and no newer than the newest
// told, so every tick it may name fits.
#include <bit>
#include <cstdint>
#include <optional>

namespace netcube::protocol {

class RecentTicks {
 public:
  static constexpr std::uint64_t kSpan = 64;

  // Adds `tick`; one more than kSpan - 1 older than the newest is forgotten.
  void Insert(std::uint64_t tick) noexcept {
    if (!any_ || tick > newest_) {
      const std::uint64_t shift = any_ ? tick - newest_ : kSpan;
      bits_ = (shift >= kSpan ? 0 : bits_ << shift) | 1u;
      newest_ = tick;
      any_ = true;
    } else if (newest_ - tick < kSpan) {
      bits_ |= std::uint64_t{1} << (newest_ - tick);
    }
  }
  void Erase(std::uint64_t tick) noexcept {
    if (any_ && tick <= newest_ && newest_ - tick < kSpan) bits_ &= ~(std::uint64_t{1} << (newest_ - tick));
  }
  bool Contains(std::uint64_t tick) const noexcept {
    return any_ && tick <= newest_ && newest_ - tick < kSpan && ((bits_ >> (newest_ - tick)) & 1u) != 0;
  }
  // The newest tick ever added (erased or not).
  std::optional<std::uint64_t> newest() const noexcept {
    return any_ ? std::optional<std::uint64_t>(newest_) : std::nullopt;
  }
  // The newest tick in the set.
  std::optional<std::uint64_t> NewestHeld() const noexcept {
    return bits_ != 0
               ? std::optional<std::uint64_t>(newest_ - static_cast<std::uint64_t>(std::countr_zero(bits_)))
               : std::nullopt;
  }

 private:
  bool any_ = false;
  std::uint64_t newest_ = 0;
  std::uint64_t bits_ = 0;  // bit k: newest_ - k is in the set
};

}  // namespace netcube::protocol
