#include "netcube/transport/memory_network.h"

#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "netcube/transport/recycled_buffers.h"

namespace netcube::transport {
namespace {

constexpr std::uint16_t kFirstEphemeralPort = 49152;
// ENet's peer timeout when a config leaves it at 0.
constexpr std::uint32_t kDefaultTimeoutMs = 5000;
// A listener bound to this name answers at its port whatever name a client asked for.
constexpr const char* kAnyAddress = "0.0.0.0";

enum class Kind : std::uint8_t {
  kRequest,     // a connection asked for
  kAccept,      // the listener took it
  kAck,         // the client heard the accept: both ends are connected
  kData,        // a payload on a channel
  kGoodbye,     // a polite disconnect, with the application's value
  kGoodbyeAck,  // the goodbye was heard
  kGone,        // not sent by anyone: the hub's stand-in for the silence of a peer that vanished
};

struct Datagram {
  Datagram(Kind k, std::uint64_t l, std::uint32_t f, protocol::Channel c = protocol::Channel::kReliable,
           std::uint32_t v = 0, std::vector<std::uint8_t> b = {})
      : kind(k), link(l), from(f), channel(c), value(v), bytes(std::move(b)) {}
  Kind kind = Kind::kData;
  std::uint64_t link = 0;  // the connection, the same number at both ends
  std::uint32_t from = 0;  // the sending endpoint (a request's accept goes there)
  protocol::Channel channel = protocol::Channel::kReliable;
  std::uint32_t value = 0;  // a goodbye's
  std::vector<std::uint8_t> bytes;
};

class MemoryEndpoint;

}  // namespace

struct MemoryNetwork::Hub {
  struct Bound {
    std::string name;
    std::uint16_t port = 0;
    bool listening = false;
  };
  std::unordered_map<std::uint32_t, std::pair<Bound, MemoryEndpoint*>> endpoints;
  std::uint32_t next_endpoint = 1;
  std::uint64_t next_link = 1;
  std::uint16_t next_port = kFirstEphemeralPort;
  SpareBytes spare;  // every host's: a server sends far more than it receives, its clients the reverse

  bool Taken(const std::string& name, std::uint16_t port) const {
    for (const auto& [id, entry] : endpoints) {
      if (entry.first.name == name && entry.first.port == port) return true;
    }
    return false;
  }

  // The port to bind `name` to (`port`, or the next free ephemeral one), or nothing if it is taken.
  std::optional<std::uint16_t> FreePort(const std::string& name, std::uint16_t port) {
    if (port != 0) return Taken(name, port) ? std::nullopt : std::optional(port);
    for (int tries = 0; tries < 65536 - kFirstEphemeralPort; ++tries) {
      const std::uint16_t candidate = next_port;
      next_port = next_port == 65535 ? kFirstEphemeralPort : static_cast<std::uint16_t>(next_port + 1);
      if (!Taken(name, candidate)) return candidate;
    }
    return std::nullopt;
  }

  // The listener at name:port (or at kAnyAddress:port); 0 for none.
  std::uint32_t ListenerAt(const std::string& name, std::uint16_t port) const {
    std::uint32_t any = 0;
    for (const auto& [id, entry] : endpoints) {
      const Bound& bound = entry.first;
      if (!bound.listening || bound.port != port) continue;
      if (bound.name == name) return id;
      if (bound.name == kAnyAddress) any = id;
    }
    return any;
  }

  MemoryEndpoint* Find(std::uint32_t id) const {
    const auto it = endpoints.find(id);
    return it == endpoints.end() ? nullptr : it->second.second;
  }
};

namespace {

using Hub = MemoryNetwork::Hub;

class MemoryEndpoint final : public Endpoint {
 public:
  MemoryEndpoint(std::shared_ptr<Hub> hub, const HostConfig& config, std::uint32_t id, std::uint16_t port,
                 std::size_t max_peers)
      : hub_(std::move(hub)),
        id_(id),
        port_(port),
        max_peers_(max_peers),
        timeout_(std::chrono::milliseconds(config.timeout_ms == 0 ? kDefaultTimeoutMs : config.timeout_ms)) {}

  ~MemoryEndpoint() override {
    for (const auto& [id, peer] : peers_) TellGone(peer);
    hub_->endpoints.erase(id_);
  }

  std::optional<PeerId> Connect(const std::string& host, std::uint16_t port,
                                std::string* /*error*/) override {
    // Nobody there is no error, as with UDP: the request is lost and the connection times out.
    const std::uint32_t listener = hub_->ListenerAt(host, port);
    const PeerId id = AddPeer(hub_->next_link++, listener, State::kRequesting);
    Post(listener, Datagram(Kind::kRequest, peers_.at(id).link, id_));
    return id;
  }

  void Send(PeerId id, protocol::Channel channel, std::span<const std::uint8_t> payload) override {
    const auto it = peers_.find(id);
    if (it == peers_.end() || it->second.state != State::kConnected ||
        payload.size() > protocol::kMaxPacketBytes) {
      return;
    }
    ++totals_.packets_sent;
    totals_.payload_bytes_sent += payload.size();
    Post(it->second.remote,
         Datagram(Kind::kData, it->second.link, id_, channel, 0, CopyToSpare(hub_->spare, payload)));
  }

  void Disconnect(Micros /*now*/, PeerId id, std::uint32_t data) override {
    const auto it = peers_.find(id);
    if (it == peers_.end() || it->second.state == State::kClosing) return;
    Peer& peer = it->second;
    Post(peer.remote, Datagram(Kind::kGoodbye, peer.link, id_, protocol::Channel::kReliable, data));
    if (peer.state == State::kConnected) {
      peer.state = State::kClosing;  // until the goodbye is acknowledged
      return;
    }
    // A connection still being set up ends at once, as ENet resets it.
    Forget(it, DisconnectedEvent(id, 0, false), raised_);
  }

  void DisconnectUnproven(Micros now, PeerId id, std::uint32_t data) override { Disconnect(now, id, data); }
  void MarkProven(PeerId /*id*/) override {}

  void Drop(PeerId id) override {
    const auto it = peers_.find(id);
    if (it == peers_.end()) return;
    TellGone(it->second);
    std::erase_if(outbox_, [&](Posted& posted) {
      if (posted.datagram.link != it->second.link) return false;
      GiveToSpare(hub_->spare, std::move(posted.datagram.bytes));
      return true;
    });
    by_link_.erase(it->second.link);
    peers_.erase(it);
  }

  void Service(Micros now, std::vector<Event>& events) override {
    Flush();
    for (Datagram& datagram : reading_) GiveToSpare(hub_->spare, std::move(datagram.bytes));
    reading_.clear();
    std::swap(reading_, inbox_);  // read in place until the next Service
    for (const Datagram& datagram : reading_) Handle(now, datagram, events);
    Flush();  // the answers leave in the same Service, as ENet's do
    TimeOut(now, events);
    events.insert(events.end(), raised_.begin(), raised_.end());
    raised_.clear();
  }

  void Flush() override {
    for (Posted& posted : outbox_) {
      ++totals_.wire_packets_sent;
      totals_.wire_bytes_sent += posted.datagram.bytes.size();
      if (MemoryEndpoint* to = hub_->Find(posted.to)) {
        to->inbox_.push_back(std::move(posted.datagram));
      } else {
        GiveToSpare(hub_->spare, std::move(posted.datagram.bytes));  // nobody there: lost
      }
    }
    outbox_.clear();
  }

  std::uint16_t port() const override { return port_; }
  TransportCounters counters() const override { return totals_; }
  std::optional<std::uint32_t> RttMs(PeerId /*id*/) const override { return std::nullopt; }

 private:
  enum class State : std::uint8_t {
    kRequesting,  // ours, asked for: kDisconnected (timed out) if nobody accepts
    kAccepting,   // from outside, accepted: the application hears of it only once it is acknowledged
    kConnected,
    kClosing,  // our goodbye is on its way
  };
  struct Peer {
    std::uint64_t link = 0;
    std::uint32_t remote = 0;  // the endpoint at the other end (0: nobody)
    State state = State::kRequesting;
    // Since when nothing can come from the other end: an unanswered request, or a peer that vanished.
    std::optional<Micros> silent_since;
  };
  struct Posted {
    std::uint32_t to;
    Datagram datagram;
  };
  using Peers = std::map<PeerId, Peer>;  // ordered: timeouts are told in the same order on every run

  PeerId AddPeer(std::uint64_t link, std::uint32_t remote, State state) {
    const PeerId id = next_peer_id_++;
    peers_[id] = Peer{link, remote, state, std::nullopt};
    by_link_[link] = id;
    return id;
  }

  void Post(std::uint32_t to, Datagram datagram) { outbox_.push_back(Posted{to, std::move(datagram)}); }

  // The other end notices the silence; the hub tells it at once, and it waits timeout_ms as ENet would.
  void TellGone(const Peer& peer) {
    if (MemoryEndpoint* remote = hub_->Find(peer.remote))
      remote->inbox_.emplace_back(Kind::kGone, peer.link, id_);
  }

  // Ends the connection; the application hears `event` unless it never heard of the peer (a connection
  // from outside that was never acknowledged), as with ENet.
  void Forget(Peers::iterator it, const Event& event, std::vector<Event>& events) {
    if (it->second.state != State::kAccepting) events.push_back(event);
    by_link_.erase(it->second.link);
    peers_.erase(it);
  }

  void Handle(Micros now, const Datagram& datagram, std::vector<Event>& events) {
    ++totals_.wire_packets_received;
    totals_.wire_bytes_received += datagram.bytes.size();
    const auto known = by_link_.find(datagram.link);
    if (datagram.kind == Kind::kRequest) {
      if (known == by_link_.end() && peers_.size() < max_peers_) {
        AddPeer(datagram.link, datagram.from, State::kAccepting);
        Post(datagram.from, Datagram(Kind::kAccept, datagram.link, id_));
      }
      return;  // a full host ignores it: the other end times out
    }
    if (known == by_link_.end()) return;
    const PeerId id = known->second;
    const auto it = peers_.find(id);
    Peer& peer = it->second;
    switch (datagram.kind) {
      case Kind::kAccept:
        if (peer.state != State::kRequesting) return;
        peer.state = State::kConnected;
        peer.remote = datagram.from;
        peer.silent_since.reset();
        Post(peer.remote, Datagram(Kind::kAck, peer.link, id_));
        events.push_back(ConnectedEvent(id));
        return;
      case Kind::kAck:
        if (peer.state != State::kAccepting) return;
        peer.state = State::kConnected;
        events.push_back(ConnectedEvent(id));
        return;
      case Kind::kData:
        if (peer.state != State::kConnected) return;  // after our goodbye, nothing more is read
        ++totals_.packets_received;
        totals_.payload_bytes_received += datagram.bytes.size();
        events.push_back(ReceivedEvent(id, datagram.channel, datagram.bytes));
        return;
      case Kind::kGoodbye:
        Post(peer.remote, Datagram(Kind::kGoodbyeAck, peer.link, id_));
        Forget(it, DisconnectedEvent(id, datagram.value, false), events);
        return;
      case Kind::kGoodbyeAck:
        if (peer.state == State::kClosing) Forget(it, DisconnectedEvent(id, 0, false), events);
        return;
      case Kind::kGone:
        if (!peer.silent_since) peer.silent_since = now;
        return;
      case Kind::kRequest:
        return;
    }
  }

  void TimeOut(Micros now, std::vector<Event>& events) {
    for (auto it = peers_.begin(); it != peers_.end();) {
      Peer& peer = it->second;
      if (peer.state == State::kRequesting && !peer.silent_since) peer.silent_since = now;
      if (!peer.silent_since || now - *peer.silent_since < timeout_) {
        ++it;
        continue;
      }
      const auto next = std::next(it);
      // Our own goodbye's end is not a timeout.
      const bool timed_out = peer.state != State::kClosing;
      Forget(it, DisconnectedEvent(it->first, 0, timed_out), events);
      it = next;
    }
  }

  std::shared_ptr<Hub> hub_;
  std::uint32_t id_;
  std::uint16_t port_;
  std::size_t max_peers_;
  Micros timeout_;
  Peers peers_;
  std::unordered_map<std::uint64_t, PeerId> by_link_;
  PeerId next_peer_id_ = 1;
  std::vector<Posted> outbox_;     // leaves at the next Service or Flush
  std::vector<Datagram> inbox_;    // arrived, read at the next Service
  std::vector<Datagram> reading_;  // the last Service's, whose payloads the application reads in place
  std::vector<Event> raised_;      // connections this endpoint ended between Services
  TransportCounters totals_;
};

std::unique_ptr<Endpoint> Bind(const std::shared_ptr<Hub>& hub, const HostConfig& config, std::uint16_t port,
                               bool listening, std::size_t max_peers, std::string* error) {
  const std::optional<std::uint16_t> free = hub->FreePort(config.bind_address, port);
  if (!free) {
    *error = "cannot bind " + config.bind_address + ":" + std::to_string(port) + " in memory (in use)";
    return nullptr;
  }
  const std::uint32_t id = hub->next_endpoint++;
  auto endpoint = std::make_unique<MemoryEndpoint>(hub, config, id, *free, max_peers);
  hub->endpoints[id] = {Hub::Bound{config.bind_address, *free, listening}, endpoint.get()};
  return endpoint;
}

}  // namespace

MemoryNetwork::MemoryNetwork() : hub_(std::make_shared<Hub>()) {}
MemoryNetwork::~MemoryNetwork() = default;

std::unique_ptr<Endpoint> MemoryNetwork::ListenEndpoint(const HostConfig& config, std::string* error) {
  if (config.max_peers == 0) {
    *error = "max_peers must be at least 1";
    return nullptr;
  }
  return Bind(hub_, config, config.port, true, config.max_peers, error);
}

std::unique_ptr<Endpoint> MemoryNetwork::OutgoingEndpoint(const HostConfig& config, std::string* error) {
  return Bind(hub_, config, 0, false, 1, error);
}

}  // namespace netcube::transport
