#pragma once
// The little of the protocol the transport needs: its channels and the largest valid packet. The transport
// carries bytes on a channel and knows no message.
#include <cstddef>
#include <cstdint>

namespace netcube::protocol {

inline constexpr std::size_t kMaxPacketBytes = 4096;  // larger than any valid message

// ENet channels: control messages must arrive, in order; state goes unreliable and newest-wins.
enum class Channel : std::uint8_t { kReliable = 0, kUnreliable = 1 };
inline constexpr std::size_t kChannelCount = 2;

}  // namespace netcube::protocol
