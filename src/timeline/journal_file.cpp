#include "netcube/timeline/journal_file.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace netcube::timeline {
namespace {

constexpr std::string_view kMagic = "NCJOURNL";
constexpr std::size_t kMaxString = 4096;
constexpr std::size_t kMaxScriptLines = 1024;
constexpr std::size_t kMaxCauses = 64;
constexpr std::uint32_t kHasServer = 1;

std::uint32_t Fnv1a(std::string_view bytes) noexcept {
  std::uint32_t hash = 2166136261U;
  for (const char c : bytes) {
    hash ^= static_cast<std::uint8_t>(c);
    hash *= 16777619U;
  }
  return hash;
}

class Writer {
 public:
  template <class T>
  void Put(T value) {
    static_assert(std::is_arithmetic_v<T>);
    std::make_unsigned_t<std::conditional_t<
        std::is_floating_point_v<T>, std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>, T>>
        bits;
    std::memcpy(&bits, &value, sizeof bits);
    for (std::size_t i = 0; i < sizeof bits; ++i) out_.push_back(static_cast<char>((bits >> (8 * i)) & 0xFF));
  }
  void String(std::string_view text) {
    text = text.substr(0, kMaxString);
    Put(static_cast<std::uint16_t>(text.size()));
    out_.append(text);
  }
  void Raw(std::string_view bytes) { out_.append(bytes); }
  std::string Finish() {
    Put(Fnv1a(out_));
    return std::move(out_);
  }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool ok() const noexcept { return error_.empty(); }
  const std::string& error() const noexcept { return error_; }
  std::size_t offset() const noexcept { return at_; }
  void Fail(std::string why) {
    if (error_.empty()) error_ = std::move(why) + " (at byte " + std::to_string(at_) + ")";
  }

  template <class T>
  T Get(const char* what) {
    static_assert(std::is_arithmetic_v<T>);
    using Bits = std::make_unsigned_t<std::conditional_t<
        std::is_floating_point_v<T>, std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>, T>>;
    if (!ok()) return T{};
    if (bytes_.size() - at_ < sizeof(Bits)) {
      Fail(std::string("truncated: the file ends in ") + what);
      return T{};
    }
    Bits bits = 0;
    for (std::size_t i = 0; i < sizeof bits; ++i)
      bits |= static_cast<Bits>(static_cast<Bits>(static_cast<std::uint8_t>(bytes_[at_ + i])) << (8 * i));
    at_ += sizeof bits;
    T value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  // A count no larger than `max`.
  std::size_t Count(std::size_t max, const char* what) {
    const auto count = Get<std::uint32_t>(what);
    if (ok() && count > max) Fail(std::string("too many ") + what + " (" + std::to_string(count) + ")");
    return ok() ? count : 0;
  }
  std::string String(const char* what) {
    const auto size = Get<std::uint16_t>(what);
    if (!ok()) return {};
    if (size > kMaxString || bytes_.size() - at_ < size) {
      Fail(std::string("truncated or too long: ") + what);
      return {};
    }
    std::string text(bytes_.substr(at_, size));
    at_ += size;
    return text;
  }
  std::string_view Take(std::size_t size, const char* what) {
    if (!ok()) return {};
    if (bytes_.size() - at_ < size) {
      Fail(std::string("truncated: the file ends in ") + what);
      return {};
    }
    const std::string_view taken = bytes_.substr(at_, size);
    at_ += size;
    return taken;
  }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
  std::string error_;
};

void PutEvent(Writer& w, const Event& e) {
  w.Put<std::int64_t>(e.at.count());
  w.Put<std::int32_t>(e.frame);
  w.Put<std::uint8_t>(static_cast<std::uint8_t>(e.kind));
  w.Put<std::uint8_t>(e.flags);
  w.Put<std::uint16_t>(e.player);
  w.Put<std::int32_t>(e.a);
  w.Put<std::int32_t>(e.b);
  w.Put<float>(e.value);
}

Event GetEvent(Reader& r) {
  Event e;
  e.at = Micros(r.Get<std::int64_t>("an event"));
  e.frame = r.Get<std::int32_t>("an event");
  const auto kind = r.Get<std::uint8_t>("an event");
  if (kind > static_cast<std::uint8_t>(kLastEventKind)) r.Fail("unknown event kind " + std::to_string(kind));
  e.kind = static_cast<EventKind>(kind);
  e.flags = r.Get<std::uint8_t>("an event");
  e.player = r.Get<std::uint16_t>("an event");
  e.a = r.Get<std::int32_t>("an event");
  e.b = r.Get<std::int32_t>("an event");
  e.value = r.Get<float>("an event");
  return e;
}

void PutExplanation(Writer& w, const Explanation& e) {
  w.Put<std::int64_t>(e.frame);
  w.Put<std::int64_t>(e.time.count());
  w.Put<std::uint16_t>(static_cast<std::uint16_t>(e.client));
  w.String(e.entry);
  w.Put<std::uint8_t>(static_cast<std::uint8_t>(e.kind));
  w.Put<double>(e.size);
  w.Put<std::uint8_t>(e.visible ? 1 : 0);
  w.Put<std::int32_t>(e.subject);
  const std::size_t causes = std::min(e.causes.size(), kMaxCauses);
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(causes));
  for (std::size_t i = 0; i < causes; ++i) {
    const Cause& c = e.causes[i];
    w.Put<std::uint8_t>(static_cast<std::uint8_t>(c.kind));
    w.String(c.text);
    w.Put<std::uint8_t>(c.has_evidence ? 1 : 0);
    w.Put<std::uint8_t>(static_cast<std::uint8_t>(c.evidence));
    w.Put<std::uint16_t>(static_cast<std::uint16_t>(c.evidence_source));
    w.Put<std::int64_t>(c.evidence_at.count());
    w.Put<std::int64_t>(c.first_tick);
    w.Put<std::int64_t>(c.last_tick);
    w.Put<std::int64_t>(c.count);
    w.Put<std::int32_t>(c.player);
    w.Put<double>(c.from);
    w.Put<double>(c.to);
  }
  w.String(e.line);
}

Explanation GetExplanation(Reader& r, std::size_t players) {
  Explanation e;
  e.frame = r.Get<std::int64_t>("an explanation");
  e.time = Micros(r.Get<std::int64_t>("an explanation"));
  e.client = r.Get<std::uint16_t>("an explanation");
  if (r.ok() && e.client >= players)
    r.Fail("an explanation of player " + std::to_string(e.client + 1) + " of " + std::to_string(players));
  e.entry = r.String("an explanation's player");
  const auto kind = r.Get<std::uint8_t>("an explanation");
  if (kind > static_cast<std::uint8_t>(GlitchKind::kTagMissSeenHit))
    r.Fail("unknown glitch kind " + std::to_string(kind));
  e.kind = static_cast<GlitchKind>(kind);
  e.size = r.Get<double>("an explanation");
  e.visible = r.Get<std::uint8_t>("an explanation") != 0;
  e.subject = r.Get<std::int32_t>("an explanation");
  const std::size_t causes = r.Count(kMaxCauses, "causes");
  for (std::size_t i = 0; i < causes && r.ok(); ++i) {
    Cause c;
    const auto cause_kind = r.Get<std::uint8_t>("a cause");
    if (cause_kind > static_cast<std::uint8_t>(CauseKind::kUnknown))
      r.Fail("unknown cause kind " + std::to_string(cause_kind));
    c.kind = static_cast<CauseKind>(cause_kind);
    c.text = r.String("a cause's text");
    c.has_evidence = r.Get<std::uint8_t>("a cause") != 0;
    const auto evidence = r.Get<std::uint8_t>("a cause");
    if (evidence > static_cast<std::uint8_t>(kLastEventKind))
      r.Fail("unknown evidence kind " + std::to_string(evidence));
    c.evidence = static_cast<EventKind>(evidence);
    c.evidence_source = r.Get<std::uint16_t>("a cause");
    if (c.evidence_source > players) r.Fail("a cause's evidence in no player's journal");
    c.evidence_at = Micros(r.Get<std::int64_t>("a cause"));
    c.first_tick = r.Get<std::int64_t>("a cause");
    c.last_tick = r.Get<std::int64_t>("a cause");
    c.count = r.Get<std::int64_t>("a cause");
    c.player = r.Get<std::int32_t>("a cause");
    c.from = r.Get<double>("a cause");
    c.to = r.Get<double>("a cause");
    e.causes.push_back(std::move(c));
  }
  e.line = r.String("an explanation's line");
  return e;
}

}  // namespace

std::string EncodeJournalFile(std::string_view title, bool has_server, const std::vector<std::string>& labels,
                              const std::vector<std::string>& script, const Journal& journal,
                              const std::vector<Explanation>& explanations) {
  Writer w;
  w.Raw(kMagic);
  w.Put<std::uint32_t>(kJournalFileVersion);
  w.Put<std::uint32_t>(has_server ? kHasServer : 0);
  w.String(title);
  const std::size_t players = std::min({labels.size(), journal.clients(), kMaxJournalFilePlayers});
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(players));
  for (std::size_t i = 0; i < players; ++i) w.String(labels[i]);
  const std::size_t lines = std::min(script.size(), kMaxScriptLines);
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(lines));
  for (std::size_t i = 0; i < lines; ++i) w.String(script[i]);
  for (std::size_t source = 0; source <= players; ++source) {
    const EventRing& ring = source == 0 ? journal.server() : journal.client(source - 1);
    const std::size_t count = std::min(ring.size(), kMaxJournalFileEvents);
    w.Put<std::uint64_t>(ring.total());
    w.Put<std::uint32_t>(static_cast<std::uint32_t>(count));
    for (std::size_t i = ring.size() - count; i < ring.size(); ++i) PutEvent(w, ring.at(i));
  }
  const std::size_t kept = std::min(explanations.size(), kMaxJournalFileExplanations);
  const auto first = explanations.end() - static_cast<std::ptrdiff_t>(kept);
  const auto of_players = [&](const Explanation& e) { return e.client < players; };
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(std::count_if(first, explanations.end(), of_players)));
  for (auto e = first; e != explanations.end(); ++e) {
    if (of_players(*e)) PutExplanation(w, *e);
  }
  return w.Finish();
}

std::optional<SavedJournal> DecodeJournalFile(std::string_view bytes, std::string* error) {
  const auto fail = [&](const std::string& why) {
    *error = why;
    return std::nullopt;
  };
  if (bytes.size() > kMaxJournalFileBytes) return fail("too large for a journal file");
  if (!bytes.starts_with(kMagic)) return fail("not a netcube journal file (it does not start with NCJOURNL)");
  if (bytes.size() < kMagic.size() + 8) return fail("truncated: the file ends in its header");
  Reader version_reader(bytes.substr(kMagic.size()));
  const auto version = version_reader.Get<std::uint32_t>("the header");
  if (version != kJournalFileVersion) {
    return fail("journal file version " + std::to_string(version) + "; this netcube reads version " +
                std::to_string(kJournalFileVersion));
  }
  if (Fnv1a(bytes.substr(0, bytes.size() - 4)) !=
      Reader(bytes.substr(bytes.size() - 4)).Get<std::uint32_t>("")) {
    return fail("truncated or corrupt: the checksum does not match (" + std::to_string(bytes.size()) +
                " bytes)");
  }
  Reader r(bytes.substr(0, bytes.size() - 4));
  r.Take(kMagic.size() + 4, "the header");
  SavedJournal saved;
  saved.has_server = (r.Get<std::uint32_t>("the header") & kHasServer) != 0;
  saved.title = r.String("the title");
  const std::size_t players = r.Count(kMaxJournalFilePlayers, "players");
  for (std::size_t i = 0; i < players && r.ok(); ++i) saved.labels.push_back(r.String("a player's name"));
  const std::size_t lines = r.Count(kMaxScriptLines, "script lines");
  for (std::size_t i = 0; i < lines && r.ok(); ++i) saved.script.push_back(r.String("a script line"));
  // The events are read twice: once to size the rings (the largest source), once into them.
  const std::size_t events_start = r.offset();
  std::size_t largest = 1;
  for (std::size_t source = 0; source <= players && r.ok(); ++source) {
    saved.totals.push_back(r.Get<std::uint64_t>("a ring"));
    const std::size_t count = r.Count(kMaxJournalFileEvents, "events");
    largest = std::max(largest, count);
    r.Take(count * 28, "the events");
  }
  if (!r.ok()) return fail(r.error());
  Reader events(bytes.substr(0, bytes.size() - 4));
  events.Take(events_start, "");
  saved.journal = Journal(players, largest);
  for (std::size_t source = 0; source <= players && events.ok(); ++source) {
    EventRing& ring = source == 0 ? saved.journal.server() : saved.journal.client(source - 1);
    events.Get<std::uint64_t>("a ring");
    const std::size_t count = events.Count(kMaxJournalFileEvents, "events");
    for (std::size_t i = 0; i < count && events.ok(); ++i) ring.Add(GetEvent(events));
  }
  if (!events.ok()) return fail(events.error());
  const std::size_t explanations = r.Count(kMaxJournalFileExplanations, "explanations");
  for (std::size_t i = 0; i < explanations && r.ok(); ++i)
    saved.explanations.push_back(GetExplanation(r, players));
  if (!r.ok()) return fail(r.error());
  if (r.offset() != bytes.size() - 4) return fail("corrupt: bytes left over after the explanations");
  return saved;
}

}  // namespace netcube::timeline
