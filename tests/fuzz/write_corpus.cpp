// Regenerates the checked-in seed corpus (run it after a protocol change):
//   <build>/bin/netcube-fuzz-write-corpus tests/fuzz/corpus
// corpus/fuzz_decode_<type>/: every sample message of tests/protocol/sample_messages.cpp, encoded.
// corpus/fuzz_server_receive/: short sessions in the server target's script format (server_fuzz_script.h).
// corpus/fuzz_decode_discovery/: a discovery query and replies with short and the longest names.
// corpus/fuzz_apply_delta/: baselines with deltas against them (delta_fuzzer.cpp's format).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "netcube/protocol/discovery.h"
#include "netcube/protocol/messages.h"
#include "netcube/protocol/replay.h"
#include "netcube/sim/world.h"
#include "protocol/sample_messages.h"
#include "server_fuzz_script.h"

namespace {

namespace fs = std::filesystem;
using namespace netcube::protocol;
using netcube::protocol::testing::EncodeToVector;

bool WriteFile(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

using Script = netcube::fuzz::ServerScriptWriter;

// Peer `peer` (connected already) asks to join and answers its Challenge.
void Join(Script& s, std::uint8_t peer, const std::string& name) {
  s.Message(peer, ConnectRequest{kProtocolMagic, kProtocolVersion, name});
  s.Message(peer, ChallengeResponse{netcube::fuzz::kFuzzNonce});
}

Script Joined(const std::string& name) {
  Script s;
  s.Connect();
  Join(s, 0, name);
  return s;
}

InputMessage Inputs(netcube::sim::Seq first, std::size_t count, std::uint8_t buttons) {
  InputMessage m;
  for (std::size_t i = 0; i < count; ++i)
    m.inputs.push_back({static_cast<netcube::sim::Seq>(first + i), buttons});
  return m;
}

// Sessions that reach each branch of the receive path once, for the fuzzer to vary.
std::vector<std::pair<std::string, Script>> ServerSessions() {
  std::vector<std::pair<std::string, Script>> out;
  {
    Script s = Joined("alice");
    s.Advance(20);
    s.Message(0, Inputs(0, 1, netcube::sim::kRight));
    s.Message(0, Inputs(0, 3, netcube::sim::kRight | netcube::sim::kDown));
    s.Message(0, TimeEcho{false, 1234, 0});
    s.Advance(50);
    s.Disconnect(0, false);
    out.emplace_back("play_and_leave", s);
  }
  {
    // A player, and a spectator that follows it, moves its camera, and tries what only a player may.
    Script s = Joined("alice");
    s.Connect();
    s.Message(1, ConnectRequest{kProtocolMagic, kProtocolVersion, "eve", true});
    s.Message(1, ChallengeResponse{netcube::fuzz::kFuzzNonce});
    s.Advance(20);
    s.Message(1, Viewpoint{true, 0, 0, 0});
    s.Message(1, Viewpoint{false, 0, 10, 20});
    s.Message(1, SnapshotAck{1});
    s.Message(1, Inputs(0, 1, netcube::sim::kRight));
    s.Message(0, Viewpoint{true, 0, 0, 0});
    s.Advance(50);
    s.Disconnect(1, true);
    out.emplace_back("spectate_and_leave", s);
  }
  {
    // Interest management on: two players told of each other as they come into each other's sets, a
    // spectator too; then off, and everyone is told of everyone.
    Script s;
    s.Interest(true);
    s.Connect();
    Join(s, 0, "near");
    s.Connect();
    Join(s, 1, "far");
    s.Message(0, Inputs(0, 30, netcube::sim::kRight));
    s.Connect();
    s.Message(2, ConnectRequest{kProtocolMagic, kProtocolVersion, "eve", true});
    s.Message(2, ChallengeResponse{netcube::fuzz::kFuzzNonce});
    s.Advance(200);
    s.Disconnect(1, false);
    s.Interest(false);
    s.Advance(20);
    out.emplace_back("interest_names", s);
  }
  {
    Script s;
    s.Connect();
    s.Message(0, Inputs(0, 2, netcube::sim::kUp));  // out of turn: before the ConnectRequest
    s.Message(0, TimeEcho{false, 1, 0});            // answered even before joining
    s.Packet(0, Channel::kReliable, std::vector<std::uint8_t>{0xFF, 0x00, 0x13});
    s.Advance(16);
    out.emplace_back("garbage_before_request", s);
  }
  {
    Script s = Joined("a");
    s.Connect();
    Join(s, 1, "b");
    s.Connect();
    Join(s, 2, "c");  // refused: the server is full
    s.Advance(17);
    s.Disconnect(1, true);
    s.Advance(17);
    out.emplace_back("full_server", s);
  }
  {
    Script s;
    s.Connect();
    s.Message(0, ConnectRequest{kProtocolMagic, kProtocolVersion + 1, "future"});
    s.Connect();
    s.Message(1, ConnectRequest{kProtocolMagic, kProtocolVersion, ""});
    s.Advance(1);
    out.emplace_back("bad_requests", s);
  }
  {
    Script s = Joined("mixer");
    s.Message(0, ConnectRequest{kProtocolMagic, kProtocolVersion, "again"});  // a second request
    s.Message(0, Snapshot{});                                                 // the wrong direction
    s.Packet(0, Channel::kReliable, EncodeToVector(Inputs(5, 2, 0)));         // the wrong channel
    s.Message(0, TimeEcho{true, 7, 7});                                       // a reply, not a request
    s.Advance(33);
    out.emplace_back("wrong_messages", s);
  }
  {
    Script s = Joined("flood");
    for (int i = 0; i < 8; ++i) {
      s.Message(0, Inputs(static_cast<netcube::sim::Seq>(65500 + 64 * i), kMaxInputsPerPacket,
                          netcube::sim::kLeft));
    }
    s.Advance(100);
    s.Message(0, Inputs(10, 4, netcube::sim::kDown));  // a gap: inputs lost
    s.Advance(100);
    out.emplace_back("input_flood_and_gap", s);
  }
  {
    Script s = Joined("eager");
    s.Connect();
    s.Message(1, SnapshotRate{60});  // out of turn: before the ConnectRequest
    s.Message(0, SnapshotRate{60});
    s.Advance(20);
    s.Message(0, SnapshotRate{kMaxRate});                                // above the tick rate
    s.Packet(0, Channel::kUnreliable, EncodeToVector(SnapshotRate{1}));  // the wrong channel
    s.Advance(40);
    s.Message(0, SnapshotRate{1});
    s.Advance(120);
    out.emplace_back("snapshot_rates", s);
  }
  {
    Script s;
    s.Connect();
    for (int i = 0; i < 13; ++i) s.Advance(255);  // past the pending timeout without a request
    out.emplace_back("silent_pending_peer", s);
  }
  {
    Script s;
    s.Connect();
    s.Message(0, ChallengeResponse{netcube::fuzz::kFuzzNonce});  // before any Challenge
    s.Connect();
    s.Message(1, ConnectRequest{kProtocolMagic, kProtocolVersion, "wrong"});
    s.Message(1, ChallengeResponse{netcube::fuzz::kFuzzNonce ^ 1});  // the wrong nonce
    s.Connect();
    s.Message(2, ConnectRequest{kProtocolMagic, kProtocolVersion, "early"});
    s.Message(2, Inputs(0, 1, netcube::sim::kUp));  // out of turn: the address is not proved yet
    s.Message(2, TimeEcho{false, 5, 0});
    s.Connect();
    s.Message(3, ConnectRequest{kProtocolMagic, kProtocolVersion, "mute"});  // never answers
    s.Connect();
    Join(s, 4, "twice");
    s.Message(4, ChallengeResponse{netcube::fuzz::kFuzzNonce});  // once more, after the Welcome
    for (int i = 0; i < 13; ++i) s.Advance(255);                 // past the challenged peer's timeout
    out.emplace_back("challenge_states", s);
  }
  {
    Script s = Joined("shooter");
    s.Connect();
    Join(s, 1, "target");
    s.Advance(50);
    s.Message(1, Inputs(0, 3, netcube::sim::kRight));
    s.Message(0, Tag{0, 0, 2, 128, 3, 100, 0});    // judged at the next tick
    s.Message(0, Tag{1, 0, 3, 0, 3, 100, 16384});  // early: within the burst tolerance
    s.Message(0, Tag{2, 9, 0xFFFFFF00u, 255, 0xFFFFFFFFu, kMaxTagDelayMs, 65535});  // lies, refused
    s.Advance(255);
    s.Message(0, Tag{3, 40, 1, 0, 99, 0, 32768});  // waits for an input that never comes
    s.Advance(255);
    s.Message(1, Tag{0, 2, 4, 0, 4, 0, 0});
    s.Message(1, TagResult{});  // the wrong direction
    s.Advance(20);
    out.emplace_back("tags", s);
  }
  return out;
}

// A query, and replies from the shortest to the longest, for the discovery target.
std::vector<std::pair<std::string, std::vector<std::uint8_t>>> DiscoverySeeds() {
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> out;
  std::vector<std::uint8_t> query(kDiscoveryQueryBytes);
  EncodeDiscoveryQuery({kProtocolVersion, 0x00012345}, query);
  out.emplace_back("query", query);
  DiscoveryReply reply;
  reply.name = "lanbox";
  reply.players = 2;
  out.emplace_back("reply_lanbox", std::vector<std::uint8_t>(kDiscoveryQueryBytes));
  out.back().second.resize(EncodeDiscoveryReply(reply, out.back().second));
  reply.address = 0xC0A80105;  // 192.168.1.5
  reply.players = reply.max_players = static_cast<std::uint16_t>(kMaxPlayers);
  reply.name = std::string(kMaxServerNameLength, '~');
  out.emplace_back("reply_longest", std::vector<std::uint8_t>(kDiscoveryQueryBytes));
  out.back().second.resize(EncodeDiscoveryReply(reply, out.back().second));
  return out;
}

// A baseline snapshot and deltas against it: its length (2 bytes), its packet, the delta's packet. Six
// players steered for a few ticks, pushing each other, one leaving and another coming at the third tick.
std::vector<std::pair<std::string, std::vector<std::uint8_t>>> DeltaSeeds() {
  netcube::sim::OverlapResolver resolver;
  using netcube::sim::PlayerCube;
  constexpr std::uint64_t kFirstTick = 0xFFFFFFF0u;  // the ticks wrap in the delta's 32 bits
  std::vector<PlayerCube> world;
  for (int id = 0; id < 6; ++id) {
    world.push_back(
        {static_cast<netcube::sim::PlayerId>(id * 40), {2000 + 1500 * id, 3000, 256 - 100 * id, -24, 0}});
  }
  std::vector<std::uint32_t> generations = {0, 40, 80, 120, 160, 200};
  MoveLog log;
  log.Record(kFirstTick, world, generations, world, {}, true);
  std::vector<std::vector<PlayerCube>> worlds = {world};
  std::vector<std::vector<netcube::sim::Input>> inputs(6);
  for (std::uint64_t t = 1; t <= 6; ++t) {
    std::vector<PlayerCube> arrivals;
    if (t == 3) {
      world.erase(world.begin() + 4);
      generations.erase(generations.begin() + 4);
      arrivals.push_back({250, {60000, 30000, 5, 5, 0}});
      world.push_back(arrivals.back());
      generations.push_back(250);
    }
    std::vector<netcube::sim::PlayerStep> steps;
    for (std::size_t i = 0; i < world.size(); ++i) {
      inputs[i] = {{static_cast<netcube::sim::Seq>(world[i].state.last_input + 1),
                    static_cast<std::uint8_t>(t < 3 ? netcube::sim::kRight : netcube::sim::kDown)}};
      if (i != 2 || t % 2 == 0) steps.push_back({&world[i], inputs[i]});
    }
    netcube::sim::StepWorld(world, steps, true, netcube::sim::kStandardArena, resolver);
    log.Record(kFirstTick + t, world, generations, arrivals, steps, true);
    worlds.push_back(world);
  }
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> out;
  for (const int age : {1, 4, 6}) {
    Snapshot baseline;
    baseline.server_tick = static_cast<std::uint32_t>(kFirstTick + 6 - static_cast<std::uint64_t>(age));
    for (const PlayerCube& cube : worlds[static_cast<std::size_t>(6 - age)]) baseline.players.push_back(cube);
    DeltaSnapshot delta;
    if (!MakeReplay(kFirstTick + 6, age, baseline.players.span(), world, log, delta)) continue;
    delta.has_ack = age != 1;
    delta.ack = 7;
    const auto base_bytes = EncodeToVector(baseline);
    const auto delta_bytes = EncodeToVector(delta);
    std::vector<std::uint8_t> seed = {static_cast<std::uint8_t>(base_bytes.size() >> 8),
                                      static_cast<std::uint8_t>(base_bytes.size())};
    seed.insert(seed.end(), base_bytes.begin(), base_bytes.end());
    seed.insert(seed.end(), delta_bytes.begin(), delta_bytes.end());
    out.emplace_back("age_" + std::to_string(age), seed);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  int written = 0;
  for (const auto& sample : testing::SampleMessages()) {
    const auto bytes = testing::EncodeToVector(sample.message);
    if (bytes.empty()) {
      std::fprintf(stderr, "sample %s does not encode\n", sample.name.c_str());
      return 1;
    }
    const fs::path path =
        root / (std::string("fuzz_decode_") + ToString(TypeOf(sample.message))) / sample.name;
    if (!WriteFile(path, bytes)) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
    ++written;
  }
  for (const auto& [name, script] : ServerSessions()) {
    const fs::path path = root / "fuzz_server_receive" / name;
    if (!WriteFile(path, script.bytes())) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
    ++written;
  }
  for (const auto& [name, bytes] : DiscoverySeeds()) {
    const fs::path path = root / "fuzz_decode_discovery" / name;
    if (bytes.empty() || !WriteFile(path, bytes)) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
    ++written;
  }
  for (const auto& [name, bytes] : DeltaSeeds()) {
    const fs::path path = root / "fuzz_apply_delta" / name;
    if (!WriteFile(path, bytes)) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
    ++written;
  }
  std::printf("wrote %d seeds under %s\n", written, root.c_str());
  return 0;
}
