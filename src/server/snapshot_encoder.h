#pragma once
// One snapshot, encoded once for every receiver. Receivers differ only in their ack, which the protocol
// puts last on the wire (a has-ack bit, then 16 bits of sequence), so each receiver's packet is the shared
// encoding with those 16 bits overwritten: a copy-free patch instead of a full encode per client.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "netcube/protocol/messages.h"

namespace netcube::server {

class SnapshotEncoder {
 public:
  // Encodes `snapshot` (its has_ack and ack are ignored). False if it cannot be encoded.
  bool Prepare(const protocol::Snapshot& snapshot) noexcept;
  // The packet for a receiver whose ack is `ack` (empty = none yet). Valid until the next call.
  std::span<const std::uint8_t> PacketFor(std::optional<sim::Seq> ack) noexcept;

 private:
  std::array<std::uint8_t, protocol::kMaxPacketBytes> without_ack_{};
  std::array<std::uint8_t, protocol::kMaxPacketBytes> with_ack_{};
  std::size_t without_ack_size_ = 0;
  std::size_t with_ack_size_ = 0;
  std::size_t ack_first_bit_ = 0;  // bit index, most significant bit of byte 0 first
};

}  // namespace netcube::server
