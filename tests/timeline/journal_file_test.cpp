// The journal file (netcube-bot --journal-out, netcube-client --open-journal): a round trip keeps every
// event, name and explanation; a truncated, corrupt, foreign or newer file is refused with one line.
#include "netcube/timeline/journal_file.h"

#include <gtest/gtest.h>

#include <string>

namespace netcube::timeline {
namespace {

struct Sample {
  Journal journal{2, 64};
  std::vector<Explanation> explanations;
};

Sample MakeSample() {
  Sample s;
  for (int i = 0; i < 100; ++i) {  // more than the ring holds: the newest 64 are saved
    Event e{Micros(1000 * i), i, EventKind::kPacketDown};
    e.flags = event_flags::kDropped;
    e.a = i;
    e.b = -i;
    e.value = 0.5F * static_cast<float>(i);
    s.journal.client(1).Add(e);
  }
  s.journal.server().Add(Event{Micros(5), 1, EventKind::kDryTicks, 0, 3, 0, 2, 0.0F});
  s.journal.client(0).Add(Event{Micros(7), 2, EventKind::kClockStep, 0, 1, 300'000, 0, 0.0F});
  Explanation e;
  e.frame = 42;
  e.time = Micros(700'000);
  e.client = 1;
  e.entry = "bot1";
  e.kind = GlitchKind::kRemoteFrozen;
  e.subject = 3;
  Cause loss{CauseKind::kLoss, "snapshots 4-6 lost"};
  loss.has_evidence = true;
  loss.evidence = EventKind::kPacketDown;
  loss.evidence_source = 2;
  loss.evidence_at = Micros(99'000);
  loss.first_tick = 4;
  loss.last_tick = 6;
  loss.count = 3;
  e.causes = {loss, Cause{CauseKind::kClock, "clock stepped"}};
  e.line = "0.70 s, bot1 sees player id 3 stop: snapshots 4-6 lost";
  s.explanations.push_back(e);
  return s;
}

std::string Encode(const Sample& s) {
  return EncodeJournalFile("netcube-bot --count 2", false, {"bot0", "bot1"}, {"3s clock +300ms client 1"},
                           s.journal, s.explanations);
}

TEST(JournalFile, ARoundTripKeepsEveryEventNameAndExplanation) {
  const Sample s = MakeSample();
  const std::string bytes = Encode(s);
  std::string error;
  const std::optional<SavedJournal> saved = DecodeJournalFile(bytes, &error);
  ASSERT_TRUE(saved) << error;
  EXPECT_EQ(saved->title, "netcube-bot --count 2");
  EXPECT_FALSE(saved->has_server);
  EXPECT_EQ(saved->labels, (std::vector<std::string>{"bot0", "bot1"}));
  EXPECT_EQ(saved->script, (std::vector<std::string>{"3s clock +300ms client 1"}));
  ASSERT_EQ(saved->journal.clients(), 2U);
  EXPECT_EQ(saved->totals, (std::vector<std::uint64_t>{1, 1, 100}));
  for (std::size_t source = 0; source <= 2; ++source) {
    const EventRing& before = source == 0 ? s.journal.server() : s.journal.client(source - 1);
    const EventRing& after = source == 0 ? saved->journal.server() : saved->journal.client(source - 1);
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
      const Event& a = after.at(i);
      const Event& b = before.at(i);
      EXPECT_TRUE(a.at == b.at && a.frame == b.frame && a.kind == b.kind && a.flags == b.flags &&
                  a.player == b.player && a.a == b.a && a.b == b.b && a.value == b.value)
          << source << " " << i;
    }
  }
  ASSERT_EQ(saved->explanations.size(), 1U);
  const Explanation& e = saved->explanations[0];
  EXPECT_EQ(e.line, s.explanations[0].line);
  EXPECT_EQ(e.kind, GlitchKind::kRemoteFrozen);
  EXPECT_EQ(e.time, Micros(700'000));
  EXPECT_EQ(e.subject, 3);
  ASSERT_EQ(e.causes.size(), 2U);
  EXPECT_EQ(e.causes[0].kind, CauseKind::kLoss);
  EXPECT_EQ(e.causes[0].evidence_at, Micros(99'000));
  EXPECT_EQ(e.causes[0].last_tick, 6);
  EXPECT_EQ(e.causes[1].kind, CauseKind::kClock);
}

TEST(JournalFile, ATruncatedFileIsRefusedWithOneLine) {
  const std::string bytes = Encode(MakeSample());
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    std::string error;
    EXPECT_FALSE(DecodeJournalFile(std::string_view(bytes).substr(0, size), &error)) << size;
    EXPECT_FALSE(error.empty()) << size;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST(JournalFile, AnyFlippedByteIsRefused) {
  const std::string bytes = Encode(MakeSample());
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    std::string corrupt = bytes;
    corrupt[at] = static_cast<char>(corrupt[at] ^ 0x20);
    std::string error;
    EXPECT_FALSE(DecodeJournalFile(corrupt, &error)) << at;
    EXPECT_FALSE(error.empty()) << at;
  }
}

std::uint32_t Fnv1a(std::string_view bytes) {
  std::uint32_t hash = 2166136261U;
  for (const char c : bytes) hash = (hash ^ static_cast<std::uint8_t>(c)) * 16777619U;
  return hash;
}

// A file whose checksum holds but whose contents lie is still checked, field by field.
std::string Resealed(std::string bytes) {
  bytes.resize(bytes.size() - 4);
  const std::uint32_t sum = Fnv1a(bytes);
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((sum >> (8 * i)) & 0xFF));
  return bytes;
}

TEST(JournalFile, SaysWhatIsWrongWithAForeignNewerOrLyingFile) {
  std::string error;
  EXPECT_FALSE(DecodeJournalFile("{\"frame\": 1}\n", &error));
  EXPECT_NE(error.find("not a netcube journal"), std::string::npos) << error;

  std::string bytes = Encode(MakeSample());
  std::string newer = bytes;
  newer[8] = 2;
  EXPECT_FALSE(DecodeJournalFile(Resealed(newer), &error));
  EXPECT_NE(error.find("version 2"), std::string::npos) << error;

  // The player count (after the magic, version, flags and the title) says a million.
  const std::size_t players_at = 8 + 4 + 4 + 2 + std::string("netcube-bot --count 2").size();
  std::string lying = bytes;
  lying[players_at + 2] = 0x10;
  EXPECT_FALSE(DecodeJournalFile(Resealed(lying), &error));
  EXPECT_NE(error.find("too many players"), std::string::npos) << error;

  // An event of a kind this build does not know.
  const std::size_t at = bytes.find("bot1") + 4 + 4 + 2 + std::string("3s clock +300ms client 1").size();
  std::string unknown = bytes;
  unknown[at + 8 + 4 + 8 + 4] = 99;  // the server's ring: total, count, then its first event's kind
  EXPECT_FALSE(DecodeJournalFile(Resealed(unknown), &error));
  EXPECT_NE(error.find("unknown event kind 99"), std::string::npos) << error;
}

}  // namespace
}  // namespace netcube::timeline
