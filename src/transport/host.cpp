#include "netcube/transport/host.h"

#include <enet/enet.h>

#include "datagram_filter.h"
#include "netcube/transport/recycled_buffers.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace netcube::transport {
namespace {

// Connection events and the disconnect command travel through the conditioners as reliable entries on
// channel numbers ENet never uses, so each keeps its place among the reliable data of its peer: a refusal
// sent just before a disconnect is always delivered before it.
constexpr std::uint8_t kConnectedItem = 0xF0;     // incoming: no payload
constexpr std::uint8_t kDisconnectedItem = 0xF1;  // incoming: disconnect_data (4 bytes), timed_out (1 byte)
constexpr std::uint8_t kDisconnectCommand = 0xF2;  // outgoing: the application's value (4 bytes)
constexpr std::uint8_t kDisconnectUnprovenCommand = 0xF3;  // outgoing: the application's value (4 bytes)

// No valid message is larger, so ENet refuses larger packets both ways (its default is 32 MB), and the
// datagram filter drops any fragment that claims a larger total before ENet allocates it.
constexpr std::size_t kMaxEnetPacketBytes = protocol::kMaxPacketBytes;
// What ENet may hold for one peer, waiting for reassembly or for a gap in the reliable sequence to fill
// (its default is 32 MB): far more than an honest peer ever has in flight.
constexpr std::size_t kMaxWaitingBytesPerPeer = 64 * protocol::kMaxPacketBytes;
// A reliable or fragmented message open at once per peer: each costs ENet its total length until done.
constexpr std::size_t kMaxOpenReassemblies = 8;
// Commands ENet may hold back for one peer at once: 176 bytes each whatever their data, and each makes
// ENet's sorted insert walk one step further, so the bound is also the longest walk one command costs.
// A listening host's peers are strangers. An honest one parks commands only while a lost reliable command
// is resent: the few reliable messages it sent meanwhile, or on the unreliable channel (where ENet sends
// a reliable command only when the unreliable sequence wraps, every 65,535 packets) a round trip's packets.
constexpr std::size_t kMaxParkedCommandsPerStranger = 256;
// An outgoing host's one peer is the server it chose, whose reliable messages can be many while a lost one
// is resent: every tag's result goes to every player (64 players tagging 4 times a second, on a 1 s round
// trip, park about 500).
constexpr std::size_t kMaxParkedCommandsFromServer = 4096;
// The kernel's receive buffer (ENet asks for 256 KiB): room for bursts and floods between two services.
// Linux caps it at net.core.rmem_max.
constexpr int kSocketReceiveBufferBytes = 4 * 1024 * 1024;
// ENet 1.3.17 gives up a whole service call on one datagram too large for its 4 KiB buffer, and
// enet_host_service returns -1 having read nothing else. The pump goes on reading past that many of them
// at most per Service, so a flood of them cannot starve everyone else, nor keep the pump for ever.
constexpr int kMaxReceiveErrorsPerService = 1024;
// ENet reads at most 256 datagrams in one enet_host_service call, and a call whose datagrams were all
// filtered reports nothing: the pump goes on while calls read their full 256, up to this many of them per
// Service, so a flood of datagrams the filter drops cannot queue ahead of honest ones in the socket.
constexpr int kEnetReadsPerCall = 256;
constexpr int kMaxFullReadsPerService = 16;
// How long what is sent to an unproven peer as it is disconnected waits for its acknowledgement (it is
// never resent): a round trip across the world, and a slow client's service interval, with room to spare.
constexpr enet_uint32 kUnprovenAckWaitMs = 1000;

// The incoming conditioner gets its own random stream, different from the outgoing one.
constexpr std::uint64_t kIncomingStream = 0xD1B54A32D192ED03ULL;

std::array<std::uint8_t, 4> U32Bytes(std::uint32_t value) {
  std::array<std::uint8_t, 4> bytes{};
  std::memcpy(bytes.data(), &value, sizeof value);
  return bytes;
}

std::uint32_t BytesU32(std::span<const std::uint8_t> bytes) {
  std::uint32_t value = 0;
  std::memcpy(&value, bytes.data(), sizeof value);
  return value;
}

// A disconnect's value on the wire is data + 1, so 0 is left to mean "no goodbye" (ENet's timeouts
// report 0).
enet_uint32 WireDisconnectValue(std::uint32_t data) {
  return data == std::numeric_limits<std::uint32_t>::max() ? data : data + 1;
}

// A datagram that asks ENet for a new connection: addressed to no peer, and its first command CONNECT
// (ENet reads the CONNECT only from such a datagram). Its connect id, or nothing if it is not one.
std::optional<enet_uint32> ConnectionRequestId(std::span<const std::uint8_t> datagram) {
  if (datagram.size() < 2) return std::nullopt;
  const auto peer_field = static_cast<std::uint16_t>(datagram[0] << 8 | datagram[1]);
  // ENet drops a compressed datagram here: this host has no compressor.
  if ((peer_field & ENET_PROTOCOL_HEADER_FLAG_COMPRESSED) != 0 ||
      (peer_field & ENET_PROTOCOL_MAXIMUM_PEER_ID) != ENET_PROTOCOL_MAXIMUM_PEER_ID) {
    return std::nullopt;
  }
  const std::size_t header = (peer_field & ENET_PROTOCOL_HEADER_FLAG_SENT_TIME) != 0
                                 ? sizeof(ENetProtocolHeader)
                                 : offsetof(ENetProtocolHeader, sentTime);
  if (datagram.size() < header + sizeof(ENetProtocolConnect) ||
      (datagram[header] & ENET_PROTOCOL_COMMAND_MASK) != ENET_PROTOCOL_COMMAND_CONNECT) {
    return std::nullopt;
  }
  enet_uint32 connect_id = 0;
  std::memcpy(&connect_id, datagram.data() + header + offsetof(ENetProtocolConnect, connectID),
              sizeof connect_id);
  return connect_id;  // as ENet compares it: in network order
}

// Buffers ENet sends from directly (ENET_PACKET_FLAG_NO_ALLOCATE) instead of copying each payload into a
// block of its own: ENet hands a buffer back through the packet's free callback once it is done with it
// (sent, acknowledged when reliable, or its peer reset), and it waits in its size class for the next packet.
class SendBuffers {
 public:
  // A packet of a copy of `payload` for enet_peer_send, or nullptr.
  ENetPacket* MakePacket(std::span<const std::uint8_t> payload, enet_uint32 flags) {
    const std::optional<std::size_t> size_class = Idle::ClassFor(payload.size());
    if (!size_class) return nullptr;  // ENet would refuse it too
    std::unique_ptr<Buffer> buffer = idle_.Take(*size_class).value_or(nullptr);
    if (!buffer) {
      buffer = std::make_unique<Buffer>(
          Buffer{this, *size_class, std::make_unique_for_overwrite<std::uint8_t[]>(Idle::ClassBytes(*size_class))});
    }
    if (!payload.empty()) std::memcpy(buffer->bytes.get(), payload.data(), payload.size());
    ENetPacket* packet =
        enet_packet_create(buffer->bytes.get(), payload.size(), flags | ENET_PACKET_FLAG_NO_ALLOCATE);
    if (packet == nullptr) {
      idle_.Give(*size_class, std::move(buffer));
      return nullptr;
    }
    packet->userData = buffer.release();
    packet->freeCallback = &SendBuffers::Release;
    return packet;
  }

 private:
  struct Buffer {
    SendBuffers* owner = nullptr;
    std::size_t size_class = 0;
    std::unique_ptr<std::uint8_t[]> bytes;
  };
  using Idle = RecycledBuffers<std::unique_ptr<Buffer>>;

  static void Release(ENetPacket* packet) {
    std::unique_ptr<Buffer> buffer(static_cast<Buffer*>(packet->userData));
    SendBuffers& owner = *buffer->owner;
    const std::size_t size_class = buffer->size_class;
    owner.idle_.Give(size_class, std::move(buffer));
  }

  Idle idle_;
};

// Counts per IPv4 address (as ENet keeps it) with no allocation once warm, for MakeRoomFor, which counts
// every slot for each connection request while a flood fills the table: open addressing in a power-of-two
// table of at least twice the keys, emptied by a generation stamp.
class AddressCounts {
 public:
  void Clear(std::size_t max_keys) {
    const std::size_t size = std::bit_ceil(std::max<std::size_t>(2 * max_keys, 16));
    if (entries_.size() != size) {
      entries_.assign(size, Entry{});
      shift_ = 32 - std::countr_zero(size);
    }
    ++generation_;
  }
  std::size_t& operator[](enet_uint32 host) {
    const std::size_t mask = entries_.size() - 1;
    // Multiplicative hashing, high bits: the address's every byte counts (its last octet is its high byte).
    for (std::size_t i = static_cast<std::uint32_t>(host * 0x9E3779B1U) >> shift_;; i = (i + 1) & mask) {
      Entry& entry = entries_[i];
      if (entry.generation != generation_) {
        entry = {host, generation_, 0};
        return entry.count;
      }
      if (entry.host == host) return entry.count;
    }
  }

 private:
  struct Entry {
    enet_uint32 host = 0;
    std::uint64_t generation = 0;
    std::size_t count = 0;
  };
  std::vector<Entry> entries_;
  int shift_ = 32;
  std::uint64_t generation_ = 0;
};

// enet_initialize/enet_deinitialize, counted across every Host of the process.
class EnetLibraryUse {
 public:
  EnetLibraryUse() {
    const std::scoped_lock lock(mutex_);
    if (users_ == 0 && enet_initialize() != 0) return;
    ++users_;
    ready_ = true;
  }
  ~EnetLibraryUse() {
    if (!ready_) return;
    const std::scoped_lock lock(mutex_);
    if (--users_ == 0) enet_deinitialize();
  }
  EnetLibraryUse(const EnetLibraryUse&) = delete;
  EnetLibraryUse& operator=(const EnetLibraryUse&) = delete;
  bool ready() const { return ready_; }

 private:
  static inline std::mutex mutex_;
  static inline int users_ = 0;
  bool ready_ = false;
};

// The PeerId rides in ENet's user pointer; 0 (null) marks a peer slot this Host no longer tracks.
void* ToUserData(PeerId id) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(id)); }
PeerId FromUserData(const ENetPeer* peer) {
  return static_cast<PeerId>(reinterpret_cast<std::uintptr_t>(peer->data));
}

void ConfigureTimeouts(ENetPeer* peer, std::uint32_t timeout_ms) {
  // Declared dead once reliable traffic (at least ENet's pings) has gone unacknowledged for timeout_ms
  // after its retransmissions ran out, and at 2 x timeout_ms in any case. Pings at a quarter of the timeout
  // (50 to 500 ms) keep a silent connection carrying something to acknowledge. 0 keeps ENet's 5 to 30 s.
  constexpr std::uint32_t kMinPingIntervalMs = 50;
  const auto maximum = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(2ULL * timeout_ms, std::numeric_limits<std::uint32_t>::max()));
  enet_peer_timeout(peer, 0, timeout_ms, maximum);
  enet_peer_ping_interval(peer,
                          std::clamp<std::uint32_t>(timeout_ms / 4, kMinPingIntervalMs, ENET_PEER_PING_INTERVAL));
}

// ENet resends its answer to a connection request (VERIFY_CONNECT, 48 bytes) after half a second, before
// the handshake is reset: to an address that never proved itself, twice what it sent. The answer is held
// past the handshake's life instead (twice it: room for a virtual clock behind the real one), so each
// request is answered once; an honest client whose answer was lost asks again after the reset.
void HoldHandshakeAnswer(ENetPeer& peer, enet_uint32 hold_ms) {
  if (enet_list_empty(&peer.sentReliableCommands)) return;
  for (ENetListIterator it = enet_list_begin(&peer.sentReliableCommands);
       it != enet_list_end(&peer.sentReliableCommands); it = enet_list_next(it)) {
    auto& command = *reinterpret_cast<ENetOutgoingCommand*>(it);
    command.roundTripTimeout = std::max(command.roundTripTimeout, hold_ms);
    command.roundTripTimeoutLimit = std::max(command.roundTripTimeoutLimit, command.roundTripTimeout);
  }
  const auto& first =
      *reinterpret_cast<const ENetOutgoingCommand*>(enet_list_front(&peer.sentReliableCommands));
  peer.nextTimeout = first.sentTime + first.roundTripTimeout;
}

void ConfigureConnectedPeer(ENetPeer* peer, std::uint32_t timeout_ms) {
  ConfigureTimeouts(peer, timeout_ms);
  // ENet's packet throttle silently drops unreliable packets whenever it sees the round-trip time rise.
  // Loss must come only from the network and our link conditioner (the game's redundancy is built for
  // those, and benchmarks must measure exactly the configured network), so the throttle is pinned open:
  // full acceleration back to the limit, no deceleration. Bandwidth limits are 0, so the limit stays at
  // ENET_PEER_PACKET_THROTTLE_SCALE. Set on this side only (enet_peer_throttle_configure would also send
  // the other side a reliable command, resent to an address that never proved itself): both sides
  // configure their own.
  peer->packetThrottleInterval = ENET_PEER_PACKET_THROTTLE_INTERVAL;
  peer->packetThrottleAcceleration = ENET_PEER_PACKET_THROTTLE_SCALE;
  peer->packetThrottleDeceleration = 0;
}

bool ResolveAddress(const std::string& name, std::uint16_t port, ENetAddress& address) {
  address.port = port;
  // The numeric form first: no resolver involved for "127.0.0.1".
  return enet_address_set_host_ip(&address, name.c_str()) == 0 ||
         enet_address_set_host(&address, name.c_str()) == 0;
}

}  // namespace

struct Host::Impl {
  struct PeerRecord {
    ENetPeer* enet = nullptr;          // null once ENet has finished with the connection
    bool connected_delivered = false;  // the application has seen kConnected
    bool closing = false;              // our own Disconnect reached ENet: its end is not a timeout
    bool proven = false;               // MarkProven: never reset to make room
    // DisconnectUnproven reached ENet: the goodbye's wire value, sent once what was queued is acknowledged.
    std::optional<enet_uint32> goodbye_once;
  };
  // When this Host first saw a connection in an ENet peer slot (its connect id tells a new one).
  struct SlotOccupant {
    enet_uint32 connect_id = 0;
    Micros since{0};
  };

  explicit Impl(const HostConfig& host_config)
      : config(host_config), outgoing(host_config.seed), incoming(host_config.seed ^ kIncomingStream) {
    outgoing.SetSettings(config.link);
    incoming.SetSettings(config.link);
    outgoing.SetLog(config.outgoing_log);
    incoming.SetLog(config.incoming_log);
  }
  ~Impl() {
    ReleaseReceived();
    if (host != nullptr) enet_host_destroy(host);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  static std::unique_ptr<Impl> Create(const HostConfig& config, const ENetAddress& address,
                                      std::size_t peer_count, std::size_t max_parked_commands,
                                      std::string* error);

  PeerRecord* FindConnection(PeerId id) {
    const auto it = peers.find(id);
    return it == peers.end() || it->second.enet == nullptr ? nullptr : &it->second;
  }

  // ENet is done with this slot (it may reuse it for a new connection); the PeerId lives on until the
  // application has been told.
  static void ReleaseEnetPeer(PeerRecord& record) {
    record.enet->data = nullptr;
    record.enet = nullptr;
  }

  // Always through the incoming conditioner, even an inactive one (it is then delivered at the next
  // Service): it may be called between Services, and it is rare.
  void QueueDisconnectedEvent(Micros now, PeerId id, std::uint32_t disconnect_data, bool timed_out) {
    std::array<std::uint8_t, 5> bytes{};
    const auto value = U32Bytes(disconnect_data);
    std::copy(value.begin(), value.end(), bytes.begin());
    bytes[4] = timed_out ? 1 : 0;
    incoming.Push(now, id, kDisconnectedItem, true, bytes);
  }

  void ReleaseReceived() {
    for (ENetPacket* packet : received) enet_packet_destroy(packet);
    received.clear();
  }

  void SendDue(Micros now);
  void SendToEnet(PeerRecord& record, std::uint8_t channel, bool reliable, std::span<const std::uint8_t> payload);
  void BeginDisconnect(Micros now, PeerId id, PeerRecord& record, std::uint32_t data);
  void BeginUnprovenDisconnect(Micros now, PeerId id, PeerRecord& record, std::uint32_t data);
  void SayGoodbyesOnce(Micros now);
  bool Unproven(const ENetPeer& peer) const;
  void MakeRoomFor(const ENetAddress& from, enet_uint32 connect_id);
  void Evict(ENetPeer& peer);
  void PumpEnet(Micros now, std::vector<Event>& events);
  void OnEnetEvent(Micros now, const ENetEvent& event, std::vector<Event>& events);
  void Arrived(Micros now, PeerId id, std::uint8_t channel, bool reliable, std::span<const std::uint8_t> bytes,
               std::vector<Event>& events);
  void Deliver(PeerId id, std::uint8_t channel, std::span<const std::uint8_t> bytes, std::vector<Event>& events);
  void DeliverDue(Micros now, std::vector<Event>& events);
  void CollectWireTotals();
  void WatchSlots(Micros now);

  EnetLibraryUse library;  // first member: initialised before, released after, everything ENet
  HostConfig config;
  SendBuffers send_buffers;  // outlives the ENet host, which hands them back as it is destroyed
  ENetHost* host = nullptr;
  LinkConditioner outgoing;
  LinkConditioner incoming;
  std::unordered_map<PeerId, PeerRecord> peers;
  PeerId next_peer_id = 1;
  TransportCounters totals;  // payload and accumulated wire counters; conditioner counters live there
  // Packets ENet received whose bytes the application reads in place until the next Service.
  std::vector<ENetPacket*> received;
  // Per ENet peer slot: the connection this Host last saw there, and since when.
  std::vector<std::optional<SlotOccupant>> slots;
  // Peers disconnected by DisconnectUnproven whose goodbye waits for the acknowledgement of what was queued.
  std::vector<PeerId> goodbyes_once;
  // MakeRoomFor's work space, kept for reuse.
  AddressCounts unproven_per_address;
  std::vector<ENetPeer*> unproven;
  Micros servicing_now{0};  // the time of the Service under way, for the intercept
  int datagrams_read = 0;   // by the enet_host_service call under way, as the intercept saw them
  FilterLimits filter;

  // The Impl whose ENet host this thread is servicing: ENet's intercept callback has no user pointer.
  static thread_local Impl* servicing;
  // ENet's intercept: 1 consumes (drops) the datagram, 0 lets ENet process it.
  static int Intercept(ENetHost* enet, ENetEvent* event);
};

thread_local Host::Impl* Host::Impl::servicing = nullptr;

int Host::Impl::Intercept(ENetHost* enet, ENetEvent* /*event*/) {
  Impl* impl = servicing;
  if (impl == nullptr) return 0;
  ++impl->datagrams_read;
  const std::span<const std::uint8_t> datagram(enet->receivedData, enet->receivedDataLength);
  if (!AcceptDatagram(*enet, datagram, impl->filter)) {
    ++impl->totals.datagrams_filtered;
    return 1;
  }
  if (impl->config.make_room_for_connections) {
    if (const std::optional<enet_uint32> connect_id = ConnectionRequestId(datagram)) {
      impl->MakeRoomFor(enet->receivedAddress, *connect_id);
    }
  }
  return 0;
}

// Unproven: a connection from outside still in its handshake (not yet reported to the application), or
// one the application has not proven.
bool Host::Impl::Unproven(const ENetPeer& peer) const {
  if (peer.state == ENET_PEER_STATE_DISCONNECTED) return false;
  const PeerId id = FromUserData(&peer);
  if (id == 0) return true;
  const auto it = peers.find(id);
  return it != peers.end() && !it->second.proven;
}

// A connection request is about to reach ENet. If it will find every slot taken, and ENet would take it
// otherwise (the address is under its limit; not a resend of a handshake already under way), an unproven
// connection makes room: of the address holding the most unproven slots, so a crowd from a few addresses
// pays first and an honest client's one handshake last; of those, the oldest.
void Host::Impl::MakeRoomFor(const ENetAddress& from, enet_uint32 connect_id) {
  std::size_t from_address = 0;
  for (std::size_t i = 0; i < host->peerCount; ++i) {
    const ENetPeer& peer = host->peers[i];
    if (peer.state == ENET_PEER_STATE_DISCONNECTED) return;  // a free slot: nothing to do
    if (peer.state == ENET_PEER_STATE_CONNECTING || peer.address.host != from.host) continue;
    if (peer.address.port == from.port && peer.connectID == connect_id) return;
    ++from_address;
  }
  if (from_address >= host->duplicatePeers) return;
  unproven_per_address.Clear(host->peerCount);
  unproven.clear();
  for (std::size_t i = 0; i < host->peerCount; ++i) {
    if (!Unproven(host->peers[i])) continue;
    unproven.push_back(&host->peers[i]);
    ++unproven_per_address[host->peers[i].address.host];
  }
  ENetPeer* victim = nullptr;
  std::size_t victim_crowd = 0;
  Micros victim_since{0};
  for (ENetPeer* candidate : unproven) {
    const ENetPeer& peer = *candidate;
    const std::size_t crowd = unproven_per_address[peer.address.host];
    const auto i = static_cast<std::size_t>(candidate - host->peers);
    // A connection taken during this Service is not watched yet: the newest.
    const Micros since = slots[i] && slots[i]->connect_id == peer.connectID ? slots[i]->since : servicing_now;
    if (victim == nullptr || crowd > victim_crowd || (crowd == victim_crowd && since < victim_since)) {
      victim = candidate;
      victim_crowd = crowd;
      victim_since = since;
    }
  }
  if (victim != nullptr) Evict(*victim);
}

void Host::Impl::Evict(ENetPeer& peer) {
  if (const auto it = peers.find(FromUserData(&peer)); it != peers.end() && it->second.enet == &peer) {
    const PeerId id = it->first;
    ReleaseEnetPeer(it->second);
    QueueDisconnectedEvent(servicing_now, id, 0, true);
  }
  enet_peer_reset(&peer);
  slots[static_cast<std::size_t>(&peer - host->peers)].reset();
  ++totals.unproven_evicted;
}

std::unique_ptr<Host::Impl> Host::Impl::Create(const HostConfig& config, const ENetAddress& address,
                                               std::size_t peer_count, std::size_t max_parked_commands,
                                               std::string* error) {
  auto impl = std::make_unique<Impl>(config);
  impl->filter = {protocol::kMaxPacketBytes, kMaxOpenReassemblies, max_parked_commands};
  if (!impl->library.ready()) {
    *error = "enet_initialize failed";
    return nullptr;
  }
  impl->host = enet_host_create(&address, peer_count, protocol::kChannelCount, 0, 0);
  if (impl->host == nullptr) {
    *error = "cannot bind UDP " + config.bind_address + ":" + std::to_string(config.port) +
             " (address in use or not local?)";
    return nullptr;
  }
  impl->host->maximumPacketSize = kMaxEnetPacketBytes;
  impl->host->maximumWaitingData = kMaxWaitingBytesPerPeer;
  impl->host->intercept = Intercept;
  if (config.max_peers_per_address > 0) impl->host->duplicatePeers = config.max_peers_per_address;
  impl->slots.resize(impl->host->peerCount);
  // Best effort: a smaller buffer only means floods drop more in the kernel.
  enet_socket_set_option(impl->host->socket, ENET_SOCKOPT_RCVBUF, kSocketReceiveBufferBytes);
  return impl;
}

void Host::Impl::SendDue(Micros now) {
  outgoing.Poll(now, [this, now](const ConditionedPacket& item) {
    PeerRecord* record = FindConnection(item.peer);
    if (record == nullptr) return;  // the peer has gone: discard
    if (item.channel == kDisconnectCommand) {
      BeginDisconnect(now, item.peer, *record, BytesU32(item.data));
    } else if (item.channel == kDisconnectUnprovenCommand) {
      BeginUnprovenDisconnect(now, item.peer, *record, BytesU32(item.data));
    } else {
      SendToEnet(*record, item.channel, item.reliable, item.data);
    }
  });
}

void Host::Impl::SendToEnet(PeerRecord& record, std::uint8_t channel, bool reliable,
                            std::span<const std::uint8_t> payload) {
  const enet_uint32 flags = reliable ? ENET_PACKET_FLAG_RELIABLE
                                     // A snapshot can exceed the MTU; without this flag ENet sends its
                                     // fragments reliably.
                                     : ENET_PACKET_FLAG_UNRELIABLE_FRAGMENT;
  ENetPacket* packet = send_buffers.MakePacket(payload, flags);
  if (packet == nullptr) return;
  // Fails when the peer is not (or no longer) connected or the packet is over kMaxEnetPacketBytes.
  if (enet_peer_send(record.enet, channel, packet) != 0) {
    enet_packet_destroy(packet);
    return;
  }
  ++totals.packets_sent;
  totals.payload_bytes_sent += payload.size();
}

void Host::Impl::BeginDisconnect(Micros now, PeerId id, PeerRecord& record, std::uint32_t data) {
  record.closing = true;
  enet_peer_disconnect_later(record.enet, WireDisconnectValue(data));
  // A connection still being set up is reset on the spot, and ENet reports nothing: report it ourselves.
  if (record.enet->state == ENET_PEER_STATE_DISCONNECTED) {
    ReleaseEnetPeer(record);
    QueueDisconnectedEvent(now, id, 0, false);
  }
}

// ENet resends an unacknowledged reliable command after its round-trip timeout (rtt + 4 x variance) until
// its own timeout: to a silent address, many times what that address sent. Here what is queued for the
// peer is sent once: its round-trip timeout is at least kUnprovenAckWaitMs, and the first command to
// reach its timeout ends the connection (a timeout limit of 1: no resend). A goodbye follows only an
// acknowledgement, and only once (SayGoodbyesOnce).
void Host::Impl::BeginUnprovenDisconnect(Micros now, PeerId id, PeerRecord& record, std::uint32_t data) {
  ENetPeer* peer = record.enet;
  if (peer->state != ENET_PEER_STATE_CONNECTED) return BeginDisconnect(now, id, record, data);
  record.closing = true;
  record.goodbye_once = WireDisconnectValue(data);
  peer->roundTripTime = std::max(peer->roundTripTime, kUnprovenAckWaitMs);
  enet_peer_timeout(peer, 1, 1, 1);
  goodbyes_once.push_back(id);
}

void Host::Impl::SayGoodbyesOnce(Micros now) {
  std::erase_if(goodbyes_once, [&](PeerId id) {
    PeerRecord* record = FindConnection(id);
    if (record == nullptr) return true;  // ENet gave up waiting (a timeout, reported as ours), or dropped
    ENetPeer* peer = record->enet;
    if (!enet_list_empty(&peer->outgoingCommands) || !enet_list_empty(&peer->sentReliableCommands))
      return false;
    // Unsequenced, never resent, and the peer is reset at once: ENet reports nothing, so we do.
    enet_peer_disconnect_now(peer, *record->goodbye_once);
    ReleaseEnetPeer(*record);
    QueueDisconnectedEvent(now, id, 0, false);
    return true;
  });
}

void Host::Impl::PumpEnet(Micros now, std::vector<Event>& events) {
  servicing = this;
  servicing_now = now;
  ENetEvent event;
  for (int errors = 0, full_reads = 0;;) {
    datagrams_read = 0;
    const int result = enet_host_service(host, &event, 0);
    // Each connection makes ENet tell every connected peer, within a second, this host's bandwidth limits
    // in a reliable command: none here (0 both ways, as the handshake already said), so it says nothing
    // new, and to a peer that never proved its address it would be resent until the peer timed out.
    host->recalculateBandwidthLimits = 0;
    if (result > 0) {
      OnEnetEvent(now, event, events);
    } else if (result < 0 && errors < kMaxReceiveErrorsPerService) {
      ++errors;
      ++totals.receive_errors;
    } else if (result == 0 && datagrams_read >= kEnetReadsPerCall && full_reads < kMaxFullReadsPerService) {
      ++full_reads;  // ENet stopped at its limit, not at an empty socket
    } else {
      break;
    }
  }
  servicing = nullptr;
}

void Host::Impl::OnEnetEvent(Micros now, const ENetEvent& event, std::vector<Event>& events) {
  switch (event.type) {
    case ENET_EVENT_TYPE_CONNECT: {
      // Our own Connect already named the peer; a connection from outside gets a fresh id.
      PeerId id = FromUserData(event.peer);
      if (id == 0) {
        id = next_peer_id++;
        event.peer->data = ToUserData(id);
        peers[id].enet = event.peer;
      }
      ConfigureConnectedPeer(event.peer, config.timeout_ms);
      Arrived(now, id, kConnectedItem, true, {}, events);
      return;
    }
    case ENET_EVENT_TYPE_RECEIVE: {
      const PeerId id = FromUserData(event.peer);
      if (id == 0) {
        enet_packet_destroy(event.packet);
        return;
      }
      ++totals.packets_received;
      totals.payload_bytes_received += event.packet->dataLength;
      const bool reliable = event.channelID == static_cast<std::uint8_t>(protocol::Channel::kReliable);
      // Read in place when delivered at once; the packet is destroyed at the next Service.
      received.push_back(event.packet);
      Arrived(now, id, event.channelID, reliable, std::span(event.packet->data, event.packet->dataLength), events);
      return;
    }
    case ENET_EVENT_TYPE_DISCONNECT: {
      const PeerId id = FromUserData(event.peer);
      const auto it = peers.find(id);
      if (id == 0 || it == peers.end()) return;
      // Our own code always says goodbye with a non-zero value (see BeginDisconnect); ENet reports a
      // timeout with 0. The end of a disconnect we started is not a timeout either.
      const bool timed_out = event.data == 0 && !it->second.closing;
      ReleaseEnetPeer(it->second);
      QueueDisconnectedEvent(now, id, event.data == 0 ? 0 : event.data - 1, timed_out);
      return;
    }
    case ENET_EVENT_TYPE_NONE:
      return;
  }
}

// Through the incoming conditioner when it is active; straight to the application when it is not.
void Host::Impl::Arrived(Micros now, PeerId id, std::uint8_t channel, bool reliable,
                         std::span<const std::uint8_t> bytes, std::vector<Event>& events) {
  if (incoming.IsActive()) {
    incoming.Push(now, id, channel, reliable, bytes);
  } else {
    incoming.CountPassedThrough();
    Deliver(id, channel, bytes, events);
  }
}

void Host::Impl::Deliver(PeerId id, std::uint8_t channel, std::span<const std::uint8_t> bytes,
                         std::vector<Event>& events) {
  const auto it = peers.find(id);
  if (it == peers.end()) return;  // dropped by the application, or already reported gone
  PeerRecord& record = it->second;
  Event event;
  event.peer = id;
  if (channel == kConnectedItem) {
    record.connected_delivered = true;
    event.type = EventType::kConnected;
  } else if (channel == kDisconnectedItem) {
    event.type = EventType::kDisconnected;
    event.disconnect_data = BytesU32(bytes);
    event.timed_out = bytes.back() != 0;
    peers.erase(it);
  } else {
    // Jitter can carry an unreliable packet past its connection event; the application would not know
    // the peer yet, so it is lost like any unreliable packet. Reliable data is FIFO behind the event.
    if (!record.connected_delivered) return;
    event.type = EventType::kReceived;
    event.channel = static_cast<protocol::Channel>(channel);
    event.data = bytes;
  }
  events.push_back(event);
}

void Host::Impl::DeliverDue(Micros now, std::vector<Event>& events) {
  incoming.Poll(now, [this, &events](const ConditionedPacket& item) { Deliver(item.peer, item.channel, item.data, events); });
}

// Notes when each slot's connection began. ENet answers a connection request at once and then waits for
// the acknowledgement of its answer as long as it would for any reliable command; a request that is never
// completed is reset here instead, after handshake_timeout_ms.
void Host::Impl::WatchSlots(Micros now) {
  const Micros limit = std::chrono::milliseconds(config.handshake_timeout_ms);
  for (std::size_t i = 0; i < host->peerCount; ++i) {
    ENetPeer& peer = host->peers[i];
    std::optional<SlotOccupant>& slot = slots[i];
    if (peer.state == ENET_PEER_STATE_DISCONNECTED) {
      slot.reset();
      continue;
    }
    if (!slot || slot->connect_id != peer.connectID) {
      slot = SlotOccupant{peer.connectID, now};
      if (config.handshake_timeout_ms != 0 && peer.state == ENET_PEER_STATE_ACKNOWLEDGING_CONNECT) {
        HoldHandshakeAnswer(peer, 2 * config.handshake_timeout_ms);
      }
    }
    // Our own outgoing connections (named in `data`) wait in another state.
    if (config.handshake_timeout_ms != 0 && peer.state == ENET_PEER_STATE_ACKNOWLEDGING_CONNECT &&
        now - slot->since > limit) {
      enet_peer_reset(&peer);
      slot.reset();
      ++totals.handshakes_reset;
    }
  }
}

// ENet's totals are 32-bit and meant to be reset by the user: move them into our 64-bit ones.
void Host::Impl::CollectWireTotals() {
  totals.wire_bytes_sent += std::exchange(host->totalSentData, 0);
  totals.wire_bytes_received += std::exchange(host->totalReceivedData, 0);
  totals.wire_packets_sent += std::exchange(host->totalSentPackets, 0);
  totals.wire_packets_received += std::exchange(host->totalReceivedPackets, 0);
}

Host::Host(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Host::~Host() = default;

std::unique_ptr<Host> Host::Listen(const HostConfig& config, std::string* error) {
  if (config.max_peers == 0 || config.max_peers > ENET_PROTOCOL_MAXIMUM_PEER_ID) {
    *error = "max_peers must be within [1, " + std::to_string(ENET_PROTOCOL_MAXIMUM_PEER_ID) + "]";
    return nullptr;
  }
  // A local interface's address: numeric, so that a typo fails at once instead of in a DNS lookup.
  ENetAddress address{};
  address.port = config.port;
  if (enet_address_set_host_ip(&address, config.bind_address.c_str()) != 0) {
    *error = "invalid bind address '" + config.bind_address + "' (expected a numeric IPv4 address)";
    return nullptr;
  }
  std::unique_ptr<Impl> impl =
      Impl::Create(config, address, config.max_peers, kMaxParkedCommandsPerStranger, error);
  if (impl == nullptr) return nullptr;
  return std::unique_ptr<Host>(new Host(std::move(impl)));
}

std::unique_ptr<Host> Host::Outgoing(const HostConfig& config, std::string* error) {
  // The source address: any port, on the interface asked for (a test's own loopback address, say).
  ENetAddress address{};
  if (enet_address_set_host_ip(&address, config.bind_address.c_str()) != 0) {
    *error = "invalid source address '" + config.bind_address + "' (expected a numeric IPv4 address)";
    return nullptr;
  }
  HostConfig source = config;
  source.port = 0;
  std::unique_ptr<Impl> impl = Impl::Create(source, address, 1, kMaxParkedCommandsFromServer, error);
  if (impl == nullptr) return nullptr;
  return std::unique_ptr<Host>(new Host(std::move(impl)));
}

std::optional<PeerId> Host::Connect(const std::string& host, std::uint16_t port, std::string* error) {
  ENetAddress address{};
  if (!ResolveAddress(host, port, address)) {
    *error = "cannot resolve host '" + host + "'";
    return std::nullopt;
  }
  ENetPeer* peer = enet_host_connect(impl_->host, &address, protocol::kChannelCount, 0);
  if (peer == nullptr) {
    *error = "no free connection slot on this host";
    return std::nullopt;
  }
  ConfigureTimeouts(peer, impl_->config.timeout_ms);
  const PeerId id = impl_->next_peer_id++;
  peer->data = ToUserData(id);
  impl_->peers[id].enet = peer;
  impl_->peers[id].proven = true;  // our own connection: never made room from
  return id;
}

void Host::Send(Micros now, PeerId peer, protocol::Channel channel, std::span<const std::uint8_t> payload) {
  Impl& s = *impl_;
  const auto wire_channel = static_cast<std::uint8_t>(channel);
  const bool reliable = channel == protocol::Channel::kReliable;
  if (!s.peers.contains(peer)) return;
  if (s.outgoing.IsActive()) {
    s.outgoing.Push(now, peer, wire_channel, reliable, payload);
    return;
  }
  s.outgoing.CountPassedThrough();
  if (Impl::PeerRecord* record = s.FindConnection(peer)) s.SendToEnet(*record, wire_channel, reliable, payload);
}

void Host::Disconnect(Micros now, PeerId peer, std::uint32_t data) {
  Impl& s = *impl_;
  if (!s.peers.contains(peer)) return;
  if (s.outgoing.IsActive()) {
    // A reliable entry: it leaves after everything sent before it.
    s.outgoing.Push(now, peer, kDisconnectCommand, true, U32Bytes(data));
    return;
  }
  s.outgoing.CountPassedThrough();
  if (Impl::PeerRecord* record = s.FindConnection(peer)) s.BeginDisconnect(now, peer, *record, data);
}

void Host::DisconnectUnproven(Micros now, PeerId peer, std::uint32_t data) {
  Impl& s = *impl_;
  if (!s.peers.contains(peer)) return;
  if (s.outgoing.IsActive()) {
    // A reliable entry: it leaves after everything sent before it.
    s.outgoing.Push(now, peer, kDisconnectUnprovenCommand, true, U32Bytes(data));
    return;
  }
  s.outgoing.CountPassedThrough();
  if (Impl::PeerRecord* record = s.FindConnection(peer)) s.BeginUnprovenDisconnect(now, peer, *record, data);
}

void Host::MarkProven(PeerId peer) {
  if (const auto it = impl_->peers.find(peer); it != impl_->peers.end()) it->second.proven = true;
}

void Host::Drop(PeerId peer) {
  const auto it = impl_->peers.find(peer);
  if (it == impl_->peers.end()) return;
  if (ENetPeer* enet = it->second.enet; enet != nullptr) {
    enet->data = nullptr;
    enet_peer_reset(enet);
  }
  impl_->peers.erase(it);
}

void Host::Service(Micros now, std::vector<Event>& events) {
  impl_->ReleaseReceived();  // the application has read the last Service's payloads
  impl_->SendDue(now);
  impl_->PumpEnet(now, events);
  impl_->SayGoodbyesOnce(now);
  impl_->WatchSlots(now);
  impl_->DeliverDue(now, events);
  impl_->CollectWireTotals();
}

void Host::Flush() {
  enet_host_flush(impl_->host);
  impl_->CollectWireTotals();
}

void Host::SetLink(const LinkSettings& settings) {
  impl_->outgoing.SetSettings(settings);
  impl_->incoming.SetSettings(settings);
}

const LinkSettings& Host::link() const { return impl_->outgoing.settings(); }

std::uint16_t Host::port() const {
  ENetAddress address{};
  if (enet_socket_get_address(impl_->host->socket, &address) != 0) return 0;
  return address.port;
}

TransportCounters Host::counters() const {
  TransportCounters counters = impl_->totals;
  // Plus what ENet has counted since the last Service.
  counters.wire_bytes_sent += impl_->host->totalSentData;
  counters.wire_bytes_received += impl_->host->totalReceivedData;
  counters.wire_packets_sent += impl_->host->totalSentPackets;
  counters.wire_packets_received += impl_->host->totalReceivedPackets;
  counters.outgoing = impl_->outgoing.counters();
  counters.incoming = impl_->incoming.counters();
  return counters;
}

std::optional<std::uint32_t> Host::EnetRttMs(PeerId peer) const {
  const auto it = impl_->peers.find(peer);
  if (it == impl_->peers.end() || it->second.enet == nullptr) return std::nullopt;
  return it->second.enet->roundTripTime;
}

}  // namespace netcube::transport
