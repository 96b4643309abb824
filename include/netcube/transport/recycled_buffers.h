#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "netcube/protocol/channel.h"

namespace netcube::transport {

// Idle packet buffers kept for reuse in power-of-two size classes, 64 bytes up to the largest packet. A
// short reliable message waiting for its acknowledgement pins a small buffer, not room for the largest
// packet, and each class keeps at most kMaxIdle buffers: a burst (every player told of every join) hands
// its buffers back to the heap instead of holding them for ever, while steady traffic allocates nothing.
template <class Buffer>
class RecycledBuffers {
 public:
  static constexpr std::size_t kSmallestBytes = 64;
  static_assert(std::has_single_bit(protocol::kMaxPacketBytes) &&
                protocol::kMaxPacketBytes >= kSmallestBytes);
  static constexpr std::size_t kClasses = std::bit_width(protocol::kMaxPacketBytes / kSmallestBytes);
  static constexpr std::size_t kMaxIdle = 1024;

  static constexpr std::size_t ClassBytes(std::size_t size_class) { return kSmallestBytes << size_class; }

  // The class of the smallest buffer that holds `bytes`; none above the largest packet.
  static constexpr std::optional<std::size_t> ClassFor(std::size_t bytes) {
    if (bytes > protocol::kMaxPacketBytes) return std::nullopt;
    std::size_t size_class = 0;
    while (ClassBytes(size_class) < bytes) ++size_class;
    return size_class;
  }

  // The class a buffer of `capacity` bytes can serve: the largest no bigger than it; none if it is
  // smaller than the smallest class or larger than the largest packet (not worth keeping).
  static constexpr std::optional<std::size_t> ClassServedBy(std::size_t capacity) {
    if (capacity < kSmallestBytes || capacity > protocol::kMaxPacketBytes) return std::nullopt;
    return static_cast<std::size_t>(std::bit_width(capacity / kSmallestBytes)) - 1;
  }

  std::optional<Buffer> Take(std::size_t size_class) {
    std::vector<Buffer>& idle = idle_[size_class];
    if (idle.empty()) return std::nullopt;
    std::optional<Buffer> buffer(std::move(idle.back()));
    idle.pop_back();
    return buffer;
  }

  // Keeps `buffer` for reuse, or lets it go when its class already keeps kMaxIdle.
  void Give(std::size_t size_class, Buffer buffer) {
    std::vector<Buffer>& idle = idle_[size_class];
    if (idle.size() < kMaxIdle) idle.push_back(std::move(buffer));
  }

  std::size_t idle(std::size_t size_class) const { return idle_[size_class].size(); }

 private:
  std::array<std::vector<Buffer>, kClasses> idle_;
};

using SpareBytes = RecycledBuffers<std::vector<std::uint8_t>>;

// A copy of `bytes` in an idle vector of its size class, or in a new one with the whole class's room.
inline std::vector<std::uint8_t> CopyToSpare(SpareBytes& spare, std::span<const std::uint8_t> bytes) {
  std::vector<std::uint8_t> copy;
  if (const std::optional<std::size_t> size_class = SpareBytes::ClassFor(bytes.size())) {
    if (std::optional<std::vector<std::uint8_t>> idle = spare.Take(*size_class)) {
      copy = std::move(*idle);
    } else {
      copy.reserve(SpareBytes::ClassBytes(*size_class));
    }
  }
  copy.assign(bytes.begin(), bytes.end());
  return copy;
}

// Keeps `bytes`' buffer for CopyToSpare; an oversized one (hostile, or a test of one) is let go.
inline void GiveToSpare(SpareBytes& spare, std::vector<std::uint8_t>&& bytes) {
  if (const std::optional<std::size_t> size_class = SpareBytes::ClassServedBy(bytes.capacity())) {
    spare.Give(*size_class, std::move(bytes));
  }
}

}  // namespace netcube::transport
