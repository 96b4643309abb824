// The connection state machine, refusals, dead servers and clients, and hostile packets.
#include <array>
#include <thread>

#include "loopback_test.h"
#include "netcube/transport/host.h"
#include "netcube/transport/udp_socket.h"

namespace netcube::client {
namespace {

TEST(Lifecycle, ConnectsAndLearnsTheServerAndTheOtherPlayers) {
  server::ServerConfig server_config;
  server_config.snapshot_rate = 30;
  const auto rig = StartRig(server_config);
  Client& a = AddPlayer(*rig, Named("alice"));
  Client& b = AddPlayer(*rig, Named("bob"));
  EXPECT_EQ(a.state(), ConnectionState::kConnecting);
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(milliseconds(1200));  // a whole rate window
  EXPECT_EQ(a.welcome().tick_rate, 60);
  EXPECT_EQ(a.welcome().snapshot_rate, 30);
  ASSERT_TRUE(a.player_id() && b.player_id());
  EXPECT_NE(*a.player_id(), *b.player_id());
  ASSERT_EQ(a.remotes().size(), 1u);
  EXPECT_EQ(a.remotes()[0].id, *b.player_id());
  EXPECT_EQ(a.remotes()[0].name, "bob");
  ASSERT_EQ(b.remotes().size(), 1u);
  EXPECT_EQ(b.remotes()[0].name, "alice");
  EXPECT_TRUE(a.Settled());
  const Metrics m = a.metrics();
  EXPECT_GT(m.rtt_samples, 0u);
  EXPECT_EQ(m.packets_malformed, 0u);
  EXPECT_GT(m.snapshots_per_second, 20.0);
  EXPECT_GT(m.bytes_down_per_s, 0.0);
  EXPECT_FALSE(m.in_memory);
  EXPECT_GT(m.wire_bytes_down, m.bytes_down);  // ENet's headers on top of the payload
  EXPECT_EQ(m.snapshot_loss, 0.0);
  EXPECT_EQ(ToString(a.state()), std::string("connected"));
}

// In memory there is no wire for the readouts to show (the hub's datagrams are the payload).
TEST(Lifecycle, TheMetricsSayWhenTheLinkIsInMemory) {
  ClientConfig config;
  config.network = transport::MakeNetwork(transport::NetworkKind::kMemory);
  EXPECT_TRUE(Client(config).metrics().in_memory);
  config.network = transport::MakeNetwork(transport::NetworkKind::kUdp);
  EXPECT_FALSE(Client(config).metrics().in_memory);
}

TEST(Lifecycle, BadAddressesAreClearErrors) {
  Client client(Named("x"));
  std::string error;
  EXPECT_FALSE(client.Connect("no such host!", 7777, Micros{0}, &error));
  EXPECT_NE(error.find("no such host!"), std::string::npos) << error;
  EXPECT_EQ(client.state(), ConnectionState::kDisconnected);
  error.clear();
  EXPECT_FALSE(client.Connect("127.0.0.1", 0, Micros{0}, &error));
  EXPECT_FALSE(error.empty());
}

// A name the protocol cannot carry is refused before anything is sent, never cut to fit.
TEST(Lifecycle, ANameThatDoesNotFitIsRefusedBeforeConnecting) {
  for (const std::string name : {"", "0123456789abcdef", "tab\there", "caf\xc3\xa9"}) {
    Client client(Named(name));
    std::string error;
    EXPECT_FALSE(client.Connect("127.0.0.1", 7777, Micros{0}, &error)) << name;
    EXPECT_NE(error.find("name"), std::string::npos) << error;
    EXPECT_EQ(client.state(), ConnectionState::kDisconnected);
  }
  Client fifteen(Named("0123456789abcde"));
  std::string error;
  EXPECT_TRUE(fifteen.Connect("127.0.0.1", 7777, Micros{0}, &error)) << error;
}

TEST(Lifecycle, ConnectingTwiceIsRefusedLocally) {
  const auto rig = StartRig();
  Client& a = AddPlayer(*rig, Named("a"));
  std::string error;
  EXPECT_FALSE(a.Connect("127.0.0.1", rig->server().port(), rig->now(), &error));
  EXPECT_FALSE(error.empty());
}

TEST(Lifecycle, AFullServerRefusesWithItsReason) {
  server::ServerConfig config;
  config.max_clients = 1;
  const auto rig = StartRig(config);
  AddPlayer(*rig, Named("first"));
  ASSERT_TRUE(rig->ConnectAll());
  Client& late = AddPlayer(*rig, Named("late"));
  ASSERT_TRUE(rig->StepUntil([&] { return late.state() == ConnectionState::kRefused; }, seconds(5)));
  EXPECT_EQ(late.status(), protocol::ToString(protocol::RefuseReason::kServerFull));
  EXPECT_FALSE(late.player_id());
  rig->StepFor(milliseconds(200));  // the server's goodbye changes nothing
  EXPECT_EQ(late.state(), ConnectionState::kRefused);
  EXPECT_EQ(rig->player(0).state(), ConnectionState::kConnected);
}

TEST(Lifecycle, NoServerListeningEndsInCouldNotConnect) {
  ClientConfig config = Named("alone");
  config.timeout_ms = 1000;
  Client client(config);
  std::string error;
  // A port nobody answers on: a socket of ours holds it unread, so no other process can take it meanwhile.
  const std::optional<transport::UdpSocket> silent =
      transport::UdpSocket::Open({.bind_address = "127.0.0.1"}, &error);
  ASSERT_TRUE(silent.has_value()) << error;
  ASSERT_TRUE(client.Connect("127.0.0.1", silent->port(), Micros{0}, &error)) << error;
  Micros now{0};
  for (; now < seconds(3) && client.state() == ConnectionState::kConnecting; now += milliseconds(1)) {
    client.Update(now, 0);
  }
  EXPECT_EQ(client.state(), ConnectionState::kUnreachable) << "never connected, so never lost";
  EXPECT_EQ(client.status(), "no answer from the server");
}

TEST(Lifecycle, DestroyedServerLeavesTheClientLost) {
  const auto rig = StartRig();
  ClientConfig config = Named("survivor");
  config.timeout_ms = 1000;
  Client& client = AddPlayer(*rig, config);
  ASSERT_TRUE(rig->ConnectAll());
  rig->SetButtons(0, Hold(sim::kUp, rig->now(), seconds(10)));
  bool silence_while_alive = false;
  rig->StepFor(milliseconds(500),
               [&] { silence_while_alive = silence_while_alive || client.snapshot_silence(); });
  EXPECT_FALSE(silence_while_alive) << "snapshots come every 50 ms";
  rig->DestroyServer();
  const Micros killed = rig->now();
  // Said well before the timeout: once the silence passes a few snapshot intervals (kMinSnapshotSilence
  // here).
  ASSERT_TRUE(rig->StepUntil([&] { return client.snapshot_silence().has_value(); }, seconds(1)));
  EXPECT_EQ(client.state(), ConnectionState::kConnected);
  EXPECT_LE(rig->now() - killed, kMinSnapshotSilence + milliseconds(60));
  EXPECT_GT(*client.snapshot_silence(), kMinSnapshotSilence);
  rig->StepFor(milliseconds(300));
  EXPECT_GE(*client.snapshot_silence(), kMinSnapshotSilence + milliseconds(300)) << "it counts up";
  ASSERT_TRUE(rig->StepUntil([&] { return client.state() == ConnectionState::kLost; }, seconds(5)));
  EXPECT_FALSE(client.snapshot_silence()) << "lost, no longer connected";
  EXPECT_FALSE(client.status().empty());
  rig->StepFor(milliseconds(100));  // keeps running harmlessly
  EXPECT_EQ(client.state(), ConnectionState::kLost);
  EXPECT_FALSE(client.player_id());
  std::string error;
  EXPECT_FALSE(client.Connect("127.0.0.1", 0, rig->now(), &error));  // may reconnect (here: a bad port)
}

TEST(Lifecycle, ServerShutdownIsSeenAsLost) {
  const auto rig = StartRig();
  Client& client = AddPlayer(*rig, Named("c"));
  ASSERT_TRUE(rig->ConnectAll());
  rig->server().Shutdown(rig->now());
  ASSERT_TRUE(rig->StepUntil([&] { return client.state() == ConnectionState::kLost; }, seconds(3)));
  EXPECT_EQ(client.status(), "the server closed the connection");
}

TEST(Lifecycle, AKilledClientLeavesTheServerServingTheOthers) {
  server::ServerConfig config;
  config.peer_timeout_ms = 1000;
  const auto rig = StartRig(config);
  for (const char* name : {"a", "b", "c"}) AddPlayer(*rig, Named(name));
  ASSERT_TRUE(rig->ConnectAll());
  for (std::size_t i = 0; i < 3; ++i) rig->SetButtons(i, Hold(sim::kDown, rig->now(), milliseconds(300)));
  rig->StepFor(milliseconds(100));
  rig->DestroyPlayer(1);  // no goodbye
  // The server notices the silence, tells the others, and goes on. ENet's timeout runs on real time, and
  // unpaced virtual steps can race through any virtual limit before it fires: each step waits 1 ms of real
  // time, so the virtual clock never runs ahead of the real one.
  const auto pace = [] { std::this_thread::sleep_for(milliseconds(1)); };
  ASSERT_TRUE(rig->StepUntil([&] { return rig->server().clients().size() == 2; }, seconds(30), pace));
  ASSERT_TRUE(rig->StepUntil(
      [&] { return rig->player(0).remotes().size() == 1 && rig->player(2).remotes().size() == 1; },
      seconds(2)));
  const std::uint64_t snapshots = rig->player(0).metrics().snapshots_received;
  rig->SetButtons(0, Hold(sim::kLeft, rig->now(), milliseconds(300)));
  rig->StepFor(milliseconds(500));
  ASSERT_TRUE(rig->StepUntil([&] { return rig->AllSettled(); }, seconds(5)));
  EXPECT_GT(rig->player(0).metrics().snapshots_received, snapshots + 5);
  for (std::size_t i : {0u, 2u}) {
    EXPECT_EQ(rig->player(i).state(), ConnectionState::kConnected);
    EXPECT_EQ(rig->player(i).metrics().corrections, 0u);
    EXPECT_TRUE(
        sim::SamePhysics(rig->player(i).local().predicted_state, rig->player(i).local().server_state));
  }
}

TEST(Lifecycle, PoliteDisconnectIsSeenAtOnce) {
  const auto rig = StartRig();
  Client& leaver = AddPlayer(*rig, Named("leaver"));
  Client& stayer = AddPlayer(*rig, Named("stayer"));
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(milliseconds(100));
  ASSERT_EQ(stayer.remotes().size(), 1u);
  leaver.Disconnect(rig->now());
  EXPECT_EQ(leaver.state(), ConnectionState::kDisconnected);
  EXPECT_TRUE(leaver.status().empty());
  ASSERT_TRUE(rig->StepUntil([&] { return stayer.remotes().empty() && rig->server().clients().size() == 1; },
                             seconds(1)));
  // And it can come back.
  std::string error;
  ASSERT_TRUE(leaver.Connect("127.0.0.1", rig->server().port(), rig->now(), &error)) << error;
  ASSERT_TRUE(rig->ConnectAll());
  EXPECT_EQ(leaver.metrics().corrections, 0u);
}

// A hand-driven server over a raw transport::Host, to feed the client exactly the packets we want.
class FakeServer {
 public:
  FakeServer() {
    transport::HostConfig config;
    config.bind_address = "127.0.0.1";
    std::string error;
    host_ = transport::Host::Listen(config, &error);
    EXPECT_NE(host_, nullptr) << error;
  }
  std::uint16_t port() const { return host_->port(); }
  void Service(Micros now) {
    if (!host_) return;
    events_.clear();
    host_->Service(now, events_);
    for (const transport::Event& e : events_) {
      if (e.type == transport::EventType::kConnected) peer_ = e.peer;
      if (e.type == transport::EventType::kReceived) ++received_;
    }
  }
  void Send(Micros now, const protocol::Message& m) {
    std::array<std::uint8_t, protocol::kMaxPacketBytes> buffer{};
    const std::size_t size = protocol::Encode(m, buffer);
    ASSERT_GT(size, 0U);
    host_->Send(now, peer_, protocol::ChannelOf(protocol::TypeOf(m)), std::span(buffer.data(), size));
  }
  void SendRaw(Micros now, protocol::Channel channel, std::span<const std::uint8_t> bytes) {
    host_->Send(now, peer_, channel, bytes);
  }
  std::size_t received() const { return received_; }
  void Destroy() { host_.reset(); }

 private:
  std::unique_ptr<transport::Host> host_;
  std::vector<transport::Event> events_;
  transport::PeerId peer_ = 0;
  std::size_t received_ = 0;
};

protocol::Snapshot SnapshotAt(std::uint32_t tick, std::initializer_list<sim::PlayerId> ids) {
  protocol::Snapshot s;
  s.server_tick = tick;
  for (sim::PlayerId id : ids) {
    sim::PlayerCube cube;
    cube.id = id;
    cube.state.x += id * sim::kSubUnitsPerUnit;
    s.players.push_back(cube);
  }
  return s;
}

TEST(Hostile, MalformedStaleAndOutOfTurnPacketsAreDroppedAndCounted) {
  FakeServer fake;
  ClientConfig config = Named("target");
  config.timeout_ms = 1000;
  Client client(config);
  std::string error;
  Micros now{0};
  ASSERT_TRUE(client.Connect("127.0.0.1", fake.port(), now, &error)) << error;
  const auto step = [&](int ms = 1) {
    for (int i = 0; i < ms; ++i) {
      fake.Service(now);
      client.Update(now, 0);
      now += milliseconds(1);
    }
  };
  for (int i = 0; i < 2000 && fake.received() == 0; ++i) step();  // the ConnectRequest
  ASSERT_EQ(fake.received(), 1u);

  // A snapshot that overtook the Welcome is early, not malformed.
  fake.Send(now, SnapshotAt(0xFFFFFFEFu, {3, 5}));
  step(5);
  EXPECT_EQ(client.metrics().snapshots_early, 1u);
  EXPECT_EQ(client.metrics().packets_malformed, 0u);

  protocol::Welcome welcome;
  welcome.player_id = 3;
  welcome.server_tick = 0xFFFFFFF0u;  // near the 32-bit wrap
  fake.Send(now, welcome);
  step(5);
  ASSERT_EQ(client.state(), ConnectionState::kConnected);
  fake.Send(now, SnapshotAt(0xFFFFFFF3u, {3, 5}));
  step(5);
  ASSERT_TRUE(client.local().present);
  ASSERT_EQ(client.remotes().size(), 1u);

  const std::array<std::uint8_t, 5> garbage{0xFF, 0x00, 0x13, 0x37, 0x42};
  fake.SendRaw(now, protocol::Channel::kUnreliable, garbage);  // 1: undecodable
  protocol::Snapshot bad_ack = SnapshotAt(0xFFFFFFF6u, {3, 5});
  bad_ack.has_ack = true;
  bad_ack.ack = 9;
  fake.Send(now, bad_ack);  // 2: acks an input never sent
  fake.Send(now, welcome);  // 3: a second Welcome
  fake.Send(now, protocol::TimeEcho{true, static_cast<std::uint32_t>(now.count()) + 5'000'000u,
                                    0});  // 4: from the future
  protocol::InputMessage input;
  input.inputs.push_back({1, sim::kLeft});
  fake.Send(now, input);                       // 5: a client-to-server message
  fake.Send(now, protocol::ConnectRefused{});  // 6: refused while connected
  const protocol::Snapshot on_reliable = SnapshotAt(0xFFFFFFF9u, {3});
  std::array<std::uint8_t, protocol::kMaxPacketBytes> buffer{};
  const std::size_t size = protocol::Encode(on_reliable, buffer);
  ASSERT_GT(size, 0u);
  fake.SendRaw(now, protocol::Channel::kReliable, std::span(buffer.data(), size));  // 7: wrong channel
  protocol::Snapshot elsewhere = SnapshotAt(0xFFFFFFFAu, {3, 5});
  elsewhere.arena = sim::Arena::OfUnits(128, 72);
  fake.Send(now, elsewhere);  // 8: not the Welcome's arena
  step(5);
  fake.Send(now, SnapshotAt(0x00000002u, {3, 5}));  // across the wrap: newer
  step(3);
  fake.Send(now, SnapshotAt(0xFFFFFFF3u, {3, 5}));  // a duplicate of an older one
  fake.Send(now, SnapshotAt(0x00000002u, {3, 5}));  // a duplicate of the newest
  fake.Send(now, SnapshotAt(0x00000001u, {3, 5}));  // late but new: kept
  step(5);

  const Metrics m = client.metrics();
  EXPECT_EQ(m.packets_malformed, 8u);
  EXPECT_EQ(m.snapshots_received, 3u);
  EXPECT_EQ(m.snapshots_late, 1u);
  EXPECT_EQ(m.snapshots_stale, 2u);
  EXPECT_EQ(client.state(), ConnectionState::kConnected);
  EXPECT_EQ(client.remotes().size(), 1u);

  fake.Send(now, protocol::PlayerLeft{5, protocol::LeaveReason::kDisconnected});
  step(5);
  EXPECT_TRUE(client.remotes().empty());

  fake.Destroy();  // silence
  for (int i = 0; i < 5000 && client.state() == ConnectionState::kConnected; ++i) step();
  EXPECT_EQ(client.state(), ConnectionState::kLost);
}

}  // namespace
}  // namespace netcube::client
