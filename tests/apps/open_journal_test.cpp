// netcube-client --open-journal, run in process: a saved journal shown headless ends in a PNG; a truncated
// or foreign file is refused (exit 2) before any window opens.
#include "open_journal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "files.h"
#include "netcube/timeline/journal_file.h"

namespace netcube::apps {
namespace {

std::filesystem::path Temp(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("netcube_open_journal_" + std::to_string(::getpid()) + "_" + name);
}

std::string SavedBytes() {
  timeline::Journal journal(2, 16);
  journal.client(0).Add({Micros(1'000'000), 60, timeline::EventKind::kLinkChange});
  journal.client(1).Add({Micros(1'500'000), 90, timeline::EventKind::kUnderrun});
  timeline::Explanation e;
  e.frame = 90;
  e.time = Micros(1'500'000);
  e.client = 1;
  e.entry = "bot1";
  e.kind = timeline::GlitchKind::kUnderrun;
  e.causes.push_back({timeline::CauseKind::kClock, "this client's clock stepped +300 ms at 1.40 s"});
  e.line = "1.50 s, bot1 runs out of snapshots to interpolate: this client's clock stepped +300 ms at 1.40 s";
  return timeline::EncodeJournalFile("netcube-bot --count 2", false, {"bot0", "bot1"}, {}, journal, {e});
}

RunOptions Headless(const std::filesystem::path& screenshot) {
  RunOptions run;
  run.app.headless = true;
  run.app.width = 960;
  run.app.height = 540;
  run.frames = 2;
  run.screenshot = screenshot.string();
  return run;
}

TEST(OpenJournal, ShowsASavedJournalHeadless) {
  const std::filesystem::path journal = Temp("ok.ncj");
  const std::filesystem::path png = Temp("ok.png");
  std::string error;
  ASSERT_TRUE(WriteFile(journal.string(), SavedBytes(), &error)) << error;
  EXPECT_EQ(OpenJournal(Headless(png), journal.string()), 0);
  EXPECT_GT(std::filesystem::file_size(png), 1000U);
  std::filesystem::remove(journal);
  std::filesystem::remove(png);
}

TEST(OpenJournal, RefusesATruncatedOrForeignFile) {
  const std::filesystem::path png = Temp("bad.png");
  std::string error;
  const std::string bytes = SavedBytes();
  for (const std::string& bad : {bytes.substr(0, bytes.size() / 2), std::string("{\"frame\": 1}\n")}) {
    const std::filesystem::path journal = Temp("bad.ncj");
    ASSERT_TRUE(WriteFile(journal.string(), bad, &error)) << error;
    EXPECT_EQ(OpenJournal(Headless(png), journal.string()), 2);
    EXPECT_FALSE(std::filesystem::exists(png));
    std::filesystem::remove(journal);
  }
  EXPECT_EQ(OpenJournal(Headless(png), Temp("missing.ncj").string()), 2);
}

}  // namespace
}  // namespace netcube::apps
