// The bot: in process on a virtual clock, and the netcube-bot executable against a real-time server.
#include "netcube/client/bot.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "bot_report_json.h"
#include "compare_csv.h"
#include "files.h"
#include "netcube/server/server.h"
#include "netcube/timeline/journal_file.h"
#include "session.h"
#include "support/command.h"
#include "support/server_thread.h"

namespace netcube::client {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Collisions are off unless a test asks: the bots play the same script side by side, and a push between
// neighbours would be a correction that no network caused.
std::unique_ptr<server::Server> StartServer(Micros now, std::size_t max_clients = 32,
                                            bool collisions = false) {
  server::ServerConfig config;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  config.max_clients = max_clients;
  config.collisions = collisions;
  std::string error;
  auto server = server::Server::Create(config, now, &error);
  EXPECT_NE(server, nullptr) << error;
  return server;
}

void ExpectWellFormedReport(const nlohmann::json& report, std::size_t players) {
  ASSERT_TRUE(report.contains("players"));
  ASSERT_TRUE(report.contains("totals"));
  ASSERT_EQ(report["players"].size(), players);
  for (const nlohmann::json& p : report["players"]) {
    for (const char* key : {"inputs_sent", "inputs_acked", "reconciliations", "corrections", "max_correction",
                            "rtt_ms_mean", "bytes_up", "bytes_down", "interp_underruns", "final_match"}) {
      EXPECT_TRUE(p.contains(key)) << key;
    }
    for (const char* key : {"final_predicted", "final_server"}) {
      ASSERT_TRUE(p.contains(key)) << key;
      EXPECT_TRUE(p[key]["x"].is_number());
      EXPECT_TRUE(p[key]["y"].is_number());
    }
    EXPECT_TRUE(p["final_match"].get<bool>());
    EXPECT_EQ(p["final_predicted"], p["final_server"]);
    EXPECT_GT(p["inputs_sent"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(p["inputs_acked"], p["inputs_sent"]);
  }
  EXPECT_EQ(report["totals"]["players"], players);
  EXPECT_TRUE(report["totals"]["all_final_match"].get<bool>());
}

// Runs the bots against `server` on the virtual clock until they finish; their report, once every player
// has settled.
std::optional<nlohmann::json> PlayToTheEnd(const BotConfig& config, server::Server& server, Micros& now) {
  std::string error;
  auto run = BotRun::Start(config, now, &error);
  EXPECT_NE(run, nullptr) << error;
  if (!run) return std::nullopt;
  const auto real_deadline = std::chrono::steady_clock::now() + seconds(120);
  while (run->Update(now)) {
    server.Update(now);
    now += milliseconds(1);
    if (std::chrono::steady_clock::now() > real_deadline) {
      ADD_FAILURE() << "the bots did not finish within 120 s of real time";
      return std::nullopt;
    }
  }
  EXPECT_FALSE(run->failure()) << run->failure().value_or("");
  EXPECT_TRUE(run->all_settled());
  return nlohmann::json::parse(apps::BotReportJson(run->Report()));
}

TEST(BotRun, PlaysTheScriptSettlesAndReports) {
  Micros now{1'000'000};
  auto server = StartServer(now);
  BotConfig config;
  config.port = server->port();
  config.count = 3;
  config.link.latency_ms = 40;
  config.link.jitter_ms = 10;
  config.link.loss = 0.05;
  std::string error;
  config.script = *InputScript::Parse("R:300,-:100,UL:300,D:200", &error);
  const std::optional<nlohmann::json> json = PlayToTheEnd(config, *server, now);
  ASSERT_TRUE(json);
  ExpectWellFormedReport(*json, 3);
  EXPECT_EQ((*json)["totals"]["corrections"], 0u) << json->dump();
  std::printf("[bot] 3 players, 80 ms rtt + 5%% loss: corrections %s, rtt %.1f ms, bytes up %s down %s\n",
              (*json)["totals"]["corrections"].dump().c_str(), (*json)["totals"]["rtt_ms_mean"].get<double>(),
              (*json)["totals"]["bytes_up"].dump().c_str(), (*json)["totals"]["bytes_down"].dump().c_str());
}

TEST(BotRun, BotsThatCollideEndWithTheirPredictionWhereTheServerHasThem) {
  Micros now{1'000'000};
  auto server = StartServer(now, 32, /*collisions=*/true);
  BotConfig config;
  config.port = server->port();
  config.count = 4;
  config.link.latency_ms = 50;
  // Long enough to cross the arena: the bots pile up against the right wall and push each other there.
  std::string error;
  config.script = *InputScript::Parse("R:4000,-:500", &error);
  const std::optional<nlohmann::json> json = PlayToTheEnd(config, *server, now);
  ASSERT_TRUE(json);
  // The pushes mispredicted (no network loss could have), and every bot still settled where the server
  // has it: the check compares the settled states, not a prediction taken before a later push.
  EXPECT_GT((*json)["totals"]["corrections"].get<std::uint64_t>(), 0u) << json->dump();
  ExpectWellFormedReport(*json, 4);
  std::printf("[bot] 4 players piled up against a wall: corrections %s, all final_match %s\n",
              (*json)["totals"]["corrections"].dump().c_str(),
              (*json)["totals"]["all_final_match"].dump().c_str());
}

TEST(BotRun, ARefusalEndsTheRunWithTheReason) {
  Micros now{1'000'000};
  auto server = StartServer(now, 1);
  BotConfig config;
  config.port = server->port();
  config.count = 2;
  std::string error;
  auto run = BotRun::Start(config, now, &error);
  ASSERT_NE(run, nullptr) << error;
  for (int i = 0; i < 10'000 && run->Update(now); ++i) {
    server->Update(now);
    now += milliseconds(1);
  }
  ASSERT_TRUE(run->failure());
  EXPECT_NE(run->failure()->find("server full"), std::string::npos) << *run->failure();
}

TEST(BotRun, NamesThatWouldNotFitAreRefusedNotCut) {
  BotConfig config;
  config.port = 7777;
  config.name_prefix = "abcdefghijklmn";  // player 9's name is 15 characters, player 10's would be 16
  config.count = 11;
  std::string error;
  EXPECT_EQ(BotRun::Start(config, Micros{0}, &error), nullptr);
  EXPECT_NE(error.find("at most 15"), std::string::npos) << error;
  config.count = 10;
  EXPECT_NE(BotRun::Start(config, Micros{0}, &error), nullptr) << error;
}

testing::CommandResult RunBot(const std::string& args) {
  return testing::RunCommand(std::string(NETCUBE_BOT_EXE) + " " + args);
}

TEST(BotExecutable, WritesAWellFormedReport) {
  testing::ServerThread server;
  ASSERT_NE(server.port(), 0) << server.error();
  const std::filesystem::path report_path =
      std::filesystem::temp_directory_path() / ("netcube-bot-report-" + std::to_string(::getpid()) + ".json");
  const testing::CommandResult exit =
      RunBot("--connect 127.0.0.1:" + std::to_string(server.port()) +
             " --count 2 --script R:200,-:100,L:200 --latency-ms 30 --jitter-ms 5 --loss 0.02"
             " --report " +
             report_path.string());
  ASSERT_EQ(exit.exit_code, 0) << exit.output;
  std::ifstream file(report_path);
  const nlohmann::json report = nlohmann::json::parse(file);
  std::filesystem::remove(report_path);
  ExpectWellFormedReport(report, 2);
  std::printf("%s", exit.output.c_str());
}

// A bot process joining its players in batches (as netcube-bench's real-time runs do, a thousand players
// from three processes) from a loopback address of its own: every player joins, plays and settles where
// the server has it, each under the name and seed it has in a run of one batch.
TEST(BotExecutable, JoinsInBatchesFromItsOwnAddress) {
  constexpr int kPlayers = 21;  // three batches of at most ten
  testing::ServerThread server(kPlayers, kPlayers);
  ASSERT_NE(server.port(), 0) << server.error();
  const std::filesystem::path report_path = std::filesystem::temp_directory_path() /
                                            ("netcube-bot-batches-" + std::to_string(::getpid()) + ".json");
  const testing::CommandResult exit =
      RunBot("--connect 127.0.0.1:" + std::to_string(server.port()) + " --source 127.0.0.2 --count " +
             std::to_string(kPlayers) + " --join-interval-ms 100 --script R:200,-:100 --report " +
             report_path.string());
  ASSERT_EQ(exit.exit_code, 0) << exit.output;
  std::ifstream file(report_path);
  const nlohmann::json report = nlohmann::json::parse(file);
  std::filesystem::remove(report_path);
  ExpectWellFormedReport(report, kPlayers);
  std::set<std::string> names;
  for (const nlohmann::json& player : report["players"]) {
    names.insert(player["name"].get<std::string>());
    EXPECT_TRUE(player["final_match"].get<bool>()) << player.dump();
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kPlayers));
  EXPECT_EQ(names.count("bot0"), 1u);
  EXPECT_EQ(names.count("bot20"), 1u);  // the third batch's first: prefix, batch 2, player 0
}

std::string ReadText(const std::filesystem::path& path) {
  std::string text;
  std::string error;
  EXPECT_TRUE(apps::ReadFile(path.string(), &text, &error)) << error;
  return text;
}

// A recorded bot run keeps every player's keys; it replays with the same keys frame by frame, one player per
// entry of the session, and both runs write a CSV row per frame and player.
TEST(BotExecutable, RecordsAndReplaysEveryPlayersHands) {
  testing::ServerThread server;
  ASSERT_NE(server.port(), 0) << server.error();
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(::getpid());
  const std::filesystem::path recorded = dir / ("netcube-bot-session-" + tag + ".json");
  const std::filesystem::path replayed = dir / ("netcube-bot-replayed-" + tag + ".json");
  const std::filesystem::path csv = dir / ("netcube-bot-" + tag + ".csv");
  const std::string connect = "--connect 127.0.0.1:" + std::to_string(server.port());
  const testing::CommandResult record = RunBot(connect +
                                               " --preset predicted --count 2 --script random "
                                               "--duration 1.2 --latency-ms 40 --record " +
                                               recorded.string());
  ASSERT_EQ(record.exit_code, 0) << record.output;
  std::string error;
  const std::optional<apps::Session> session = apps::ParseSession(ReadText(recorded), &error);
  ASSERT_TRUE(session.has_value()) << error;
  ASSERT_EQ(session->entries.size(), 2U);
  EXPECT_EQ(session->entries[1].label, "p+r");
  EXPECT_FALSE(session->compared) << "two players, each its own network";
  EXPECT_EQ(session->link.latency_ms, 40.0);
  ASSERT_EQ(session->inputs.size(), 2U) << "every player's keys";
  EXPECT_GE(session->inputs[1].size(), 3U) << "a new random combination every 300 ms";
  EXPECT_NE(session->inputs[0], session->inputs[1]) << "random keys differ between players";
  EXPECT_GE(session->frames, 72) << "1.2 s of play";

  // Replayed against the real-time server: the same keys for each player.
  const testing::CommandResult replay = RunBot(connect + " --replay " + recorded.string() + " --record " +
                                               replayed.string() + " --csv " + csv.string());
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  // Every file written is named.
  EXPECT_NE(replay.output.find("wrote " + replayed.string() + " (session"), std::string::npos)
      << replay.output;
  EXPECT_NE(replay.output.find("wrote " + csv.string() + " (CSV)"), std::string::npos) << replay.output;
  const std::optional<apps::Session> again = apps::ParseSession(ReadText(replayed), &error);
  ASSERT_TRUE(again.has_value()) << error;
  // On the real clock a frame the loaded machine skipped is seen late, so a change may land a few frames
  // later, never with other keys.
  ASSERT_EQ(again->inputs.size(), 2U);
  for (std::size_t player = 0; player < 2; ++player) {
    const apps::InputTimeline& before = session->inputs[player];
    const apps::InputTimeline& after = again->inputs[player];
    ASSERT_EQ(after.size(), before.size()) << player;
    for (std::size_t i = 0; i < before.size(); ++i) {
      EXPECT_EQ(after[i].buttons, before[i].buttons) << player << " " << i;
      EXPECT_NEAR(static_cast<double>(after[i].frame), static_cast<double>(before[i].frame), 6.0) << i;
    }
  }
  const std::string rows = ReadText(csv);
  EXPECT_EQ(rows.substr(0, apps::CompareCsvHeader().size()), apps::CompareCsvHeader());
  const auto lines = static_cast<std::int64_t>(std::count(rows.begin(), rows.end(), '\n'));
  EXPECT_EQ((lines - 1) % 2, 0) << "a header, then a row per frame seen and player";
  EXPECT_GT(lines, 1 + 2 * 60);
  EXPECT_NE(rows.find(",bot1,p+r,"), std::string::npos);
  for (const auto& path : {recorded, replayed, csv}) std::filesystem::remove(path);
}

// Without --connect a replay runs its own server on a virtual clock: the keys land on their very frames,
// and two runs of one session (tags by hand included) write the same CSV, byte for byte, under loss and
// jitter too.
TEST(BotExecutable, AReplayWithoutAServerIsTheSameOnEveryRun) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(::getpid());
  const std::filesystem::path session_path = dir / ("netcube-bot-virtual-" + tag + ".json");
  std::string error;
  apps::Session session;
  session.entries = *ParseTechniqueSets("naive,full", &error);
  session.link = {.latency_ms = 60, .jitter_ms = 15, .loss = 0.05};
  session.seed = 9;
  session.frames = 150;
  session.tag_interval_ms = 400;
  session.RecordInput(0, 0, sim::kRight);
  session.RecordInput(0, 40, 0);
  session.RecordInput(0, 70, sim::kDown | sim::kLeft);
  session.RecordInput(0, 120, 0);
  session.hand_tags = {{50, 1, Vec2{20.0, 8.0}}, {90, 0, std::nullopt}};
  ASSERT_TRUE(apps::WriteFile(session_path.string(), apps::SessionToJson(session), &error)) << error;

  std::vector<std::string> csvs;
  std::vector<apps::Session> replays;
  for (int run = 0; run < 2; ++run) {
    const std::filesystem::path csv = dir / ("netcube-bot-virtual-" + tag + std::to_string(run) + ".csv");
    const std::filesystem::path again = dir / ("netcube-bot-virtual-" + tag + std::to_string(run) + ".json");
    const testing::CommandResult replay = RunBot("--replay " + session_path.string() + " --csv " +
                                                 csv.string() + " --record " + again.string());
    ASSERT_EQ(replay.exit_code, 0) << replay.output;
    csvs.push_back(ReadText(csv));
    const std::optional<apps::Session> read = apps::ParseSession(ReadText(again), &error);
    ASSERT_TRUE(read.has_value()) << error;
    replays.push_back(*read);
    std::filesystem::remove(csv);
    std::filesystem::remove(again);
  }
  std::filesystem::remove(session_path);
  EXPECT_GT(std::count(csvs[0].begin(), csvs[0].end(), '\n'), 1 + 2 * 150);
  EXPECT_TRUE(csvs[0] == csvs[1]) << "two replays of one session wrote different CSVs";
  for (const apps::InputTimeline& timeline : replays[0].inputs) {
    EXPECT_EQ(timeline, session.inputs[0]) << "every player held the session's keys on their frames";
  }
  EXPECT_EQ(replays[0].hand_tags, session.hand_tags) << "the tags by hand were replayed and kept";
  EXPECT_TRUE(replays[0] == replays[1]);
}

TEST(BotExecutable, BadFlagsAndScriptsExitNonZero) {
  for (const char* args : {"",
                           "--connect 127.0.0.1:7777 --count 0",
                           "--connect 127.0.0.1:7777 --script X:100",
                           "--connect 127.0.0.1:7777 --script R:",
                           "--connect nohost",
                           "--connect 127.0.0.1:99999",
                           "--connect 127.0.0.1:7777 --preset fast",
                           "--connect 127.0.0.1:7777 --prediction maybe",
                           "--connect 127.0.0.1:7777 --loss 2",
                           "--connect 127.0.0.1:7777 --profile moon",
                           "--connect 127.0.0.1:7777 --redundancy 65",
                           "--connect 127.0.0.1:7777 --duration nan",
                           "--connect 127.0.0.1:7777 --duration inf",
                           "--connect 127.0.0.1:7777 --duration 1e300",
                           "--connect 127.0.0.1:7777 --settle-timeout nan",
                           "--connect 127.0.0.1:7777 --loss nan",
                           "--connect 127.0.0.1:7777 --latency-ms inf",
                           "--connect 127.0.0.1:7777 --name abcdefghijklmn --count 11",
                           "--connect 127.0.0.1:7777 --name 'tab\there'",
                           "--connect 127.0.0.1:7777 --bogus",
                           "--connect 127.0.0.1:7777 --replay /nonexistent",
                           "--connect 127.0.0.1:7777 --replay x.json --script circle",
                           "--connect 127.0.0.1:7777 --join-interval-ms -1",
                           "--connect 127.0.0.1:7777 --join-interval-ms 100 --csv frames.csv"}) {
    const testing::CommandResult exit = RunBot(args);
    EXPECT_NE(exit.exit_code, 0) << args;
    EXPECT_FALSE(exit.output.empty()) << args;
  }
  const testing::CommandResult script = RunBot("--connect 127.0.0.1:7777 --script R:100,Q:50");
  EXPECT_NE(script.output.find("segment 2"), std::string::npos) << script.output;
  // Names are refused as a usage error, never cut to fit: bot10 with this prefix would be 16 characters.
  const testing::CommandResult name = RunBot("--connect 127.0.0.1:7777 --name abcdefghijklmn --count 11");
  EXPECT_NE(name.output.find("at most 15"), std::string::npos) << name.output;
  EXPECT_EQ(testing::ShortUsageErrorProblem(name.output, "netcube-bot"), "");
  EXPECT_EQ(
      testing::ShortUsageErrorProblem(RunBot("--connect 127.0.0.1:7777 --seed -1").output, "netcube-bot"),
      "");
  EXPECT_NE(RunBot("--connect :7777").output.find("the host is empty"), std::string::npos);
}

TEST(BotExecutable, ARefusedConnectionPrintsTheReason) {
  testing::ServerThread server(1);
  ASSERT_NE(server.port(), 0) << server.error();
  const testing::CommandResult exit =
      RunBot("--connect 127.0.0.1:" + std::to_string(server.port()) + " --count 2 --duration 1");
  EXPECT_NE(exit.exit_code, 0);
  EXPECT_NE(exit.output.find("server full"), std::string::npos) << exit.output;
}

// Against a server in another process over loopback, --explain writes each glitch as a JSON line and
// --journal-out saves the players' rings (no server ring, and it says so) for the lab to open.
TEST(BotExecutable, ExplainsItsPlayersGlitchesAndSavesTheirJournal) {
  testing::ServerThread server;
  ASSERT_NE(server.port(), 0) << server.error();
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(::getpid());
  const std::filesystem::path explain = dir / ("netcube-bot-explain-" + tag + ".jsonl");
  const std::filesystem::path journal = dir / ("netcube-bot-journal-" + tag + ".ncj");
  const testing::CommandResult exit =
      RunBot("--connect 127.0.0.1:" + std::to_string(server.port()) +
             " --count 2 --preset naive --script R:400,L:400,R:400 --latency-ms 40 --loss 0.2 --explain " +
             explain.string() + " --journal-out " + journal.string());
  ASSERT_EQ(exit.exit_code, 0) << exit.output;
  EXPECT_NE(exit.output.find("the server runs in another process"), std::string::npos) << exit.output;
  EXPECT_NE(exit.output.find("wrote " + journal.string() + " (journal"), std::string::npos) << exit.output;
  std::ifstream lines(explain);
  int explained = 0;
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json e = nlohmann::json::parse(line);
    for (const char* key : {"frame", "time_ms", "client", "kind", "causes", "text"})
      EXPECT_TRUE(e.contains(key)) << key << " in " << line;
    EXPECT_TRUE(e["client"] == 1 || e["client"] == 2) << line;
    ++explained;
  }
  EXPECT_GT(explained, 0) << "no prediction, and no key press seen late";
  std::string error;
  const std::optional<timeline::SavedJournal> saved = timeline::DecodeJournalFile(ReadText(journal), &error);
  std::filesystem::remove(explain);
  std::filesystem::remove(journal);
  ASSERT_TRUE(saved) << error;
  EXPECT_FALSE(saved->has_server);
  EXPECT_EQ(saved->labels, (std::vector<std::string>{"bot0", "bot1"}));
  EXPECT_EQ(saved->journal.server().size(), 0U);
  EXPECT_GT(saved->journal.client(0).size(), 100U);
  EXPECT_GT(saved->journal.client(1).size(), 100U);
  EXPECT_EQ(saved->explanations.size(), static_cast<std::size_t>(explained));
  EXPECT_NE(saved->title.find("--journal-out"), std::string::npos) << saved->title;
}

// --link-script steps a player's clock on the bot's real clock; what it sees next names the clock.
TEST(BotExecutable, ExplainsAPlayersClockStepOverLoopback) {
  testing::ServerThread server;
  ASSERT_NE(server.port(), 0) << server.error();
  const std::filesystem::path explain =
      std::filesystem::temp_directory_path() / ("netcube-bot-clock-" + std::to_string(::getpid()) + ".jsonl");
  const testing::CommandResult exit = RunBot(
      "--connect 127.0.0.1:" + std::to_string(server.port()) +
      " --count 2 --script R:2500 --latency-ms 20 --link-script \"1.5s clock +300ms client 1\" --explain " +
      explain.string());
  ASSERT_EQ(exit.exit_code, 0) << exit.output;
  std::ifstream lines(explain);
  int clock = 0;
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json e = nlohmann::json::parse(line);
    for (const nlohmann::json& cause : e["causes"]) {
      if (cause["cause"] != "clock") continue;
      EXPECT_EQ(e["client"], 1) << line;
      EXPECT_GE(e["time_ms"].get<double>(), 1500.0) << line;
      ++clock;
    }
  }
  std::filesystem::remove(explain);
  EXPECT_GT(clock, 0) << "nothing player 1 saw after its clock jumped 300 ms names it";
}

}  // namespace
}  // namespace netcube::client
