#include "netcube/transport/host.h"

#include <array>
#include <cstring>
#include <unordered_map>
#include <utility>

namespace netcube::transport {
namespace {

// Connection events and the disconnect command travel through the conditioners as reliable entries on
// channel numbers the protocol never uses, so each keeps its place among the reliable data of its peer: a
// refusal sent just before a disconnect is always delivered before it.
constexpr std::uint8_t kConnectedItem = 0xF0;      // incoming: no payload
constexpr std::uint8_t kDisconnectedItem = 0xF1;   // incoming: disconnect_data (4 bytes), timed_out (1 byte)
constexpr std::uint8_t kDisconnectCommand = 0xF2;  // outgoing: the application's value (4 bytes)
constexpr std::uint8_t kDisconnectUnprovenCommand = 0xF3;  // outgoing: the application's value (4 bytes)

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

}  // namespace

struct Host::Impl {
  explicit Impl(std::unique_ptr<Endpoint> e, const HostConfig& config)
      : endpoint(std::move(e)), outgoing(config.seed), incoming(config.seed ^ kIncomingStream) {
    outgoing.SetSettings(config.link);
    incoming.SetSettings(config.link);
    outgoing.SetLog(config.outgoing_log);
    incoming.SetLog(config.incoming_log);
  }

  void Command(Micros now, PeerId peer, std::uint8_t command, std::uint32_t data);
  void Dispatch(Micros now, const ConditionedPacket& item);
  void Arrived(Micros now, const Event& event, std::vector<Event>& events);
  void Deliver(PeerId id, std::uint8_t channel, std::span<const std::uint8_t> bytes,
               std::vector<Event>& events);

  std::unique_ptr<Endpoint> endpoint;
  LinkConditioner outgoing;
  LinkConditioner incoming;
  // Every peer the application may still hear of: false until it has seen the peer's kConnected.
  std::unordered_map<PeerId, bool> connected_delivered;
  std::vector<Event> arrivals;  // the endpoint's events of one Service, reused
};

// A disconnect leaves after everything sent before it: a reliable entry when the conditioner is active.
void Host::Impl::Command(Micros now, PeerId peer, std::uint8_t command, std::uint32_t data) {
  if (!connected_delivered.contains(peer)) return;
  if (outgoing.IsActive()) {
    outgoing.Push(now, peer, command, true, U32Bytes(data));
    return;
  }
  outgoing.CountPassedThrough();
  if (command == kDisconnectCommand) {
    endpoint->Disconnect(now, peer, data);
  } else {
    endpoint->DisconnectUnproven(now, peer, data);
  }
}

void Host::Impl::Dispatch(Micros now, const ConditionedPacket& item) {
  if (item.channel == kDisconnectCommand) {
    endpoint->Disconnect(now, item.peer, BytesU32(item.data));
  } else if (item.channel == kDisconnectUnprovenCommand) {
    endpoint->DisconnectUnproven(now, item.peer, BytesU32(item.data));
  } else {
    endpoint->Send(item.peer, static_cast<protocol::Channel>(item.channel), item.data);
  }
}

// Through the incoming conditioner when it is active; straight to the application when it is not.
void Host::Impl::Arrived(Micros now, const Event& event, std::vector<Event>& events) {
  connected_delivered.try_emplace(event.peer, false);  // a connection from outside
  std::uint8_t channel = static_cast<std::uint8_t>(event.channel);
  std::array<std::uint8_t, 5> disconnected{};
  std::span<const std::uint8_t> bytes = event.data;
  if (event.type == EventType::kConnected) {
    channel = kConnectedItem;
  } else if (event.type == EventType::kDisconnected) {
    channel = kDisconnectedItem;
    const auto value = U32Bytes(event.disconnect_data);
    std::copy(value.begin(), value.end(), disconnected.begin());
    disconnected[4] = event.timed_out ? 1 : 0;
    bytes = disconnected;
  }
  if (incoming.IsActive()) {
    const bool reliable = event.type != EventType::kReceived || event.channel == protocol::Channel::kReliable;
    incoming.Push(now, event.peer, channel, reliable, bytes);
  } else {
    incoming.CountPassedThrough();
    Deliver(event.peer, channel, bytes, events);
  }
}

void Host::Impl::Deliver(PeerId id, std::uint8_t channel, std::span<const std::uint8_t> bytes,
                         std::vector<Event>& events) {
  const auto it = connected_delivered.find(id);
  if (it == connected_delivered.end()) return;  // dropped by the application, or already reported gone
  Event event;
  event.peer = id;
  if (channel == kConnectedItem) {
    it->second = true;
    event.type = EventType::kConnected;
  } else if (channel == kDisconnectedItem) {
    event.type = EventType::kDisconnected;
    event.disconnect_data = BytesU32(bytes);
    event.timed_out = bytes.back() != 0;
    connected_delivered.erase(it);
  } else {
    // Jitter can carry an unreliable packet past its connection event; the application would not know
    // the peer yet, so it is lost like any unreliable packet. Reliable data is FIFO behind the event.
    if (!it->second) return;
    event.type = EventType::kReceived;
    event.channel = static_cast<protocol::Channel>(channel);
    event.data = bytes;
  }
  events.push_back(event);
}

Host::Host(std::unique_ptr<Endpoint> endpoint, const HostConfig& config)
    : impl_(std::make_unique<Impl>(std::move(endpoint), config)) {}
Host::~Host() = default;

std::optional<PeerId> Host::Connect(const std::string& host, std::uint16_t port, std::string* error) {
  const std::optional<PeerId> peer = impl_->endpoint->Connect(host, port, error);
  if (peer) impl_->connected_delivered.emplace(*peer, false);
  return peer;
}

void Host::Send(Micros now, PeerId peer, protocol::Channel channel, std::span<const std::uint8_t> payload) {
  Impl& s = *impl_;
  if (!s.connected_delivered.contains(peer)) return;
  if (s.outgoing.IsActive()) {
    s.outgoing.Push(now, peer, static_cast<std::uint8_t>(channel), channel == protocol::Channel::kReliable,
                    payload);
    return;
  }
  s.outgoing.CountPassedThrough();
  s.endpoint->Send(peer, channel, payload);
}

void Host::Disconnect(Micros now, PeerId peer, std::uint32_t data) {
  impl_->Command(now, peer, kDisconnectCommand, data);
}

void Host::DisconnectUnproven(Micros now, PeerId peer, std::uint32_t data) {
  impl_->Command(now, peer, kDisconnectUnprovenCommand, data);
}

void Host::MarkProven(PeerId peer) { impl_->endpoint->MarkProven(peer); }

void Host::Drop(PeerId peer) {
  impl_->endpoint->Drop(peer);
  impl_->connected_delivered.erase(peer);
}

void Host::Service(Micros now, std::vector<Event>& events) {
  Impl& s = *impl_;
  s.outgoing.Poll(now, [&s, now](const ConditionedPacket& item) { s.Dispatch(now, item); });
  s.arrivals.clear();
  s.endpoint->Service(now, s.arrivals);
  for (const Event& event : s.arrivals) s.Arrived(now, event, events);
  s.incoming.Poll(now, [&s, &events](const ConditionedPacket& item) {
    s.Deliver(item.peer, item.channel, item.data, events);
  });
}

void Host::Flush() { impl_->endpoint->Flush(); }

void Host::SetLink(const LinkSettings& settings) {
  impl_->outgoing.SetSettings(settings);
  impl_->incoming.SetSettings(settings);
}

const LinkSettings& Host::link() const { return impl_->outgoing.settings(); }

std::uint16_t Host::port() const { return impl_->endpoint->port(); }

TransportCounters Host::counters() const {
  TransportCounters counters = impl_->endpoint->counters();
  counters.outgoing = impl_->outgoing.counters();
  counters.incoming = impl_->incoming.counters();
  return counters;
}

std::optional<std::uint32_t> Host::EnetRttMs(PeerId peer) const { return impl_->endpoint->RttMs(peer); }

}  // namespace netcube::transport
