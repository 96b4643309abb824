// libFuzzer target for the server's receive path: the server gets a script of transport events
// (server_fuzz_script.h) through Server::HandleEvents: connections, any bytes on either channel before
// and after the ConnectRequest, disconnects, interest management turned on and off, and time passing so
// that ticks and snapshots run on whatever was accepted. It must never crash, its views must stay
// consistent after every step, and once every peer has left it must hold nothing of them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "netcube/server/server.h"
#include "server_fuzz_script.h"
#include "tuning.h"  // the server's limits, which these tests push against

namespace {

using namespace netcube;
using fuzz::ServerOp;

constexpr std::size_t kMaxClients = 2;  // small, so that "server full" is reachable

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "server_fuzzer: %s\n", what);
  std::abort();
}

// What must hold whatever the peers sent, `elapsed` after the input started.
void CheckInvariants(const server::Server& server, Micros elapsed) {
  const std::vector<server::ClientInfo> clients = server.clients();
  const std::span<const sim::PlayerCube> world = server.world();
  if (clients.size() > kMaxClients) Fail("more clients than max_clients");
  if (world.size() != clients.size()) Fail("world and client list differ in size");
  if (server.recent_tags().size() > server::kRecentTags) Fail("tag log over its bound");
  for (std::size_t i = 0; i < world.size(); ++i) {
    if (world[i].id != clients[i].id) Fail("world and client list differ in ids");
    if (i > 0 && world[i].id <= world[i - 1].id) Fail("player ids not strictly increasing");
    const sim::CubeState& s = world[i].state;
    if (!server.config().arena.Contains(s.x, s.y)) Fail("cube outside the arena");
    if (clients[i].queued_inputs > server::kMaxQueuedInputs) Fail("input queue over its bound");
    // The rate limit: real time grants one input per simulation step, a backlog included, applied at
    // most kMaxCatchUpRate per step. Whatever a client sends, it cannot get more.
    const std::int64_t steps = elapsed.count() * sim::kTicksPerSecond / 1'000'000 + 1;
    const auto allowed = static_cast<std::uint64_t>(
        std::min<std::int64_t>(steps + server::kMaxInputBacklogSteps, steps * server::kMaxCatchUpRate));
    if (clients[i].inputs.processed > allowed) Fail("more inputs applied than the rate limit allows");
    // Tags: one per cooldown, plus the burst tolerance's one.
    const std::int64_t tags_allowed = elapsed.count() / (sim::kTagCooldownMs * 1000) + 2;
    if (clients[i].tags_fired > static_cast<std::uint64_t>(tags_allowed))
      Fail("more tags judged than the cooldown allows");
  }
}

class ScriptReader {
 public:
  ScriptReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool Byte(std::uint8_t& out) {
    if (pos_ >= size_) return false;
    out = data_[pos_++];
    return true;
  }
  bool Bytes(std::size_t count, std::span<const std::uint8_t>& out) {
    if (size_ - pos_ < count) return false;
    out = std::span<const std::uint8_t>(data_ + pos_, count);
    pos_ += count;
    return true;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// One server for the whole run: building a fresh one for every input (its buffers are sized for 256
// players) would cost more than the input itself. Each input starts on a tick boundary with no peers and
// ends with every one of its peers gone, so inputs do not see each other: only the tick number, the
// statistics and the peer ids (never reused, as in the transport) carry over.
server::Server& TheServer() {
  static const std::unique_ptr<server::Server> server = [] {
    server::ServerConfig config;
    config.bind_address = "127.0.0.1";
    config.port = 0;
    config.max_clients = kMaxClients;
    config.nonce_source = [] { return fuzz::kFuzzNonce; };
    config.snapshot_rate = 60;          // a snapshot every tick, so no snapshot phase carries over
    config.interest_radius_units = 16;  // short of the arena: with interest on, some cubes are left out
    std::string error;
    auto created = server::Server::Create(config, Micros{0}, &error);
    if (!created) Fail(error.c_str());
    return created;
  }();
  return *server;
}

class Session {
 public:
  explicit Session(server::Server& server) : server_(server) {
    server_.SetInterest(false);  // as the input before may have left it
    now_ = server_.next_wakeup();
    server_.Update(now_);
    start_ = now_;
  }

  // Runs the script until it ends or an operation is cut short.
  void Run(ScriptReader& script) {
    for (std::uint8_t op = 0; script.Byte(op);) {
      if (!Step(static_cast<ServerOp>(op % fuzz::kServerOpCount), script)) return;
      CheckInvariants(server_, now_ - start_);
    }
  }

  // Every peer of this input leaves; the server must then hold nothing of them.
  void End() {
    for (transport::PeerId id = first_peer_; id < first_peer_ + peers_; ++id) {
      transport::Event leave;
      leave.type = transport::EventType::kDisconnected;
      leave.peer = id;
      Deliver(std::move(leave));
    }
    if (!server_.clients().empty() || !server_.world().empty())
      Fail("players left behind after every peer left");
    if (server_.peer_count() != 0) Fail("connections left behind after every peer left");
    next_first_peer_ += static_cast<transport::PeerId>(peers_);
  }

 private:
  bool Step(ServerOp op, ScriptReader& script) {
    transport::Event event;
    switch (op) {
      case ServerOp::kConnect:
        if (peers_ == fuzz::kMaxPeers) return true;
        event.type = transport::EventType::kConnected;
        event.peer = first_peer_ + static_cast<transport::PeerId>(peers_++);
        break;
      case ServerOp::kPacket: {
        std::uint8_t peer = 0, channel = 0, length_low = 0, length_high = 0;
        std::span<const std::uint8_t> payload;
        if (!script.Byte(peer) || !script.Byte(channel) || !script.Byte(length_low) ||
            !script.Byte(length_high)) {
          return false;
        }
        const std::size_t length =
            std::min<std::size_t>(length_low | (std::size_t{length_high} << 8), fuzz::kMaxPacketLength);
        if (!script.Bytes(length, payload)) return false;
        event.type = transport::EventType::kReceived;
        event.peer = PeerOf(peer);
        event.channel = static_cast<protocol::Channel>(channel & 1);
        event.data = payload;
        break;
      }
      case ServerOp::kAdvance: {
        std::uint8_t milliseconds = 0;
        if (!script.Byte(milliseconds)) return false;
        now_ += Micros(std::int64_t{milliseconds} * 1000);
        server_.Update(now_);
        return true;
      }
      case ServerOp::kInterest: {
        std::uint8_t on = 0;
        if (!script.Byte(on)) return false;
        server_.SetInterest((on & 1) != 0);
        return true;
      }
      case ServerOp::kDisconnect: {
        std::uint8_t peer = 0, timed_out = 0;
        if (!script.Byte(peer) || !script.Byte(timed_out)) return false;
        event.type = transport::EventType::kDisconnected;
        event.peer = PeerOf(peer);
        event.timed_out = (timed_out & 1) != 0;
        break;
      }
    }
    Deliver(std::move(event));
    return true;
  }

  // One of this input's peers (before any has connected: one the server has never seen).
  transport::PeerId PeerOf(std::uint8_t index) const {
    return peers_ == 0 ? first_peer_ : first_peer_ + static_cast<transport::PeerId>(index % peers_);
  }

  void Deliver(transport::Event event) {
    events_.clear();
    events_.push_back(std::move(event));
    server_.HandleEvents(now_, events_);
  }

  static inline transport::PeerId next_first_peer_ = 1;
  server::Server& server_;
  const transport::PeerId first_peer_ = next_first_peer_;
  std::size_t peers_ = 0;
  Micros now_{0};
  Micros start_{0};
  std::vector<transport::Event> events_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ScriptReader script(data, size);
  Session session(TheServer());
  session.Run(script);
  session.End();
  return 0;
}
