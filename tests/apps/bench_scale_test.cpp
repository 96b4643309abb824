// netcube-bench's scale scenario on virtual time, as a child process: the players in the bench's own process
// on the in-memory network, stepped 1 ms at a time, so that the full and delta runs (side by side) play the
// same game.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/command.h"

namespace netcube::apps {
namespace {

// The scale runs of `netcube-bench --scenario scale --scale-time virtual ARGS --json FILE` (none when the
// bench fails, which fails the test).
nlohmann::json RunScale(const std::string& args) {
  const std::string json = testing::UniqueTempPath("netcube-bench-scale-test", ".json").string();
  const testing::CommandResult run = testing::RunCommand(
      std::string(NETCUBE_BENCH_EXE) + " --scenario scale --scale-time virtual " + args + " --json " + json);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  if (run.exit_code != 0) return nlohmann::json::array();
  std::ifstream file(json);
  const nlohmann::json figures = nlohmann::json::parse(file);
  std::remove(json.c_str());
  return figures.at("scale");
}

// The run's bots reported, ended in sync with the server, and no tick was skipped.
void ExpectPlayedThrough(const nlohmann::json& run) {
  EXPECT_EQ(run.at("bots_problem"), "");
  EXPECT_TRUE(run.at("all_final_match").get<bool>());
  EXPECT_EQ(run.at("ticks_skipped"), 0);
}

TEST(BenchScale, OnVirtualTimeFullAndDeltaPlayTheSameGameInSync) {
  const nlohmann::json runs =
      RunScale("--clients 8 --snapshot-rates 60 --seconds 1 --scale-links cross-continent");
  ASSERT_EQ(runs.size(), 2u);
  const nlohmann::json& full = runs[0];
  const nlohmann::json& delta = runs[1];
  EXPECT_EQ(full.at("settings").at("snapshot_encoding"), "full");
  EXPECT_EQ(delta.at("settings").at("snapshot_encoding"), "delta");
  for (const nlohmann::json* r : {&full, &delta}) {
    EXPECT_EQ(r->at("settings").at("time"), "virtual");
    EXPECT_EQ(r->at("settings").at("link"), "cross-continent");
    ExpectPlayedThrough(*r);
    EXPECT_GT(r->at("rtt_ms_mean").get<double>(), 200.0);  // the profile's round trip, not loopback's
  }
  // No player waits for a core: the inputs arrive when the network brings them, whatever the encoding.
  EXPECT_EQ(delta.at("dry_ticks"), full.at("dry_ticks"));
  EXPECT_EQ(delta.at("corrections"), full.at("corrections"));
  EXPECT_GT(delta.at("delta_share").get<double>(), 0.9);
  EXPECT_LT(delta.at("snapshot_bytes").get<double>(), full.at("snapshot_bytes").get<double>());
}

// Run side by side (to time their ticks on the same machine at the same moments), the full and delta runs
// play exactly the games each plays alone: nothing passes between them but the processor.
TEST(BenchScale, RunsSideBySidePlayWhatEachPlaysAlone) {
  const std::string args = "--clients 8 --snapshot-rates 60 --seconds 1 --scale-links cross-continent";
  const nlohmann::json both = RunScale(args);
  ASSERT_EQ(both.size(), 2u);
  for (std::size_t k = 0; k < both.size(); ++k) {
    const nlohmann::json alone = RunScale(args + " --snapshot-encodings " +
                                          both[k].at("settings").at("snapshot_encoding").get<std::string>());
    ASSERT_EQ(alone.size(), 1u);
    for (const char* figure : {"snapshot_bytes", "corrections", "dry_ticks", "ticks", "delta_age_ticks",
                               "encodes_per_tick", "per_client_per_s", "all_final_match"}) {
      EXPECT_EQ(both[k].at(figure), alone[0].at(figure)) << figure;
    }
  }
}

// 128 players under cross-continent: their acks spread over several ticks (jitter), yet the server encodes
// about two deltas a tick (it encoded four when each player was given the newest baseline it held, and the
// players told only their newest snapshot at each send), for a little over 2 bytes a moving cube.
TEST(BenchScale, ManyPlayersOnJitteryLinksShareAboutTwoEncodesATick) {
  const nlohmann::json runs = RunScale(
      "--clients 128 --snapshot-rates 60 --seconds 1 --scale-links cross-continent --snapshot-encodings "
      "delta");
  ASSERT_EQ(runs.size(), 1u);
  const nlohmann::json& delta = runs[0];
  EXPECT_EQ(delta.at("settings").at("link"), "cross-continent");
  ExpectPlayedThrough(delta);
  EXPECT_EQ(delta.at("delta_share").get<double>(), 1.0);
  EXPECT_LE(delta.at("encodes_per_tick").get<double>(), 2.5);
  EXPECT_LE(delta.at("bytes_per_cube_per_snapshot").get<double>(), 2.5);
}

// --interest on,off: both run side by side, a row each. With the smallest radius some cubes are beyond
// each player's set, so that interest management sends InterestSnapshots, within the budget; off, none.
TEST(BenchScale, InterestOnAndOffRunSideBySideARowEach) {
  const nlohmann::json runs = RunScale(
      "--clients 16 --snapshot-rates 60 --seconds 1 --scale-links lan --snapshot-encodings delta "
      "--interest on,off --interest-radius 16 --snapshot-budget 256");
  ASSERT_EQ(runs.size(), 2u);
  const nlohmann::json& on = runs[0];
  const nlohmann::json& off = runs[1];
  EXPECT_EQ(on.at("settings").at("interest"), "on");
  EXPECT_EQ(off.at("settings").at("interest"), "off");
  for (const nlohmann::json* r : {&on, &off}) {
    EXPECT_EQ(r->at("settings").at("interest_radius_units"), 16);
    EXPECT_EQ(r->at("settings").at("snapshot_budget"), 256);
    ExpectPlayedThrough(*r);
    EXPECT_GT(r->at("largest_snapshot_bytes").get<double>(), 0.0);
  }
  EXPECT_GT(on.at("interest_share").get<double>(), 0.0);
  EXPECT_GT(on.at("members_per_snapshot").get<double>(), 0.0);
  EXPECT_LT(on.at("members_per_snapshot").get<double>(), 16.0);
  EXPECT_LE(on.at("states_per_snapshot").get<double>(), on.at("members_per_snapshot").get<double>());
  EXPECT_EQ(off.at("interest_share"), 0.0);
  EXPECT_EQ(off.at("members_per_snapshot"), 0.0);
  EXPECT_EQ(off.at("stalest_member_ms"), 0.0);
}

// --spectators 0,4: the same players with and without four spectators following them, a row each; the
// spectators take the seats of their own and leave the players' game as it was.
TEST(BenchScale, SpectatorsBesideThePlayersAreARowOfTheirOwn) {
  const nlohmann::json runs = RunScale(
      "--clients 8 --snapshot-rates 20 --seconds 1 --scale-links lan --snapshot-encodings delta "
      "--spectators 0,4");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].at("settings").at("spectators"), 0);
  EXPECT_EQ(runs[1].at("settings").at("spectators"), 4);
  for (const nlohmann::json& r : runs) {
    ExpectPlayedThrough(r);
  }
  EXPECT_EQ(runs[0].at("corrections"), runs[1].at("corrections")) << "the players' game is the same";
  const testing::CommandResult bad =
      testing::RunCommand(std::string(NETCUBE_BENCH_EXE) + " --spectators 300");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_EQ(testing::ShortUsageErrorProblem(bad.output, "netcube-bench"), "");
}

// --churn 0,0.25: a quarter of 16 players joining or leaving each second (a churning player replaced
// every half second, 25 times issue 44's 1 in 100) and no churn, side by side. The players who stay keep
// their deltas: a join or a leave is said inside the replay (protocol 12), not by a full snapshot.
TEST(BenchScale, JoinsAndLeavesLeaveThePlayersWhoStayTheirDeltas) {
  const nlohmann::json runs = RunScale(
      "--clients 16 --snapshot-rates 20 --seconds 2 --scale-links lan --snapshot-encodings delta "
      "--churn 0,0.25");
  ASSERT_EQ(runs.size(), 2u);
  const nlohmann::json& still = runs[0];
  const nlohmann::json& churned = runs[1];
  EXPECT_EQ(still.at("settings").at("churn"), 0.0);
  EXPECT_EQ(churned.at("settings").at("churn"), 0.25);
  EXPECT_EQ(still.at("churn_joins"), 0);
  EXPECT_GE(churned.at("churn_joins").get<int>(), 3);  // 4 a second
  EXPECT_GE(churned.at("churn_leaves").get<int>(), 3);
  for (const nlohmann::json* r : {&still, &churned}) {
    ExpectPlayedThrough(*r);
    EXPECT_GE(r->at("players_delta_share").get<double>(), 0.9);
  }
  const testing::CommandResult real =
      testing::RunCommand(std::string(NETCUBE_BENCH_EXE) + " --scenario scale --churn 0.01");
  EXPECT_NE(real.exit_code, 0);
  EXPECT_NE(real.output.find("netcube-bench: --churn needs --scale-time virtual"), std::string::npos)
      << real.output;
}

TEST(BenchScale, ALinkThatIsNoProfileOrAWallClockOnVirtualTimeIsOneLineOfError) {
  for (const char* args :
       {"--scenario scale --scale-links moon", "--scenario scale --scale-time virtual --tick-clock wall"}) {
    const testing::CommandResult run = testing::RunCommand(std::string(NETCUBE_BENCH_EXE) + " " + args);
    EXPECT_NE(run.exit_code, 0) << args;
    EXPECT_NE(run.output.find("netcube-bench: "), std::string::npos) << run.output;
  }
}

TEST(BenchScale, ABadInterestSettingIsAShortUsageError) {
  for (const char* args : {"--interest maybe", "--interest on,sometimes", "--interest-radius 8",
                           "--interest-radius 5000", "--snapshot-budget 100", "--snapshot-budget -1"}) {
    const testing::CommandResult run = testing::RunCommand(std::string(NETCUBE_BENCH_EXE) + " " + args);
    EXPECT_NE(run.exit_code, 0) << args;
    EXPECT_EQ(testing::ShortUsageErrorProblem(run.output, "netcube-bench"), "") << args;
  }
}

// The decode scenario: every code's snapshots decoded and rebuilt by the client's decoder at each age, the
// delta smaller than the full snapshot (the times are the bench's to print, not checked).
TEST(BenchDecode, EveryCodeDecodesAtEveryAgeAndTheDeltaIsTheSmaller) {
  const std::string json = testing::UniqueTempPath("netcube-bench-decode-test", ".json").string();
  const testing::CommandResult run =
      testing::RunCommand(std::string(NETCUBE_BENCH_EXE) + " --scenario decode --json " + json);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::ifstream file(json);
  const nlohmann::json rows = nlohmann::json::parse(file).at("decode");
  std::remove(json.c_str());
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].at("code"), "full");
  EXPECT_DOUBLE_EQ(rows[0].at("bytes_per_cube").get<double>(), 8.25);  // 66 bits: a 10-bit id and 56
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const nlohmann::json& delta = rows[k];
    EXPECT_EQ(delta.at("code"), "delta");
    EXPECT_EQ(delta.at("deltas_pct").get<double>(), 100.0) << delta.at("age");
    EXPECT_LT(delta.at("bytes_per_cube").get<double>(), 8.0);
    EXPECT_GT(delta.at("decode_p50_us").get<double>(), 0.0);
  }
}

}  // namespace
}  // namespace netcube::apps
