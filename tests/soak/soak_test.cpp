// Soak: one server and 32 netcube::client players churning (random connects, polite leaves and abrupt
// drops) under the `harsh` profile of assets/link_profiles.json, on a virtual clock over real loopback
// sockets. NETCUBE_SOAK_SECONDS sets the simulated length (default 60).
//
// Asserted: nothing crashes (and the sanitizer build reports nothing); no client is ever refused or lost;
// the server never applies more inputs for a player than that player generated (an input applied twice
// would); and once everyone has stopped and settled, every client's state equals the server's exactly.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "link_profiles.h"
#include "netcube/client/client.h"
#include "netcube/transport/link_profile.h"
#include "support/loopback_rig.h"

namespace netcube {
namespace {

constexpr int kPlayers = 32;
constexpr Micros kStep{2000};  // server and clients update every 2 ms of simulated time: a 500 fps client
constexpr double kDefaultSeconds = 60.0;
constexpr Micros kCheckInterval{1'000'000};
constexpr Micros kSettleLimit{60'000'000};
constexpr Micros kStillSettled{2'000'000};  // everyone settled this long: nothing in flight can move a cube
constexpr auto kRealTimeGuard = std::chrono::minutes(12);

double SoakSeconds() {
  const char* text = std::getenv("NETCUBE_SOAK_SECONDS");
  if (text == nullptr || *text == '\0') return kDefaultSeconds;
  const double seconds = std::strtod(text, nullptr);
  return seconds > 0.0 ? seconds : kDefaultSeconds;
}

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
  void SetUp() override {
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
    config.max_per_address = config.max_clients;  // every player on 127.0.0.1
    rig_ = testing::LoopbackRig::Create(config, &error);
    ASSERT_NE(rig_, nullptr) << error;
    for (int i = 0; i < kPlayers; ++i) {
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

  std::mt19937_64 rng_{20240601};
  transport::LinkSettings link_;
  std::unique_ptr<testing::LoopbackRig> rig_;
  std::vector<Slot> slots_;
  int connects_ = 0;
  int polite_leaves_ = 0;
  int drops_ = 0;
};

TEST_F(Soak, HarshNetworkWithChurn) {
  const Micros churn_end = Micros(static_cast<std::int64_t>(SoakSeconds() * 1e6));
  const auto real_deadline = std::chrono::steady_clock::now() + kRealTimeGuard;
  const auto in_time = [&real_deadline] { return std::chrono::steady_clock::now() < real_deadline; };

  Micros next_check = kCheckInterval;
  while (rig_->now() < churn_end) {
    ASSERT_TRUE(in_time()) << "the soak ran out of real time at " << rig_->now().count() / 1000 << " ms";
    rig_->Step(kStep);
    for (Slot& slot : slots_) ASSERT_NO_FATAL_FAILURE(UpdateSlot(slot, rig_->now(), true));
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
    rig_->Step(kStep);
    for (Slot& slot : slots_) ASSERT_NO_FATAL_FAILURE(UpdateSlot(slot, rig_->now(), false));
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
        << slot.name() << ": client (" << predicted.x << ", " << predicted.y << ") server (" << on_server->x << ", "
        << on_server->y << ")";
    ++compared;
  }
  const server::ServerStats stats = rig_->server().stats();
  std::printf("soak: %.0f s simulated, %d connects, %d polite leaves, %d drops, %d players compared at the end; "
              "server: %llu ticks, %llu inputs applied, %llu duplicates ignored, %llu lost, %llu rate-limited\n",
              SoakSeconds(), connects_, polite_leaves_, drops_, compared,
              static_cast<unsigned long long>(stats.ticks), static_cast<unsigned long long>(stats.inputs.processed),
              static_cast<unsigned long long>(stats.inputs.duplicate), static_cast<unsigned long long>(stats.inputs.lost),
              static_cast<unsigned long long>(stats.inputs.dropped_rate_limit));
  EXPECT_GT(compared, 0);
  EXPECT_GT(connects_, kPlayers);  // churn happened: some slots came back
}

}  // namespace
}  // namespace netcube
