// netcube-client --open-journal, run in process: a saved journal shown headless ends in a PNG, a lab run's
// --journal-out opens with what it explained; a truncated or foreign file is refused (exit 2) before any
// window opens.
#include "open_journal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "files.h"
#include "netcube/timeline/journal_file.h"
#include "netcube/timeline/link_script.h"

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

// A lab run whose player 1's clock steps saves its journal (--journal-out); the file holds the lab's rings,
// its script and the explanation naming the clock, and opens.
TEST(OpenJournal, ALabRunsJournalSavedAndOpened) {
  const std::filesystem::path journal = Temp("lab.ncj");
  const std::filesystem::path png = Temp("lab.png");
  LabRunOptions options;
  options.run.app.headless = true;
  options.run.app.width = 960;
  options.run.app.height = 540;
  options.run.frames = 240;
  std::string error;
  options.scripts[0] = client::InputScript::Parse("R:700,L:700,R:700,L:700", &error);
  options.scripts[1] = client::InputScript::Parse("circle", &error);
  auto script = timeline::ParseLinkScript("3s clock +300ms client 1", &error);
  ASSERT_TRUE(script) << error;
  options.link_script = std::move(*script);
  options.journal_out = journal.string();
  options.title = "lab with a clock step";
  ASSERT_EQ(RunLab(options), 0);
  std::string bytes;
  ASSERT_TRUE(ReadFile(journal.string(), &bytes, &error)) << error;
  const std::optional<timeline::SavedJournal> saved = timeline::DecodeJournalFile(bytes, &error);
  ASSERT_TRUE(saved) << error;
  EXPECT_TRUE(saved->has_server);
  EXPECT_EQ(saved->title, "lab with a clock step");
  EXPECT_EQ(saved->labels.size(), 2U);
  EXPECT_EQ(saved->script, (std::vector<std::string>{"3s clock +300ms client 1"}));
  EXPECT_GT(saved->journal.server().size(), 0U);
  const bool clock_named =
      std::any_of(saved->explanations.begin(), saved->explanations.end(), [](const timeline::Explanation& e) {
        return e.client == 0 && e.time >= Micros(3'000'000) &&
               std::any_of(e.causes.begin(), e.causes.end(),
                           [](const timeline::Cause& c) { return c.kind == timeline::CauseKind::kClock; });
      });
  EXPECT_TRUE(clock_named) << "no saved explanation names player 1's clock step";
  EXPECT_EQ(OpenJournal(Headless(png), journal.string()), 0);
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
