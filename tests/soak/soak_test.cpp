// Soak: one server and 32 netcube::client players churning (random connects, polite leaves and abrupt
// drops) and tagging about at the cooldown, under the `harsh` profile of assets/link_profiles.json, on a
// virtual clock over real loopback sockets. NETCUBE_SOAK_SECONDS sets the simulated length (default 60).
// Under attack: 64 players, each from its own 127.0.0.x, while a hostile peer of every kind in
// tests/hostile attacks throughout, and 8 churners join and leave in a loop (default 10 s; issue 27's
// reliability goal is an hour of it under ASan, docs/SECURITY.md).
//
// Asserted: nothing crashes (and the sanitizer build reports nothing); no client is ever refused or lost;
// the server never applies more inputs for a player than that player generated (an input applied twice
// would); and once everyone has stopped and settled, every client's state equals the server's exactly.
// Under attack also: the hostile peers got nowhere (nothing let through that the filter should drop, a
// browser still answered), and after two minutes or more, the process's resident set at the end is within
// 10% of what it was after the first minute.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "hostile/attacker.h"
#include "link_profiles.h"
#include "netcube/client/client.h"
#include "netcube/discovery/responder.h"
#include "netcube/protocol/discovery.h"
#include "netcube/transport/link_profile.h"
#include "support/loopback_rig.h"

namespace netcube {
namespace {

// Server and clients update every 4 ms of simulated time: a 250 fps client, faster than any display.
constexpr Micros kStep{4000};
constexpr std::int64_t kStepsPerSecond = 1'000'000 / kStep.count();
constexpr Micros kCheckInterval{1'000'000};
constexpr Micros kSettleLimit{60'000'000};
constexpr Micros kStillSettled{2'000'000};  // everyone settled this long: nothing in flight can move a cube
// Real time allowed: 12 minutes, and 4 times the simulated length beyond (an hour under ASan).
constexpr auto kRealTimeGuard = std::chrono::minutes(12);
constexpr double kRealTimePerSimulatedSecond = 4.0;
// The resident set is compared with the one after this much simulated time, in runs of twice as long.
constexpr Micros kFirstMinute{60'000'000};

double SoakSeconds(double default_seconds) {
  const char* text = std::getenv("NETCUBE_SOAK_SECONDS");
  if (text == nullptr || *text == '\0') return default_seconds;
  const double seconds = std::strtod(text, nullptr);
  return seconds > 0.0 ? seconds : default_seconds;
}

// Every kind of hostile peer of tests/hostile, each from its own address and re-made whenever the server
// has (or may have) dropped it, so all are active for the whole soak. What each does is in its comment.
class HostilePeers {
 public:
  static std::unique_ptr<HostilePeers> Start(std::uint16_t server_port, std::string* error) {
    auto peers = std::unique_ptr<HostilePeers>(new HostilePeers(server_port));
    discovery::ResponderConfig config;
    config.bind_address = "127.0.0.1";
    config.port = 0;
    config.multicast = false;
    peers->responder_ = discovery::Responder::Open(config, error);
    if (peers->responder_ == nullptr) return nullptr;
    for (int i = 0; i < kConnectFloodAddresses; ++i) {
      peers->connect_flood_.push_back(hostile::UdpSocket::Bind("127.0.1." + std::to_string(1 + i), error));
      if (peers->connect_flood_.back() == nullptr) return nullptr;
    }
    for (int i = 0; i < kDiscoveryFloodSources; ++i) {
      peers->discovery_flood_.push_back(hostile::UdpSocket::Bind("127.0.2." + std::to_string(1 + i), error));
      if (peers->discovery_flood_.back() == nullptr) return nullptr;
    }
    peers->handshakes_.emplace(peers->connect_flood_, server_port);
    peers->browser_ = hostile::UdpSocket::Bind("127.0.0.8", error);
    if (peers->browser_ == nullptr) return nullptr;
    return peers;
  }

  void Step(Micros now, const server::Server& server) {
    if (now >= next_handshakes_) {  // the flood's cadence is every 10 ms of its own clock
      handshakes_->Step(next_handshakes_);
      next_handshakes_ += Micros(10'000);
    }
    for (ParkedCommands& parked : parked_) parked.Step(now, port_);
    for (Refused& refused : refused_) refused.Step(now, port_);
    jumper_.Step(now, port_);
    for (Churner& churner : churners_) churner.Step(now, port_);
    AskDiscovery(now, server);
  }

  // A summary line, and whether the hostile peers got nowhere.
  void Report(const server::Server& server) const {
    const server::ServerStats stats = server.stats();
    std::printf(
        "hostile: %llu CONNECTs from %d addresses, %d parked-command connections (%llu datagrams), %d "
        "refused "
        "requests, %d sequence-jumping sessions (%llu jumps); discovery: browser answered %d of %d, %llu "
        "flood queries; server: %llu datagrams filtered, %llu evicted, %llu reset, %llu kicked, %llu "
        "refused, "
        "network service at most %lld ms of CPU\n",
        static_cast<unsigned long long>(handshakes_->requests()), kConnectFloodAddresses,
        parked_[0].connections + parked_[1].connections,
        static_cast<unsigned long long>(parked_[0].datagrams + parked_[1].datagrams),
        refused_[0].connections + refused_[1].connections, jumper_.sessions,
        static_cast<unsigned long long>(jumper_.jumps), browser_answered_, browser_asked_,
        static_cast<unsigned long long>(discovery_queries_),
        static_cast<unsigned long long>(stats.datagrams_filtered),
        static_cast<unsigned long long>(stats.peers_evicted),
        static_cast<unsigned long long>(stats.peers_reset),
        static_cast<unsigned long long>(stats.peers_kicked),
        static_cast<unsigned long long>(stats.clients_refused),
        static_cast<long long>(stats.network_durations.max.count() / 1000));
  }

  int browser_asked() const { return browser_asked_; }
  int browser_answered() const { return browser_answered_; }
  int jumper_sessions() const { return jumper_.sessions; }
  int churner_joins() const {
    int joins = 0;
    for (const Churner& churner : churners_) joins += churner.joins;
    return joins;
  }
  static constexpr int kChurners = 8;

 private:
  static constexpr int kConnectFloodAddresses = 100;  // 800 handshakes: more than the server's peer table
  static constexpr int kDiscoveryFloodSources = 250;
  static constexpr std::int64_t kDiscoveryQueriesPerStep = 1000 / kStepsPerSecond;  // 1,000 a second
  static constexpr Micros kBrowserInterval{1'000'000};

  // Zero-length sequenced commands on channel 1 naming reliable numbers still to come, 511 a datagram,
  // 500 datagrams a second, in ascending or descending order, over an ENet connection that never sends its
  // ConnectRequest (so the server resets it after 2 s; it connects again every 2.5 s).
  struct ParkedCommands {
    std::string source;
    bool descending = false;
    std::unique_ptr<hostile::EnetIntruder> intruder;
    Micros reconnect_at{0};
    std::uint32_t next = 0;
    int connections = 0;
    std::uint64_t datagrams = 0;
    std::vector<std::uint8_t> datagram;

    void Step(Micros now, std::uint16_t port) {
      static constexpr std::uint32_t kCommands = 40'000;  // the descending attack's length, then again
      static constexpr std::size_t kPerDatagram = 511;
      static constexpr std::int64_t kDatagramsPerStep = 500 / kStepsPerSecond;
      if (now >= reconnect_at) {
        std::string error;
        intruder.reset();  // first: one ENet host of this address at a time
        intruder = hostile::EnetIntruder::Connect(source, port, &error);
        reconnect_at = now + Micros(2'500'000);
        ++connections;
      }
      if (intruder == nullptr) return;
      intruder->Service();
      if (!intruder->connected()) return;
      for (std::int64_t d = 0; d < kDatagramsPerStep; ++d) {
        datagram.clear();
        for (std::size_t c = 0; c < kPerDatagram; ++c, next = (next + 1) % kCommands) {
          const std::uint32_t n = descending ? kCommands - 1 - next : next;
          hostile::EnetIntruder::AppendEmptyUnreliable(datagram, 1,
                                                       static_cast<std::uint16_t>(1 + n / 0xFFFF),
                                                       static_cast<std::uint16_t>(1 + n % 0xFFFF));
        }
        intruder->SendCommands(datagram);
        ++datagrams;
      }
    }
  };

  // A request the server refuses (an old version's, or a single byte), from a new ENet connection every
  // second.
  struct Refused {
    std::string source;
    std::vector<std::uint8_t> request;
    std::unique_ptr<hostile::EnetIntruder> intruder;
    Micros reconnect_at{0};
    bool sent = false;
    int connections = 0;

    void Step(Micros now, std::uint16_t port) {
      if (now >= reconnect_at) {
        std::string error;
        intruder.reset();
        intruder = hostile::EnetIntruder::Connect(source, port, &error);
        reconnect_at = now + Micros(1'000'000);
        sent = false;
      }
      if (intruder == nullptr) return;
      intruder->Service();
      if (intruder->connected() && !sent) {
        intruder->SendPacket(0, request, true);
        sent = true;
        ++connections;
      }
    }
  };

  // A player that joins properly, then jumps its input sequence by 999 with every packet, 60 a second
  // (under the 1,024 that would be malformed): it must count no more lost inputs than time allows, and is
  // not kicked. Joins again if it is.
  struct SequenceJumper {
    std::unique_ptr<testing::TestClient> client;
    bool asked = false;
    sim::Seq seq = 1;
    Micros next_send{0};
    int sessions = 0;
    std::uint64_t jumps = 0;

    void Step(Micros now, std::uint16_t port) {
      if (client == nullptr || client->inbox().disconnected) {
        transport::HostConfig config;
        config.bind_address = "127.0.0.6";
        std::string error;
        client.reset();
        client = testing::TestClient::Connect(port, config, &error);
        asked = false;
        ++sessions;
      }
      if (client == nullptr) return;
      client->Poll(now);
      if (client->inbox().connected && !asked) asked = client->SendConnectRequest(now, "jumper");
      if (!client->inbox().welcome || now < next_send) return;
      protocol::InputMessage message;
      message.inputs.push_back(sim::Input{seq, 0});
      client->Send(now, message);
      seq += 999;
      ++jumps;
      next_send = now + Micros(16'667);
    }
  };

  // A player that joins and leaves in a loop from its own address, as fast as the server lets it (issue
  // 44's churn): a polite leave as soon as it is welcomed, then a new connection. The server's per-address
  // meter holds it to a few joins a second, and the honest players' replays say its cube coming and going.
  struct Churner {
    std::string source;
    std::unique_ptr<testing::TestClient> client;
    bool asked = false;
    bool leaving = false;
    int joins = 0;

    void Step(Micros now, std::uint16_t port) {
      if (client == nullptr || client->inbox().disconnected) {
        transport::HostConfig config;
        config.bind_address = source;
        std::string error;
        client.reset();
        client = testing::TestClient::Connect(port, config, &error);
        asked = leaving = false;
      }
      if (client == nullptr) return;
      client->Poll(now);
      if (client->inbox().connected && !asked) asked = client->SendConnectRequest(now, "churner");
      if (client->inbox().welcome && !leaving) {
        client->Disconnect(now);
        leaving = true;
        ++joins;
      }
    }
  };

  explicit HostilePeers(std::uint16_t port) : port_(port) {
    for (std::size_t i = 0; i < churners_.size(); ++i)
      churners_[i].source = "127.0.3." + std::to_string(1 + i);
    parked_[0].source = "127.0.0.2";
    parked_[1].source = "127.0.0.3";
    parked_[1].descending = true;
    refused_[0].source = "127.0.0.4";
    refused_[0].request.resize(protocol::kMaxPacketBytes);
    refused_[0].request.resize(protocol::Encode(
        protocol::ConnectRequest{protocol::kProtocolMagic,
                                 static_cast<std::uint16_t>(protocol::kProtocolVersion - 1), "old"},
        refused_[0].request));
    refused_[1].source = "127.0.0.5";
    refused_[1].request = {0x00};
  }

  // 1,000 discovery queries a second from 250 sources, and a browser on the LAN asking once a second.
  void AskDiscovery(Micros now, const server::Server& server) {
    std::array<std::uint8_t, protocol::kDiscoveryQueryBytes> query{};
    protocol::EncodeDiscoveryQuery({protocol::kProtocolVersion, 1}, query);
    for (std::int64_t i = 0; i < kDiscoveryQueriesPerStep; ++i) {
      discovery_flood_[next_source_]->SendTo(responder_->port(), query);
      discovery_flood_[next_source_]->Drain();
      next_source_ = (next_source_ + 1) % discovery_flood_.size();
      ++discovery_queries_;
    }
    if (now >= next_browse_) {
      browser_->SendTo(responder_->port(), query);
      ++browser_asked_;
      next_browse_ = now + kBrowserInterval;
    }
    protocol::DiscoveryReply info;
    info.port = server.port();
    info.players = static_cast<std::uint16_t>(server.clients().size());
    info.max_players = static_cast<std::uint16_t>(protocol::kMaxPlayers);
    info.tick_rate = 60;
    info.snapshot_rate = 20;
    info.max_snapshot_rate = 60;
    info.name = "soak";
    responder_->Service(now, info);
    if (browser_->Drain() > 0) ++browser_answered_;
  }

  std::uint16_t port_;
  std::vector<std::unique_ptr<hostile::UdpSocket>> connect_flood_;
  std::optional<hostile::HandshakeFlood> handshakes_;  // over connect_flood_, once it is filled
  Micros next_handshakes_{0};
  std::array<ParkedCommands, 2> parked_;
  std::array<Refused, 2> refused_;
  SequenceJumper jumper_;
  std::array<Churner, kChurners> churners_;
  std::unique_ptr<discovery::Responder> responder_;
  std::vector<std::unique_ptr<hostile::UdpSocket>> discovery_flood_;
  std::size_t next_source_ = 0;
  std::uint64_t discovery_queries_ = 0;
  std::unique_ptr<hostile::UdpSocket> browser_;
  Micros next_browse_{0};
  int browser_asked_ = 0;
  int browser_answered_ = 0;
};

Micros RandomMicros(std::mt19937_64& rng, double min_s, double max_s) {
  return Micros(static_cast<std::int64_t>(std::uniform_real_distribution<double>(min_s, max_s)(rng) * 1e6));
}

// One player slot: offline, then a session (connect, play, leave), again and again.
struct Slot {
  int index = 0;
  std::unique_ptr<client::Client> client;
  int sessions = 0;
  bool online = false;
  bool playing = false;
  Micros next_change{0};  // when it next connects (offline) or stops playing and leaves (online)
  std::uint8_t buttons = 0;
  Micros next_buttons{0};
  Micros next_tag{0};

  std::string name() const {
    std::string name = "s";  // built step by step: g++ 12 misreports operator+ chains (-Wrestrict)
    name += std::to_string(index);
    name += '-';
    name += std::to_string(sessions);
    return name;
  }
};

class Soak : public ::testing::Test {
 protected:
  // `players` slots on 127.0.0.1; under attack, each slot from its own 127.0.0.x beside the hostile peers.
  void Begin(int players, bool under_attack) {
    std::string error;
    const auto profiles = apps::LoadLinkProfiles(apps::LinkProfilesPath(), &error);
    const auto harsh = transport::FindLinkProfile(profiles, "harsh");
    ASSERT_TRUE(harsh.has_value()) << "no harsh profile: " << error;
    link_ = harsh->settings;

    server::ServerConfig config;
    // Abruptly dropped players stay on the server until their timeout, which ENet counts in real time:
    // many simulated seconds when the virtual clock runs ahead. Room for all of them, so that a
    // reconnecting slot is never refused as "server full".
    config.max_clients = protocol::kMaxPlayers;
    if (!under_attack) config.max_per_address = config.max_clients;  // every player on 127.0.0.1
    // The server's time on the network as the CPU time of this thread (the soak's only one): what the
    // server spends, without the waits for a core on a loaded machine.
    config.work_clock = [] {
      timespec cpu{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
      return Micros(std::int64_t{cpu.tv_sec} * 1'000'000 + cpu.tv_nsec / 1000);
    };
    rig_ = testing::LoopbackRig::Create(config, &error);
    ASSERT_NE(rig_, nullptr) << error;
    if (under_attack) {
      hostile_ = HostilePeers::Start(rig_->server().port(), &error);
      ASSERT_NE(hostile_, nullptr) << error;
    }
    for (int i = 0; i < players; ++i) {
      Slot slot;
      slot.index = i;
      slot.next_change = RandomMicros(rng_, 0.0, 2.0);
      slots_.push_back(std::move(slot));
    }
  }

  void Connect(Slot& slot, Micros now) {
    client::ClientConfig config;
    config.name = slot.name();
    config.link = link_;
    config.seed = rng_();
    if (hostile_ != nullptr)
      config.source_address = "127.0.0." + std::to_string(kFirstPlayerHost + slot.index);
    slot.client = std::make_unique<client::Client>(config);
    std::string error;
    ASSERT_TRUE(slot.client->Connect("127.0.0.1", rig_->server().port(), now, &error)) << error;
    slot.online = true;
    slot.playing = true;
    slot.next_change = now + RandomMicros(rng_, 3.0, 15.0);
    ++connects_;
  }

  void Leave(Slot& slot, Micros now) {
    // One leave in four is abrupt: the socket goes without a goodbye and the server times the player out.
    if (std::uniform_int_distribution<int>(0, 3)(rng_) == 0) {
      slot.client.reset();
      ++drops_;
    } else {
      slot.client->Disconnect(now);
      ++polite_leaves_;
    }
    ++slot.sessions;
    slot.online = false;
    slot.next_change = now + RandomMicros(rng_, 0.5, 3.0);
  }

  // Churn and random keys while `churn` holds; afterwards keys are released and nobody comes or goes.
  void UpdateSlot(Slot& slot, Micros now, bool churn) {
    if (churn && now >= slot.next_change) {
      if (slot.online) {
        Leave(slot, now);
      } else {
        Connect(slot, now);
      }
    }
    if (!churn) slot.playing = false;
    if (slot.playing && now >= slot.next_buttons) {
      slot.buttons = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, sim::kButtonMask)(rng_));
      slot.next_buttons = now + RandomMicros(rng_, 0.05, 0.6);
    }
    // Every player tags too, about at the cooldown: each tag rewinds the world and its result goes out.
    if (slot.playing && slot.online && now >= slot.next_tag) {
      const auto aim = static_cast<sim::Aim>(std::uniform_int_distribution<int>(0, 0xFFFF)(rng_));
      if (slot.client->Tag(now, aim)) ++tags_fired_;
      slot.next_tag = now + RandomMicros(rng_, 0.25, 0.5);
    }
    // A politely leaving client still needs updates to finish its goodbye.
    if (slot.client) slot.client->Update(now, slot.playing && slot.online ? slot.buttons : 0);
  }

  const Slot* FindSession(const std::string& name) const {
    for (const Slot& slot : slots_) {
      if (slot.online && slot.name() == name) return &slot;
    }
    return nullptr;
  }

  // Asserted throughout the run.
  void CheckConnections() {
    for (const Slot& slot : slots_) {
      if (!slot.online) continue;
      const client::ConnectionState state = slot.client->state();
      ASSERT_NE(state, client::ConnectionState::kLost) << slot.name() << ": " << slot.client->status();
      ASSERT_NE(state, client::ConnectionState::kRefused) << slot.name() << ": " << slot.client->status();
    }
    for (const server::ClientInfo& info : rig_->server().clients()) {
      const Slot* slot = FindSession(info.name);
      if (slot == nullptr) continue;  // a session that has ended
      ASSERT_LE(info.inputs.processed, slot->client->metrics().inputs_sent)
          << info.name << ": the server applied more inputs than the client generated";
    }
  }

  bool AllSettled() const {
    for (const Slot& slot : slots_) {
      if (slot.online && !slot.client->Settled()) return false;
    }
    return true;
  }

  // One step of everything: the server, the hostile peers, the players.
  void StepAll(bool churn) {
    rig_->Step(kStep);
    if (hostile_ != nullptr) hostile_->Step(rig_->now(), rig_->server());
    for (Slot& slot : slots_) ASSERT_NO_FATAL_FAILURE(UpdateSlot(slot, rig_->now(), churn));
  }

  void Run(double seconds);

  static constexpr int kFirstPlayerHost = 10;  // under attack, slot i plays from 127.0.0.(10 + i)
  std::mt19937_64 rng_{20240601};
  transport::LinkSettings link_;
  std::unique_ptr<testing::LoopbackRig> rig_;
  std::vector<Slot> slots_;
  int connects_ = 0;
  int tags_fired_ = 0;
  int polite_leaves_ = 0;
  int drops_ = 0;
  std::unique_ptr<HostilePeers> hostile_;
};

void Soak::Run(double seconds) {
  const Micros churn_end = Micros(static_cast<std::int64_t>(seconds * 1e6));
  const auto real_deadline = std::chrono::steady_clock::now() + kRealTimeGuard +
                             std::chrono::duration_cast<std::chrono::seconds>(
                                 std::chrono::duration<double>(seconds * kRealTimePerSimulatedSecond));
  const auto in_time = [&real_deadline] { return std::chrono::steady_clock::now() < real_deadline; };

  // The resident set after the first minute (or half the run, if shorter), to compare with the end's.
  const Micros rss_reference_at = std::min(kFirstMinute, churn_end / 2);
  std::size_t rss_reference = 0;
  Micros next_check = kCheckInterval;
  while (rig_->now() < churn_end) {
    ASSERT_TRUE(in_time()) << "the soak ran out of real time at " << rig_->now().count() / 1000 << " ms";
    ASSERT_NO_FATAL_FAILURE(StepAll(true));
    if (rss_reference == 0 && rig_->now() >= rss_reference_at) rss_reference = hostile::ResidentBytes();
    if (rig_->now() >= next_check) {
      ASSERT_NO_FATAL_FAILURE(CheckConnections());
      next_check += kCheckInterval;
    }
  }

  // Everyone still online stops pressing keys; wait until all have settled, and stayed so long enough that
  // nothing still in flight (a push from a cube that was moving) can change a state.
  const Micros settle_deadline = rig_->now() + kSettleLimit;
  Micros settled_since{-1};
  while (settled_since < Micros{0} || rig_->now() - settled_since < kStillSettled) {
    ASSERT_TRUE(in_time() && rig_->now() < settle_deadline) << "the players did not settle";
    ASSERT_NO_FATAL_FAILURE(StepAll(false));
    if (!AllSettled()) {
      settled_since = Micros{-1};
    } else if (settled_since < Micros{0}) {
      settled_since = rig_->now();
    }
  }
  ASSERT_NO_FATAL_FAILURE(CheckConnections());

  int compared = 0;
  for (const Slot& slot : slots_) {
    if (!slot.online) continue;
    const std::optional<sim::PlayerId> id = slot.client->player_id();
    ASSERT_TRUE(id.has_value()) << slot.name();
    const sim::CubeState* on_server = nullptr;
    for (const sim::PlayerCube& cube : rig_->server().world()) {
      if (cube.id == *id) on_server = &cube.state;
    }
    ASSERT_NE(on_server, nullptr) << slot.name() << " is not on the server";
    const sim::CubeState& predicted = slot.client->local().predicted_state;
    EXPECT_TRUE(sim::SamePhysics(predicted, *on_server))
        << slot.name() << ": client (" << predicted.x << ", " << predicted.y << ") server (" << on_server->x
        << ", " << on_server->y << ")";
    ++compared;
  }
  const server::ServerStats stats = rig_->server().stats();
  std::printf(
      "soak: %.0f s simulated, %d connects, %d polite leaves, %d drops, %d players compared at the end; "
      "server: %llu ticks, %llu inputs applied, %llu duplicates ignored, %llu lost, %llu rate-limited; "
      "%d tags fired, %llu judged, %llu hits\n",
      seconds, connects_, polite_leaves_, drops_, compared, static_cast<unsigned long long>(stats.ticks),
      static_cast<unsigned long long>(stats.inputs.processed),
      static_cast<unsigned long long>(stats.inputs.duplicate),
      static_cast<unsigned long long>(stats.inputs.lost),
      static_cast<unsigned long long>(stats.inputs.dropped_rate_limit), tags_fired_,
      static_cast<unsigned long long>(stats.tags_judged), static_cast<unsigned long long>(stats.tags_hit));
  EXPECT_GT(compared, 0);
  EXPECT_GT(stats.tags_judged, 0u);
  EXPECT_GT(connects_, static_cast<int>(slots_.size()));  // churn happened: some slots came back
  const std::size_t rss_end = hostile::ResidentBytes();
  std::printf("resident set: %zu kB after %lld s, %zu kB at the end (%+.1f%%)\n", rss_reference / 1024,
              static_cast<long long>(rss_reference_at.count() / 1'000'000), rss_end / 1024,
              100.0 * (static_cast<double>(rss_end) / static_cast<double>(rss_reference) - 1.0));
  if (churn_end >= 2 * kFirstMinute) {
    EXPECT_LE(rss_end, rss_reference + rss_reference / 10);
  }
  if (hostile_ == nullptr) return;
  hostile_->Report(rig_->server());
  // The browser asks once before the flood has made it a stranger, and is answered at least half the time.
  EXPECT_GE(hostile_->browser_answered() * 2, hostile_->browser_asked());
  // A sequence jump under the limit is a gap, not an offence: the jumper is never kicked.
  EXPECT_EQ(hostile_->jumper_sessions(), 1);
  // The churners joined, each held to its address's budget: a burst of 16, then 2.8 a second.
  std::printf("churners: %d joins from %d addresses in %.0f s\n", hostile_->churner_joins(),
              HostilePeers::kChurners, seconds);
  EXPECT_GT(hostile_->churner_joins(), 0);
  EXPECT_LE(hostile_->churner_joins(), HostilePeers::kChurners * static_cast<int>(16 + 2.8 * seconds + 1));
}

TEST_F(Soak, HarshNetworkWithChurn) {
  ASSERT_NO_FATAL_FAILURE(Begin(32, false));
  Run(SoakSeconds(60.0));
}

TEST_F(Soak, HarshNetworkWithChurnUnderAttack) {
  ASSERT_NO_FATAL_FAILURE(Begin(64, true));
  Run(SoakSeconds(10.0));
}

}  // namespace
}  // namespace netcube
