#include "datagram_filter.h"

#include <enet/enet.h>

#include <array>
#include <optional>

namespace netcube::transport {
namespace {

// A reliable command this far or further ahead of what the channel expects next is refused: ENet would
// park it (and its data) until the gap fills, and accepts up to seven 4096-command windows ahead. Our
// senders never have that much reliable traffic in flight.
constexpr std::uint16_t kMaxReliableAhead = 4096;
// A sequence number half the 16-bit space or more "ahead" of another is behind it.
constexpr std::uint16_t kHalfSequenceSpace = 0x8000;

std::uint16_t ReadU16(std::span<const std::uint8_t> bytes, std::size_t at) {
  return static_cast<std::uint16_t>(bytes[at] << 8 | bytes[at + 1]);
}

std::uint32_t ReadU32(std::span<const std::uint8_t> bytes, std::size_t at) {
  return static_cast<std::uint32_t>(ReadU16(bytes, at)) << 16 | ReadU16(bytes, at + 2);
}

// The offsets inside ENet's packed command structs, after the 4-byte command header.
constexpr std::size_t kSendReliableLength = 4;    // ENetProtocolSendReliable::dataLength
constexpr std::size_t kSendUnreliableLength = 6;  // ...SendUnreliable and ...SendUnsequenced::dataLength
constexpr std::size_t kFragmentStart = 4;         // ENetProtocolSendFragment::startSequenceNumber
constexpr std::size_t kFragmentLength = 6;
constexpr std::size_t kFragmentCount = 8;
constexpr std::size_t kFragmentNumber = 12;
constexpr std::size_t kFragmentTotal = 16;
constexpr std::size_t kFragmentOffset = 20;

// The peer a datagram is for, as ENet itself will find it; null for connection requests and strays.
const ENetPeer* TargetPeer(const ENetHost& host, std::uint16_t peer_id) {
  if (peer_id >= host.peerCount) return nullptr;
  const ENetPeer& peer = host.peers[peer_id];
  if (peer.state == ENET_PEER_STATE_DISCONNECTED || peer.state == ENET_PEER_STATE_ZOMBIE) return nullptr;
  if (peer.address.host != host.receivedAddress.host || peer.address.port != host.receivedAddress.port) {
    return nullptr;  // ENet drops it: not the peer's address
  }
  return peer.channels == nullptr ? nullptr : &peer;
}

bool IsFragment(const ENetIncomingCommand& command) {
  const auto type = command.command.header.command & ENET_PROTOCOL_COMMAND_MASK;
  return type == ENET_PROTOCOL_COMMAND_SEND_FRAGMENT ||
         type == ENET_PROTOCOL_COMMAND_SEND_UNRELIABLE_FRAGMENT;
}

// Counts the peer's incomplete reassemblies and whether one of them is (channel, start): the message a
// fragment belongs to, whose reassembly ENet already paid for.
struct Reassemblies {
  std::size_t open = 0;
  bool includes_start = false;
};

void CountIn(const ENetList& list, bool reliable, bool same_channel, std::uint16_t start, Reassemblies& out) {
  for (const ENetListNode* node = list.sentinel.next; node != &list.sentinel; node = node->next) {
    const auto& command = *reinterpret_cast<const ENetIncomingCommand*>(node);
    if (!IsFragment(command) || command.fragmentsRemaining == 0) continue;
    ++out.open;
    const std::uint16_t its_start =
        reliable ? command.reliableSequenceNumber : command.unreliableSequenceNumber;
    if (same_channel && its_start == start) out.includes_start = true;
  }
}

Reassemblies OpenReassemblies(const ENetPeer& peer, std::uint8_t channel_id, bool reliable,
                              std::uint16_t start) {
  Reassemblies out;
  for (std::size_t c = 0; c < peer.channelCount; ++c) {
    const ENetChannel& channel = peer.channels[c];
    CountIn(channel.incomingReliableCommands, true, reliable && c == channel_id, start, out);
    CountIn(channel.incomingUnreliableCommands, false, !reliable && c == channel_id, start, out);
  }
  return out;
}

// True when the command's reliable sequence number lies far ahead of what its channel expects next.
bool TooFarAhead(const ENetPeer& peer, std::uint8_t channel_id, std::uint16_t reliable_seq) {
  if (channel_id >= peer.channelCount) return false;  // ENet refuses it itself
  const auto ahead =
      static_cast<std::uint16_t>(reliable_seq - peer.channels[channel_id].incomingReliableSequenceNumber);
  // Half the sequence space or more "ahead" is behind: a duplicate, which ENet acknowledges and discards.
  return ahead >= kMaxReliableAhead && ahead < kHalfSequenceSpace;
}

std::size_t CountNodes(const ENetList& list) {
  std::size_t count = 0;
  for (const ENetListNode* node = list.sentinel.next; node != &list.sentinel; node = node->next) ++count;
  return count;
}

// What ENet holds back for the peer: the commands in its channels' incoming lists. A delivered command
// leaves them at once; the rest wait for a reliable number still to come (sequenced ones), for whatever
// waits before them (unsequenced ones) or for their other fragments.
std::size_t ParkedCommands(const ENetPeer& peer) {
  std::size_t parked = 0;
  for (std::size_t c = 0; c < peer.channelCount; ++c) {
    parked += CountNodes(peer.channels[c].incomingReliableCommands);
    parked += CountNodes(peer.channels[c].incomingUnreliableCommands);
  }
  return parked;
}

// Follows a datagram's commands through the peer's channels as ENet will process them, in order, and
// counts the commands ENet will have parked for the peer after each. It never counts fewer than ENet
// parks; it may count more (a reliable command that releases others parked behind a gap is taken to
// release none).
class ParkingForecast {
 public:
  explicit ParkingForecast(const ENetPeer& peer) : peer_(peer), parked_(ParkedCommands(peer)) {
    for (std::size_t c = 0; c < peer.channelCount; ++c) {
      delivered_[c] = peer.channels[c].incomingReliableSequenceNumber;
    }
  }

  std::size_t Note(std::uint8_t type, std::uint8_t channel, std::uint16_t reliable_seq) {
    if (channel >= peer_.channelCount) return parked_;  // ENet refuses it and the rest of the datagram
    const auto ahead = static_cast<std::uint16_t>(reliable_seq - delivered_[channel]);
    const bool beyond_next = ahead > 1 && ahead < kHalfSequenceSpace;
    switch (type) {
      case ENET_PROTOCOL_COMMAND_SEND_RELIABLE:
        if (ahead == 1) {
          delivered_[channel] = reliable_seq;
        } else if (beyond_next) {
          ++parked_;
        }
        break;
      case ENET_PROTOCOL_COMMAND_SEND_FRAGMENT:
        // A message's later fragments, or a start beyond a gap.
        if (beyond_next) ++parked_;
        break;
      case ENET_PROTOCOL_COMMAND_SEND_UNRELIABLE:
      case ENET_PROTOCOL_COMMAND_SEND_UNRELIABLE_FRAGMENT:
        // Delivered only once the channel has delivered the reliable number it names.
        if (ahead != 0 && ahead < kHalfSequenceSpace) ++parked_;
        break;
      case ENET_PROTOCOL_COMMAND_SEND_UNSEQUENCED:
        // Queued behind whatever the channel has parked, and dispatched with it; netcube sends none.
        ++parked_;
        break;
      default:
        break;
    }
    return parked_;
  }

 private:
  const ENetPeer& peer_;
  std::size_t parked_;
  // Per channel: the newest reliable number delivered, once the commands noted so far are processed.
  std::array<std::uint16_t, ENET_PROTOCOL_MAXIMUM_CHANNEL_COUNT> delivered_{};
};

}  // namespace

bool FragmentConsistent(const FragmentClaim& f, std::size_t max_message_bytes) noexcept {
  if (f.count == 0 || f.number >= f.count || f.length == 0 || f.total_length > max_message_bytes)
    return false;
  if (f.offset >= f.total_length || f.length > f.total_length - f.offset) return false;
  const std::uint32_t last = f.count - 1;
  if (f.number < last) {
    // Every fragment but the last has the sender's fragment size.
    const std::uint32_t count = (f.total_length + f.length - 1) / f.length;
    return count == f.count && f.offset == f.number * std::uint32_t{f.length};
  }
  // The last one ends the message, after `last` fragments of one size that it is not larger than.
  if (f.offset + f.length != f.total_length) return false;
  if (last == 0) return f.offset == 0;
  return f.offset % last == 0 && f.length <= f.offset / last;
}

namespace {

// A fragment command at `at`: one ENet could have made, and, for a known peer, no reassembly past the
// limit opened (`new_reassemblies` counts those this datagram opens). Its data's length in `data_length`.
bool AcceptFragment(const ENetPeer* peer, std::span<const std::uint8_t> datagram, std::size_t at,
                    std::uint8_t type, const FilterLimits& limits, std::size_t& new_reassemblies,
                    std::size_t& data_length) {
  const FragmentClaim fragment{
      ReadU32(datagram, at + kFragmentCount), ReadU32(datagram, at + kFragmentNumber),
      ReadU32(datagram, at + kFragmentTotal), ReadU32(datagram, at + kFragmentOffset),
      ReadU16(datagram, at + kFragmentLength)};
  if (!FragmentConsistent(fragment, limits.max_message_bytes)) return false;
  data_length = fragment.length;
  if (peer == nullptr) return true;
  const bool reliable = type == ENET_PROTOCOL_COMMAND_SEND_FRAGMENT;
  const Reassemblies open =
      OpenReassemblies(*peer, datagram[at + 1], reliable, ReadU16(datagram, at + kFragmentStart));
  if (open.includes_start) return true;
  if (open.open + new_reassemblies >= limits.max_open_reassemblies) return false;
  ++new_reassemblies;
  return true;
}

}  // namespace

bool AcceptDatagram(const ENetHost& host, std::span<const std::uint8_t> datagram,
                    const FilterLimits& limits) {
  if (datagram.size() < 2) return false;
  const std::uint16_t header = ReadU16(datagram, 0);
  // netcube never compresses: ENet could not read a compressed datagram anyway.
  if ((header & ENET_PROTOCOL_HEADER_FLAG_COMPRESSED) != 0) return false;
  std::size_t at = (header & ENET_PROTOCOL_HEADER_FLAG_SENT_TIME) != 0 ? 4 : 2;
  if (host.checksum != nullptr) at += sizeof(enet_uint32);
  const auto peer_id = static_cast<std::uint16_t>(
      header & ~(ENET_PROTOCOL_HEADER_FLAG_MASK | ENET_PROTOCOL_HEADER_SESSION_MASK));
  const ENetPeer* peer = TargetPeer(host, peer_id);
  std::size_t new_reassemblies = 0;
  std::optional<ParkingForecast> parking;
  if (peer != nullptr) parking.emplace(*peer);

  // Every byte must belong to a whole command, as ENet frames them: a real ENet sends nothing else.
  while (at < datagram.size()) {
    if (datagram.size() - at < sizeof(ENetProtocolCommandHeader)) return false;
    const std::uint8_t type = datagram[at] & ENET_PROTOCOL_COMMAND_MASK;
    if (type >= ENET_PROTOCOL_COMMAND_COUNT) return false;
    const std::size_t size = enet_protocol_command_size(type);
    if (size == 0 || datagram.size() - at < size) return false;
    const std::uint8_t channel = datagram[at + 1];
    const std::uint16_t reliable_seq = ReadU16(datagram, at + 2);
    std::size_t data_length = 0;
    bool sequenced = true;  // parked by ENet until the channel's reliable sequence reaches it
    switch (type) {
      case ENET_PROTOCOL_COMMAND_SEND_RELIABLE:
        data_length = ReadU16(datagram, at + kSendReliableLength);
        break;
      case ENET_PROTOCOL_COMMAND_SEND_UNRELIABLE:
        data_length = ReadU16(datagram, at + kSendUnreliableLength);
        break;
      case ENET_PROTOCOL_COMMAND_SEND_UNSEQUENCED:
        data_length = ReadU16(datagram, at + kSendUnreliableLength);
        sequenced = false;
        break;
      case ENET_PROTOCOL_COMMAND_SEND_FRAGMENT:
      case ENET_PROTOCOL_COMMAND_SEND_UNRELIABLE_FRAGMENT:
        if (!AcceptFragment(peer, datagram, at, type, limits, new_reassemblies, data_length)) return false;
        break;
      default:
        sequenced = false;  // protocol commands: nothing is parked
        break;
    }
    if (peer != nullptr && sequenced && TooFarAhead(*peer, channel, reliable_seq)) return false;
    if (parking && parking->Note(type, channel, reliable_seq) > limits.max_parked_commands) return false;
    if (datagram.size() - at - size < data_length) return false;
    at += size + data_length;
  }
  return true;
}

}  // namespace netcube::transport
