// netcube-client --explain and --link-script as a child process: every correction counted in the CSV of a
// lossy comparison has its explanation at the same frame and client, each line carries the fields the
// docs promise, a scripted blackout is explained by its lost snapshots and the link event, and a bad
// script says what is wrong in one line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "gui/client_exe.h"

namespace netcube::gui {
namespace {

std::vector<nlohmann::json> ReadLines(const std::filesystem::path& path) {
  std::vector<nlohmann::json> lines;
  std::ifstream file(path);
  for (std::string line; std::getline(file, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  for (std::string cell; std::getline(stream, cell, ',');) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

bool Names(const nlohmann::json& line, const std::string& cause) {
  return std::any_of(line["causes"].begin(), line["causes"].end(),
                     [&](const nlohmann::json& c) { return c["cause"] == cause; });
}

TEST(ExplainExecutable, EveryCorrectionInTheCsvOfALossyComparisonIsExplainedAtItsFrame) {
  const auto csv = ClientTemp("lossy.csv");
  const auto explain = ClientTemp("lossy.jsonl");
  const testing::CommandResult run =
      RunClient("--lab --compare naive,p,predicted,full --profile lossy --frames 1200 --csv " + csv.string() +
                " --explain " + explain.string() +
                " --script R:700,-:900,D:500,-:900,L:900,-:900,U:500,-:900 --screenshot " +
                ClientTemp("lossy.png").string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<nlohmann::json> lines = ReadLines(explain);
  ASSERT_FALSE(lines.empty());
  std::set<std::tuple<int, long, std::string>> explained;
  for (const nlohmann::json& line : lines) {
    for (const char* field : {"frame", "time_ms", "client", "kind", "causes", "text"}) {
      EXPECT_TRUE(line.contains(field)) << field << " missing in " << line.dump();
    }
    EXPECT_FALSE(line["causes"].empty()) << line.dump();
    // No script and no collisions in a comparison: neither may be named.
    EXPECT_FALSE(Names(line, "link_event")) << line.dump();
    EXPECT_FALSE(Names(line, "collision")) << line.dump();
    explained.insert({line["client"].get<int>(), line["frame"].get<long>(), line["kind"].get<std::string>()});
  }

  std::ifstream file(csv);
  std::string header;
  std::getline(file, header);
  const std::vector<std::string> columns = SplitCsv(header);
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
  };
  const std::size_t frame_column = column("frame");
  const std::size_t entry_column = column("entry");
  const std::size_t corrections_column = column("corrections");
  std::vector<std::string> entries;
  std::map<std::string, long> corrections;
  int counted = 0;
  for (std::string row; std::getline(file, row);) {
    const std::vector<std::string> cells = SplitCsv(row);
    const std::string& entry = cells[entry_column];
    if (std::find(entries.begin(), entries.end(), entry) == entries.end()) entries.push_back(entry);
    const int client =
        static_cast<int>(std::find(entries.begin(), entries.end(), entry) - entries.begin()) + 1;
    const long count = cells[corrections_column].empty() ? 0 : std::stol(cells[corrections_column]);
    if (count > corrections[entry]) {
      ++counted;
      EXPECT_TRUE(explained.count({client, std::stol(cells[frame_column]), "correction"}))
          << entry << " frame " << cells[frame_column];
    }
    corrections[entry] = count;
  }
  EXPECT_GT(counted, 0);
  std::filesystem::remove(csv);
  std::filesystem::remove(explain);
  std::filesystem::remove(ClientTemp("lossy.png"));
}

TEST(ExplainExecutable, AScriptedBlackoutIsExplainedByItsLostSnapshotsAndTheLinkEvent) {
  const auto explain = ClientTemp("blackout.jsonl");
  const testing::CommandResult run = RunClient(
      "--lab --frames 240 --script idle --script2 U:1000,D:2000,U:1000 "
      "--link-script '2s blackout 400ms client 1' "
      "--explain " +
      explain.string() + " --screenshot " + ClientTemp("blackout.png").string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  bool found = false;
  for (const nlohmann::json& line : ReadLines(explain)) {
    if (line["client"] != 1 || line["kind"] != "remote_frozen") continue;
    const double time_ms = line["time_ms"];
    if (time_ms < 2000.0 || time_ms > 2600.0) continue;
    if (!Names(line, "loss") || !Names(line, "link_event")) continue;
    for (const nlohmann::json& cause : line["causes"]) {
      if (cause["cause"] == "loss") {
        EXPECT_GE(cause["ticks"][0].get<int>(), 119) << line.dump();  // sent from 2 s on, 60 ticks a second
      }
    }
    found = true;
  }
  EXPECT_TRUE(found) << "no freeze of player 1's view explained by the blackout";
  std::filesystem::remove(explain);
  std::filesystem::remove(ClientTemp("blackout.png"));
}

TEST(ExplainExecutable, ABadLinkScriptSaysWhatIsWrongInOneLine) {
  for (const char* script :
       {"'2s warp 3'", "'2s loss 130%'", "'soon loss 3%'", "@/nonexistent/script", "'2s loss 3% client 3'"}) {
    const testing::CommandResult run = RunClient(std::string("--lab --frames 1 --link-script ") + script);
    EXPECT_EQ(run.exit_code, 2) << script << ": " << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << script << ": " << run.output;
  }
}

}  // namespace
}  // namespace netcube::gui
