// Clocks that agree: a client whose clock runs 1% fast or slow, moving for a minute behind a jittery link,
// loses no input to the server's queue, is never corrected, and its cube moves on (nearly) every tick,
// because the server's input buffer rides out the jitter and the client paces its sampling by the
// input lead its snapshots report. The same client without pacing shows what the drift costs.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "loopback_test.h"

namespace netcube::client {
namespace {

// Always some key held, turning every 700 ms: the cube never rests, so every step sends an input.
std::uint8_t Circling(Micros now) {
  constexpr std::uint8_t kTurns[] = {
      sim::kRight, sim::kRight | sim::kDown, sim::kDown, sim::kDown | sim::kLeft,
      sim::kLeft,  sim::kLeft | sim::kUp,    sim::kUp,   sim::kUp | sim::kRight};
  return kTurns[static_cast<std::size_t>(now.count() / 700'000) % std::size(kTurns)];
}

struct Drifting {
  double clock_rate;
  bool pacing;
};

TEST(InputPacing, AClientClockOnePercentOffLosesNoInputAndIsNeverCorrected) {
  server::ServerConfig config;
  config.collisions = false;  // each player solo: any correction is the network's or the clocks'
  auto rig = StartRig(config);
  const Drifting players[] = {{1.01, true}, {0.99, true}, {1.0, true}, {1.01, false}, {0.99, false}};
  for (std::size_t i = 0; i < std::size(players); ++i) {
    ClientConfig client = Named("p" + std::to_string(i));
    client.settings.input_pacing = players[i].pacing;
    client.link.latency_ms = 60;
    client.link.jitter_ms = 20;
    client.seed = 7 + i;
    AddPlayer(*rig, client);
    rig->SetButtons(i, Circling);
  }
  ASSERT_TRUE(rig->ConnectAll());
  for (std::size_t i = 0; i < std::size(players); ++i) rig->SetClockRate(i, players[i].clock_rate);
  rig->StepFor(seconds(60));

  const std::vector<server::ClientInfo> infos = rig->server().clients();
  ASSERT_EQ(infos.size(), std::size(players));
  for (std::size_t i = 0; i < std::size(players); ++i) {
    const std::optional<sim::PlayerId> id = rig->player(i).player_id();
    ASSERT_TRUE(id.has_value());
    const auto info =
        std::find_if(infos.begin(), infos.end(), [&](const server::ClientInfo& c) { return c.id == *id; });
    ASSERT_NE(info, infos.end());
    const server::InputCounters& inputs = info->inputs;
    const Metrics m = rig->player(i).metrics();
    SCOPED_TRACE("player " + std::to_string(i) + ": clock x" + std::to_string(players[i].clock_rate) +
                 (players[i].pacing ? ", paced" : ", unpaced"));
    EXPECT_GT(inputs.streaming_ticks, 3000u);
    if (players[i].pacing) {
      EXPECT_EQ(inputs.dropped_rate_limit, 0u);
      EXPECT_EQ(inputs.lost, 0u);
      EXPECT_EQ(m.corrections, 0u);
      EXPECT_LE(inputs.dry_ticks * 100, inputs.streaming_ticks) << "at most 1% dry ticks";
      // The sampling clock makes up the drift: about 1% the other way.
      EXPECT_NEAR(m.sample_rate * players[i].clock_rate, 1.0, 0.007);
      std::printf("clock x%.2f paced: %llu streaming ticks, %llu dry, 0 dropped, sampling x%.4f, lead %.2f\n",
                  players[i].clock_rate, static_cast<unsigned long long>(inputs.streaming_ticks),
                  static_cast<unsigned long long>(inputs.dry_ticks), m.sample_rate, m.input_lead);
    } else if (players[i].clock_rate > 1.0) {
      std::printf("clock x%.2f unpaced: %llu dropped, %llu corrections\n", players[i].clock_rate,
                  static_cast<unsigned long long>(inputs.dropped_rate_limit),
                  static_cast<unsigned long long>(m.corrections));
      EXPECT_GT(inputs.dropped_rate_limit, 0u) << "a fast clock overflows the queue";
      EXPECT_GT(m.corrections, 0u);
    } else {
      std::printf("clock x%.2f unpaced: %llu of %llu ticks dry\n", players[i].clock_rate,
                  static_cast<unsigned long long>(inputs.dry_ticks),
                  static_cast<unsigned long long>(inputs.streaming_ticks));
      // 0.6 inputs a second short: about one tick in a hundred finds none.
      EXPECT_GT(inputs.dry_ticks * 200, inputs.streaming_ticks) << "a slow clock starves the ticks";
    }
  }
}

}  // namespace
}  // namespace netcube::client
