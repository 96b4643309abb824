// The comparison's session file: written and read back unchanged, every bound checked on reading.
#include "session.h"

#include <gtest/gtest.h>

#include <string>

namespace netcube::apps {
namespace {

Session Sample() {
  Session session;
  std::string error;
  session.entries = *client::ParseTechniqueSets("naive,p+r,full", &error);
  session.entries[2].settings.redundancy = 4;
  session.link = {.latency_ms = 125, .jitter_ms = 20, .loss = 0.02};
  session.seed = 99;
  session.tick_rate = 30;
  session.snapshot_rate = 10;
  session.frames = 600;
  session.RecordInput(0, 0);  // nothing held: not a change
  session.RecordInput(10, 8);
  session.RecordInput(11, 8);
  session.RecordInput(40, 9);
  session.RecordInput(70, 0);
  return session;
}

TEST(Session, KeepsOnlyTheChangesOfTheHeldButtons) {
  const Session session = Sample();
  ASSERT_EQ(session.inputs.size(), 3U);
  EXPECT_EQ(session.ButtonsAt(0), 0);
  EXPECT_EQ(session.ButtonsAt(9), 0);
  EXPECT_EQ(session.ButtonsAt(10), 8);
  EXPECT_EQ(session.ButtonsAt(39), 8);
  EXPECT_EQ(session.ButtonsAt(40), 9);
  EXPECT_EQ(session.ButtonsAt(500), 0);
}

TEST(Session, RoundTripsThroughItsJson) {
  const Session session = Sample();
  std::string error;
  const std::optional<Session> read = ParseSession(SessionToJson(session), &error);
  ASSERT_TRUE(read.has_value()) << error;
  EXPECT_EQ(*read, session);
  EXPECT_EQ(CompareTitle(session), "naive vs p+r vs full: 250 ms round trip, +-20 ms jitter, 2% loss, seed 99");
}

TEST(Session, BadFilesAreRefusedWithAReason) {
  const std::string good = SessionToJson(Sample());
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  for (const std::string& bad :
       {std::string("{"), std::string("[]"), with("\"netcube_session\": 1", "\"netcube_session\": 2"),
        with("\"loss\": 0.02", "\"loss\": 1.5"), with("\"tick_rate\": 30", "\"tick_rate\": 0"),
        with("\"frames\": 600", "\"frames\": 50"), with("\"redundancy\": 4", "\"redundancy\": 0"),
        with("\"label\": \"naive\"", "\"label\": 7")}) {
    std::string error;
    EXPECT_FALSE(ParseSession(bad, &error).has_value()) << bad;
    EXPECT_FALSE(error.empty());
  }
}

}  // namespace
}  // namespace netcube::apps
