// The lab's per-frame digests (netcube-client --digests): the same seed and keys give the same lines, one
// per frame; other keys or another seed give other ones; and a scripted run without a window (the web
// probe's way) gives the desktop lab's lines.
#include "lab_digest.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "files.h"
#include "netcube/client/input_script.h"
#include "runner.h"

namespace netcube::apps {
namespace {

constexpr int kFrames = 150;

std::vector<std::string> DigestLines(const std::string& script, std::uint64_t seed) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("netcube_digests_" + std::to_string(::getpid()) + ".txt");
  LabRunOptions options;
  options.run.app.headless = true;
  options.run.app.width = 640;
  options.run.app.height = 360;
  options.run.frames = kFrames;
  options.digests = path.string();
  std::string error;
  options.scripts[0] = client::InputScript::Parse(script, &error);
  options.scripts[1] = client::InputScript::Parse("idle", &error);
  for (std::size_t i = 0; i < options.lab.players.size(); ++i) options.lab.players[i].client.seed = seed + i;
  EXPECT_EQ(RunLab(options), 0);
  std::string text;
  EXPECT_TRUE(ReadFile(path.string(), &text, &error)) << error;
  std::filesystem::remove(path);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(LabDigest, TheSameRunGivesTheSameLinesOnePerFrame) {
  const std::vector<std::string> first = DigestLines("R:800,-:300,DL:500", 1);
  ASSERT_EQ(first.size(), static_cast<std::size_t>(kFrames));
  EXPECT_EQ(first.front().substr(0, 2), "0 ");
  EXPECT_EQ(first.back().substr(0, 4), "149 ");
  EXPECT_EQ(first.back().size(), 4U + 16U);
  std::set<std::string> distinct;
  for (const std::string& line : first) distinct.insert(line.substr(line.find(' ') + 1));
  EXPECT_GT(distinct.size(), static_cast<std::size_t>(kFrames) / 2) << "the frames differ";
  EXPECT_EQ(DigestLines("R:800,-:300,DL:500", 1), first);
}

TEST(LabDigest, OtherKeysOrAnotherSeedGiveOtherDigests) {
  const std::vector<std::string> base = DigestLines("R:800,-:300,DL:500", 1);
  const std::vector<std::string> keys = DigestLines("L:800,-:300,DL:500", 1);
  ASSERT_EQ(keys.size(), base.size());
  EXPECT_NE(keys.back(), base.back());
  // The seed drives the random script's keys (and the link's luck, none on the default link).
  EXPECT_NE(DigestLines("random", 7).back(), DigestLines("random", 1).back());
}

TEST(LabDigest, AScriptedRunWithoutAWindowNeedsEveryPlayersScript) {
  LabRunOptions options;
  std::string error;
  options.scripts[0] = client::InputScript::Parse("R:500", &error);
  EXPECT_TRUE(ScriptedLabDigests(options, 10, &error).empty());
  EXPECT_EQ(error, "player 2 has no script");
}

TEST(LabDigest, AScriptedRunWithoutAWindowGivesTheDesktopLabsLines) {
  LabRunOptions options;
  std::string error;
  options.scripts[0] = client::InputScript::Parse("R:800,-:300,DL:500", &error);
  options.scripts[1] = client::InputScript::Parse("idle", &error);
  for (std::size_t i = 0; i < options.lab.players.size(); ++i) options.lab.players[i].client.seed = 1 + i;
  const std::vector<std::uint64_t> digests = ScriptedLabDigests(options, kFrames, &error);
  ASSERT_EQ(digests.size(), static_cast<std::size_t>(kFrames)) << error;
  const std::vector<std::string> lines = DigestLines("R:800,-:300,DL:500", 1);
  ASSERT_EQ(lines.size(), digests.size());
  for (std::size_t frame = 0; frame < lines.size(); ++frame) {
    const std::string line = DigestLine(static_cast<std::int64_t>(frame), digests[frame]);
    ASSERT_EQ(lines[frame], line.substr(0, line.size() - 1)) << "frame " << frame;
  }
}

}  // namespace
}  // namespace netcube::apps
