#pragma once
// The input format of the server receive-path fuzz target (server_fuzzer.cpp), shared with the corpus
// writer. An input is a script of transport events for one fresh server, read front to back:
//
//   op % 4 == 0  connect      a new peer connects (ids 1, 2, ...; at most kMaxPeers per input)
//   op % 4 == 1  packet       peer (1 byte: index among the peers so far), channel (1 byte: low bit),
//                             length (2 bytes, little endian; at most kMaxPacketLength), the bytes
//   op % 4 == 2  advance      milliseconds (1 byte): time moves on and Server::Update runs (ticks,
//                             snapshots, the pending and challenged peers' timeouts)
//   op % 4 == 3  disconnect   peer (1 byte: index), timed out (1 byte: low bit)
//
// A truncated operation ends the script. Packets may come from a peer before its ConnectRequest, after
// it, or from a peer that has left (which the transport never delivers, and the server must ignore).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "netcube/protocol/messages.h"

namespace netcube::fuzz {

// kInterest turns interest management on (its byte odd) or off: with it, the players a client is told of
// follow its relevant set (names by set), and turning it off tells everyone of everyone.
enum class ServerOp : std::uint8_t {
  kConnect = 0,
  kPacket = 1,
  kAdvance = 2,
  kDisconnect = 3,
  kInterest = 4
};
inline constexpr int kServerOpCount = 5;
inline constexpr std::size_t kMaxPeers = 6;
// Every Challenge of the fuzzed server carries this nonce, so that a script can answer it (and the fuzzer
// find it: libFuzzer learns the constants the code compares with).
inline constexpr std::uint64_t kFuzzNonce = 0x6E6F6E6365213132;
// Beyond kMaxPacketBytes, so the decoder's size limit is reached too.
inline constexpr std::size_t kMaxPacketLength = protocol::kMaxPacketBytes + 64;

// Builds scripts for the seed corpus.
class ServerScriptWriter {
 public:
  void Connect() { bytes_.push_back(static_cast<std::uint8_t>(ServerOp::kConnect)); }
  void Packet(std::uint8_t peer, protocol::Channel channel, std::span<const std::uint8_t> payload) {
    bytes_.push_back(static_cast<std::uint8_t>(ServerOp::kPacket));
    bytes_.push_back(peer);
    bytes_.push_back(static_cast<std::uint8_t>(channel));
    bytes_.push_back(static_cast<std::uint8_t>(payload.size() & 0xFF));
    bytes_.push_back(static_cast<std::uint8_t>(payload.size() >> 8));
    bytes_.insert(bytes_.end(), payload.begin(), payload.end());
  }
  // A valid message on its own channel.
  void Message(std::uint8_t peer, const protocol::Message& message) {
    std::vector<std::uint8_t> payload(protocol::kMaxPacketBytes);
    payload.resize(protocol::Encode(message, payload));
    Packet(peer, protocol::ChannelOf(protocol::TypeOf(message)), payload);
  }
  void Advance(std::uint8_t milliseconds) {
    bytes_.push_back(static_cast<std::uint8_t>(ServerOp::kAdvance));
    bytes_.push_back(milliseconds);
  }
  void Disconnect(std::uint8_t peer, bool timed_out) {
    bytes_.push_back(static_cast<std::uint8_t>(ServerOp::kDisconnect));
    bytes_.push_back(peer);
    bytes_.push_back(timed_out ? 1 : 0);
  }
  void Interest(bool on) {
    bytes_.push_back(static_cast<std::uint8_t>(ServerOp::kInterest));
    bytes_.push_back(on ? 1 : 0);
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<std::uint8_t> bytes_;
};

}  // namespace netcube::fuzz
