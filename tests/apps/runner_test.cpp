// The client executable's frame loop, run in process: a headless lab run on the virtual clock that ends in
// a PNG file, and comparisons recorded and replayed to the same bytes.
#include "runner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "files.h"

namespace netcube::apps {
namespace {

TEST(RunLab, WritesAScreenshotHeadless) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("netcube_gui_test_" + std::to_string(::getpid()) + ".png");
  LabRunOptions options;
  options.run.app.headless = true;
  options.run.app.width = 960;
  options.run.app.height = 540;
  options.run.frames = 30;
  options.run.screenshot = path.string();
  std::string error;
  options.scripts[0] = client::InputScript::Parse("circle", &error);
  ASSERT_EQ(RunLab(options), 0);
  std::ifstream file(path, std::ios::binary);
  char signature[8] = {};
  file.read(signature, sizeof signature);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  file.close();
  EXPECT_GT(std::filesystem::file_size(path), 1000U);
  std::filesystem::remove(path);
}

std::filesystem::path Temp(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("netcube_compare_" + std::to_string(::getpid()) + "_" + name);
}

std::string Read(const std::filesystem::path& path) {
  std::string text;
  std::string error;
  EXPECT_TRUE(ReadFile(path.string(), &text, &error)) << error;
  std::filesystem::remove(path);
  return text;
}

LabRunOptions Headless() {
  LabRunOptions options;
  options.run.app.headless = true;
  options.run.app.width = 960;
  options.run.app.height = 540;
  return options;
}

// Records a comparison driven by a script, then replays its session; every output is returned as bytes.
struct Outputs {
  std::string session;
  std::string csv;
  std::string png;
};

Outputs Record(const std::string& entries, const transport::LinkSettings& link, int frames) {
  LabRunOptions options = Headless();
  std::string error;
  options.session.entries = *client::ParseTechniqueSets(entries, &error);
  options.session.link = link;
  options.session.seed = 5;
  SetUpComparison(options);
  options.scripts[0] = client::InputScript::Parse("R:700,D:500,-:400,L:600,U:300,-:500,DL:600", &error);
  EXPECT_TRUE(options.scripts[0].has_value()) << error;
  options.run.frames = frames;
  options.record = Temp("session.json").string();
  options.csv = Temp("record.csv").string();
  options.plot = Temp("record.png").string();
  EXPECT_EQ(RunLab(options), 0);
  return {Read(options.record), Read(options.csv), Read(options.plot)};
}

Outputs Replay(const std::string& session_json, const std::string& entries = "") {
  LabRunOptions options = Headless();
  std::string error;
  options.session = *ParseSession(session_json, &error);
  if (!entries.empty()) options.session.entries = *client::ParseTechniqueSets(entries, &error);
  SetUpComparison(options);
  options.replay = true;
  options.run.frames = static_cast<int>(options.session.frames);
  options.csv = Temp("replay.csv").string();
  options.plot = Temp("replay.png").string();
  EXPECT_EQ(RunLab(options), 0);
  return {"", Read(options.csv), Read(options.plot)};
}

std::vector<std::vector<std::string>> Rows(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(csv);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    std::string cell;
    while (std::getline(fields, cell, ',')) cells.push_back(cell);
    rows.push_back(std::move(cells));
  }
  return rows;
}

TEST(RunLab, ARecordedComparisonReplaysToTheSameBytes) {
  const Outputs recorded =
      Record("naive,predicted,full", {.latency_ms = 125, .jitter_ms = 20, .loss = 0.05}, 360);
  ASSERT_FALSE(recorded.session.empty());
  const std::vector<std::vector<std::string>> rows = Rows(recorded.csv);
  ASSERT_EQ(rows.size(), 1U + 360U * 3U) << "a header, then a row per frame and client";
  EXPECT_EQ(rows[0][0], "frame");
  EXPECT_EQ(rows.back()[2], "full");
  EXPECT_EQ(rows.back()[3], "p+r+i+s+e+a");
  EXPECT_EQ(recorded.png.substr(1, 3), "PNG");
  std::set<std::string> drawn_x;
  for (std::size_t i = 1; i < rows.size(); ++i) drawn_x.insert(rows[i][4]);
  EXPECT_GT(drawn_x.size(), 50U) << "the script moves the cubes";

  const Outputs first = Replay(recorded.session);
  const Outputs second = Replay(recorded.session);
  EXPECT_TRUE(first.csv == second.csv) << "two replays of one session differ";
  EXPECT_TRUE(first.png == second.png) << "two replays of one session drew different plots";
  EXPECT_TRUE(first.csv == recorded.csv) << "the replay differs from the recorded run";
}

// The other family re-simulates the world at every snapshot and frame: a replay still draws the same frames.
TEST(RunLab, AComparisonPredictingTheOthersReplaysToTheSameBytes) {
  const Outputs recorded =
      Record("full,predict-others", {.latency_ms = 125, .jitter_ms = 20, .loss = 0.05}, 360);
  const std::vector<std::vector<std::string>> rows = Rows(recorded.csv);
  ASSERT_EQ(rows.size(), 1U + 360U * 2U);
  EXPECT_EQ(rows.back()[2], "predict-others");
  EXPECT_EQ(rows.back()[3], "p+r+i+s+e+a+o");
  const Outputs first = Replay(recorded.session);
  const Outputs second = Replay(recorded.session);
  EXPECT_TRUE(first.csv == second.csv) << "two replays of one session differ";
  EXPECT_TRUE(first.csv == recorded.csv) << "the replay differs from the recorded run";
}

// Tags made by hand are part of the session: a replay fires them at their frames (toward the clicked point,
// or along the cube's motion), the same on every run, and they show in what the clients sent.
TEST(RunLab, AReplayFiresTheRecordedTagsByHand) {
  const Outputs recorded = Record("naive,full", {.latency_ms = 40}, 240);
  std::string error;
  Session session = *ParseSession(recorded.session, &error);
  ASSERT_TRUE(session.hand_tags.empty()) << "nobody pressed a key";
  session.hand_tags = {
      {120, 0, client::Vec2{30.0, 10.0}}, {120, 1, std::nullopt}, {180, 1, client::Vec2{5.0, 5.0}}};
  const std::string tagged = SessionToJson(session);
  ASSERT_EQ(ParseSession(tagged, &error)->hand_tags, session.hand_tags) << error;

  const Outputs first = Replay(tagged);
  const Outputs second = Replay(tagged);
  EXPECT_TRUE(first.csv == second.csv) << "two replays with tags by hand differ";
  EXPECT_TRUE(first.csv != recorded.csv) << "the tags were not fired";
  // The rows up to the first tag's frame are the recorded run's: a tag changes only what follows it.
  const auto with = Rows(first.csv);
  const auto without = Rows(recorded.csv);
  ASSERT_EQ(with.size(), without.size());
  constexpr std::size_t kBytesUp = 15;
  for (std::size_t i = 1; i < with.size(); ++i) {
    if (std::stoll(with[i][0]) <= 120) {
      EXPECT_EQ(with[i], without[i]) << "row " << i;
    }
  }
  EXPECT_NE(with.back()[kBytesUp], without.back()[kBytesUp]) << "a tag is sent to the server";
}

// Without loss or reordering every input reaches the server at the same tick whatever the techniques (with
// them, redundancy and reconciliation decide which inputs survive: technique effects too), so replaying with
// other techniques moves the same cubes on the server at the same times over the same network: only what
// each client draws changes.
TEST(RunLab, AReplayWithOtherTechniquesChangesOnlyWhatTheyDo) {
  const Outputs recorded = Record("naive,full", {.latency_ms = 100}, 300);
  const auto before = Rows(recorded.csv);
  const auto after = Rows(Replay(recorded.session, "full,naive").csv);
  ASSERT_EQ(before.size(), after.size());
  constexpr std::size_t kTechniques = 3, kDrawnX = 4, kServerX = 6, kServerY = 7, kRtt = 11;
  std::size_t drawn_differs = 0;
  for (std::size_t i = 1; i < before.size(); ++i) {
    EXPECT_NE(before[i][kTechniques], after[i][kTechniques]);
    EXPECT_EQ(before[i][kServerX], after[i][kServerX]) << "row " << i;
    EXPECT_EQ(before[i][kServerY], after[i][kServerY]) << "row " << i;
    EXPECT_EQ(before[i][kRtt], after[i][kRtt]) << "row " << i;
    if (before[i][kDrawnX] != after[i][kDrawnX]) ++drawn_differs;
  }
  EXPECT_GT(drawn_differs, 100U);
}

}  // namespace
}  // namespace netcube::apps
