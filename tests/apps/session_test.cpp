// The comparison's session file: written and read back unchanged, every bound checked on reading.
#include "session.h"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

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
  session.RecordInput(0, 0, 0);  // nothing held: not a change
  session.RecordInput(0, 10, 8);
  session.RecordInput(0, 11, 8);
  session.RecordInput(0, 40, 9);
  session.RecordInput(0, 70, 0);
  session.hand_tags = {{20, 1, client::Vec2{3.5, 4.25}}, {20, 2, std::nullopt}, {31, 0, std::nullopt}};
  return session;
}

TEST(Session, KeepsOnlyTheChangesOfTheHeldButtons) {
  const Session session = Sample();
  ASSERT_EQ(session.inputs.size(), 1U);
  ASSERT_EQ(session.inputs[0].size(), 3U);
  for (std::size_t player = 0; player < session.entries.size(); ++player) {
    EXPECT_EQ(session.ButtonsAt(player, 0), 0) << "one timeline drives every entry";
    EXPECT_EQ(session.ButtonsAt(player, 9), 0);
    EXPECT_EQ(session.ButtonsAt(player, 10), 8);
    EXPECT_EQ(session.ButtonsAt(player, 39), 8);
    EXPECT_EQ(session.ButtonsAt(player, 40), 9);
    EXPECT_EQ(session.ButtonsAt(player, 500), 0);
  }
}

// The bot's players each keep their own keys and network.
TEST(Session, IndependentPlayersKeepTheirOwnKeysAndSeeds) {
  Session session = Sample();
  session.compared = false;
  session.RecordInput(2, 5, 1);
  session.RecordInput(2, 30, 0);
  ASSERT_EQ(session.inputs.size(), 3U);
  EXPECT_EQ(session.ButtonsAt(0, 20), 8);
  EXPECT_EQ(session.ButtonsAt(1, 20), 0);
  EXPECT_EQ(session.ButtonsAt(2, 20), 1);
  EXPECT_EQ(session.SeedOf(2), 101U);
  const client::InputScript script = session.Script(2);
  EXPECT_EQ(script.length(), SessionFrameTime(600));
  EXPECT_EQ(script.ButtonsAt(SessionFrameTime(4), 1), 0);
  EXPECT_EQ(script.ButtonsAt(SessionFrameTime(5), 1), 1);
  EXPECT_EQ(script.ButtonsAt(SessionFrameTime(30), 1), 0);
  std::string error;
  const std::optional<Session> read = ParseSession(SessionToJson(session), &error);
  ASSERT_TRUE(read.has_value()) << error;
  EXPECT_EQ(*read, session);
  EXPECT_FALSE(session.ReplaceEntries(*client::ParseTechniqueSets("naive,full", &error), &error))
      << "three players with their own keys cannot become two";
  EXPECT_NE(error.find("own keys"), std::string::npos) << error;
  EXPECT_TRUE(session.ReplaceEntries(*client::ParseTechniqueSets("naive,full,full", &error), &error))
      << error;
  Session shared = Sample();
  EXPECT_TRUE(shared.ReplaceEntries(*client::ParseTechniqueSets("naive,full", &error), &error)) << error;
  EXPECT_EQ(shared.hand_tags.size(), 2U) << "the third entry's tag goes with it";
}

TEST(Session, RoundTripsThroughItsJson) {
  const Session session = Sample();
  std::string error;
  const std::optional<Session> read = ParseSession(SessionToJson(session), &error);
  ASSERT_TRUE(read.has_value()) << error;
  EXPECT_EQ(*read, session);
  EXPECT_EQ(CompareTitle(session),
            "naive vs p+r vs full: 250 ms round trip, +-20 ms jitter, 2% loss, seed 99");
}

// A lab comparison's scripted link travels with its session, so a replay makes the same glitches.
TEST(Session, KeepsTheLinkScriptWhenThereIsOne) {
  Session session = Sample();
  EXPECT_EQ(SessionToJson(session).find("link_script"), std::string::npos) << "none: the file as before";
  session.link_script = "2s blackout 400ms client 1; 3s clock +300ms client 2";
  std::string error;
  const std::optional<Session> read = ParseSession(SessionToJson(session), &error);
  ASSERT_TRUE(read.has_value()) << error;
  EXPECT_EQ(*read, session);
  session.link_script = "2s warp 3";
  EXPECT_FALSE(ParseSession(SessionToJson(session), &error).has_value());
  EXPECT_NE(error.find("link_script"), std::string::npos) << error;
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
       {std::string("{"), std::string("[]"), with("\"netcube_session\": 5", "\"netcube_session\": 4"),
        with("\"compared\": true", "\"compared\": 1"), with("\"loss\": 0.02", "\"loss\": 1.5"),
        with("\"tick_rate\": 30", "\"tick_rate\": 0"), with("\"snapshot_rate\": 10", "\"snapshot_rate\": 31"),
        with("\"frames\": 600", "\"frames\": 50"), with("\"redundancy\": 4", "\"redundancy\": 0"),
        with("\"input_pacing\": true", "\"input_pacing\": 1"),
        with("\"adaptive_snapshot_rate\": true", "\"adaptive_snapshot_rate\": 1"),
        with("\"label\": \"naive\"", "\"label\": 7")}) {
    std::string error;
    EXPECT_FALSE(ParseSession(bad, &error).has_value()) << bad;
    EXPECT_FALSE(error.empty());
  }
  // Tags by hand: an entry the session does not have, a frame outside it or out of order, no point.
  for (const auto& spoil : std::vector<std::function<void(Session&)>>{
           [](Session& s) { s.hand_tags[0].player = 3; }, [](Session& s) { s.hand_tags[2].frame = 600; },
           [](Session& s) { s.hand_tags[2].frame = 19; },
           [](Session& s) { s.hand_tags[0].target->x = std::numeric_limits<double>::infinity(); }}) {
    Session session = Sample();
    spoil(session);
    std::string error;
    EXPECT_FALSE(ParseSession(SessionToJson(session), &error).has_value());
    EXPECT_NE(error, "");
  }
}

// What a user reads after --replay FILE: which field is wrong, on one line, without the JSON library's codes.
TEST(Session, AnErrorNamesTheWrongFieldInOneLine) {
  const std::string good = SessionToJson(Sample());
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  const std::pair<std::string, std::string> cases[] = {
      {"{", "not JSON: "},
      {with("\"seed\"", "\"sead\""), "field 'seed': missing"},
      {with("\"compared\": true", "\"compared\": 1"), "field 'compared': type must be boolean"},
      {with("\"loss\": 0.02", "\"loss\": 1.5"), "field 'loss': out of [0, 1.0]"},
      {with("\"redundancy\": 4", "\"redundancy\": 0"), "field 'settings': a number is out of its range"},
  };
  for (const auto& [text, said] : cases) {
    std::string error;
    EXPECT_FALSE(ParseSession(text, &error).has_value());
    EXPECT_EQ(error.rfind(said, 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_EQ(error.find("json.exception"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace netcube::apps
