#include "netcube/protocol/discovery.h"

#include "snapshot_wire.h"

namespace netcube::protocol {
namespace {

template <class Stream>
bool SerializeMagic(Stream& stream, std::uint32_t magic) noexcept {
  std::uint32_t value = magic;
  return SerializeUnsigned(stream, value) && value == magic;
}

template <class Stream>
bool Serialize(Stream& stream, DiscoveryQuery& m) noexcept {
  if (!SerializeMagic(stream, kDiscoveryQueryMagic) || !SerializeUnsigned(stream, m.version) ||
      !SerializeUnsigned(stream, m.client_time_us)) {
    return false;
  }
  // The padding: zero bytes up to kDiscoveryQueryBytes. It is what makes a reply no larger than its query.
  constexpr std::size_t kFieldBytes = 10;
  for (std::size_t i = kFieldBytes; i < kDiscoveryQueryBytes; ++i) {
    std::uint32_t zero = 0;
    if (!stream.Bits(zero, 8) || zero != 0) return false;
  }
  return true;
}

template <class Stream>
bool Serialize(Stream& stream, DiscoveryReply& m) {
  if (!SerializeMagic(stream, kDiscoveryReplyMagic) || !SerializeUnsigned(stream, m.version) ||
      !SerializeUnsigned(stream, m.client_time_us) || !SerializeUnsigned(stream, m.address) ||
      !SerializeUnsigned(stream, m.port) || m.port == 0 || !SerializeInt(stream, m.players, 0, kMaxPlayers) ||
      !SerializeInt(stream, m.max_players, 1, kMaxPlayers) || m.players > m.max_players ||
      !SerializeInt(stream, m.tick_rate, 1, kMaxRate) ||
      !SerializeInt(stream, m.snapshot_rate, 1, kMaxRate) ||
      !SerializeInt(stream, m.max_snapshot_rate, 1, kMaxRate) ||
      !snapshot_wire::SerializeArena(stream, m.arena)) {
    return false;
  }
  return SerializeText(stream, m.name, kMaxServerNameLength) && !m.name.empty();
}

template <class T>
std::size_t EncodeOne(const T& message, std::span<std::uint8_t> out) noexcept {
  BitWriter writer(out);
  // Serialize takes the message by reference for the reader's sake; the writer only reads it.
  if (!Serialize(writer, const_cast<T&>(message))) return 0;
  return writer.BytesWritten();
}

template <class T>
DecodeError DecodeOne(std::span<const std::uint8_t> datagram, T& out) noexcept {
  if (datagram.empty()) return DecodeError::kEmpty;
  if (datagram.size() > kDiscoveryQueryBytes) return DecodeError::kTooLarge;
  BitReader reader(datagram);
  T message;
  if (!Serialize(reader, message)) return DecodeError::kMalformed;
  if (!reader.AtCleanEnd()) return DecodeError::kTrailingData;
  out = std::move(message);
  return DecodeError::kNone;
}

}  // namespace

std::size_t EncodeDiscoveryQuery(const DiscoveryQuery& query, std::span<std::uint8_t> out) noexcept {
  return EncodeOne(query, out);
}

std::size_t EncodeDiscoveryReply(const DiscoveryReply& reply, std::span<std::uint8_t> out) noexcept {
  return EncodeOne(reply, out);
}

std::size_t MeasureDiscoveryReply(const DiscoveryReply& reply) noexcept {
  BitMeasurer measurer;
  if (!Serialize(measurer, const_cast<DiscoveryReply&>(reply))) return 0;
  return measurer.Bytes();
}

DecodeError DecodeDiscoveryQuery(std::span<const std::uint8_t> datagram, DiscoveryQuery& out) noexcept {
  return DecodeOne(datagram, out);
}

DecodeError DecodeDiscoveryReply(std::span<const std::uint8_t> datagram, DiscoveryReply& out) noexcept {
  return DecodeOne(datagram, out);
}

}  // namespace netcube::protocol
