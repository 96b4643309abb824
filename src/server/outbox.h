#pragma once
// The one way a message leaves the server: encoded into one reused buffer, carried as bytes by the
// transport, and counted for the client it goes to. The rooms are handed it to say what to send (as the
// client's OwnCube is handed its send callback); none calls the server back.
#include <array>
#include <cassert>
#include <cstdint>
#include <span>

#include "netcube/protocol/messages.h"
#include "netcube/transport/host.h"

namespace netcube::server {

class Outbox {
 public:
  explicit Outbox(transport::Host& host) noexcept : host_(host) {}

  // `bytes_sent`, when not null, counts the payload (a client's own total).
  template <protocol::OneMessage M>
  void Send(Micros now, transport::PeerId peer, std::uint64_t* bytes_sent, const M& message) {
    const std::span<const std::uint8_t> packet = Encode(message);
    if (!packet.empty()) SendPacket(now, peer, bytes_sent, protocol::ChannelOf(protocol::kTypeOf<M>), packet);
  }

  // The message's bytes, valid until the next Encode or Send (for one message to many peers).
  template <protocol::OneMessage M>
  std::span<const std::uint8_t> Encode(const M& message) {
    const std::size_t size = protocol::Encode(message, buffer_);
    assert(size > 0 && "every message the server builds is encodable");
    return {buffer_.data(), size};
  }

  void SendPacket(Micros now, transport::PeerId peer, std::uint64_t* bytes_sent, protocol::Channel channel,
                  std::span<const std::uint8_t> packet) {
    host_.Send(now, peer, channel, packet);
    if (bytes_sent != nullptr) *bytes_sent += packet.size();
  }

 private:
  transport::Host& host_;
  std::array<std::uint8_t, protocol::kMaxPacketBytes> buffer_{};
};

}  // namespace netcube::server
