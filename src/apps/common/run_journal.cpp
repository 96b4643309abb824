#include "run_journal.h"

#include <algorithm>
#include <iostream>

#include "explain_json.h"
#include "files.h"
#include "netcube/timeline/journal_file.h"

namespace netcube::apps {
namespace {

constexpr std::int64_t kFrameUs = 1'000'000 / 60;

}  // namespace

void KeepForJournalFile(std::vector<timeline::Explanation>& kept, timeline::Explanation e) {
  if (kept.size() == 2 * timeline::kMaxJournalFileExplanations) {
    kept.erase(kept.begin(), kept.begin() + timeline::kMaxJournalFileExplanations);
  }
  kept.push_back(std::move(e));
}

bool WriteJournalFile(const std::string& path, const std::string& program, const std::string& title,
                      bool has_server, const std::vector<std::string>& labels,
                      const std::vector<std::string>& script, const timeline::Journal& journal,
                      const std::vector<timeline::Explanation>& kept) {
  const std::string bytes = timeline::EncodeJournalFile(title, has_server, labels, script, journal, kept);
  std::string error;
  if (!WriteFile(path, bytes, &error)) {
    std::cerr << program << ": " << error << '\n';
    return false;
  }
  std::uint64_t held = journal.server().size();
  for (std::size_t i = 0; i < journal.clients(); ++i) held += journal.client(i).size();
  std::cout << program << ": wrote " << path << " (journal, " << bytes.size() / 1024 << " KiB: " << held
            << " events, " << std::min(kept.size(), timeline::kMaxJournalFileExplanations) << " explanations"
            << (has_server ? "" : "; no server ring: it ran in another process") << ")\n";
  return true;
}

RunJournal::RunJournal(std::vector<std::string> labels, std::string title, bool has_server,
                       std::string explain_path, std::string journal_out, std::string program,
                       std::vector<timeline::LinkChange> script)
    : labels_(std::move(labels)),
      title_(std::move(title)),
      has_server_(has_server),
      explain_path_(std::move(explain_path)),
      journal_out_(std::move(journal_out)),
      program_(std::move(program)),
      journal_(labels_.size()),
      recorder_(journal_),
      script_(std::move(script)),
      explainer_(journal_, labels_, &script_.changes()),
      samplers_(labels_.size()) {
  if (!explain_path_.empty() && explain_path_ != "-") {
    file_.open(explain_path_, std::ios::binary | std::ios::trunc);
  }
  out_ = explain_path_.empty() ? nullptr : explain_path_ == "-" ? &std::cout : &file_;
  if (!has_server_) {
    std::cerr << program_
              << ": the journal holds the players' side only: the server runs in another process, so its "
                 "dry ticks, lost inputs and contacts are not in it\n";
  }
}

bool RunJournal::ok() const {
  if (out_ == nullptr || out_->good()) return true;
  std::cerr << program_ << ": cannot write " << explain_path_ << '\n';
  return false;
}

void RunJournal::Attach(client::BotConfig& config, std::size_t first) {
  const std::size_t players =
      config.players.empty() ? static_cast<std::size_t>(config.count) : config.players.size();
  for (std::size_t i = first; i < first + players && i < labels_.size(); ++i) {
    config.incoming_link_logs.push_back(recorder_.DownLog(i));
    config.outgoing_link_logs.push_back(recorder_.UpLog(i));
  }
}

std::int32_t RunJournal::FrameAt(Micros now) const {
  return static_cast<std::int32_t>(now.count() / kFrameUs);
}

void RunJournal::BeginUpdate(Micros now, std::span<const client::BotRun* const> runs,
                             server::Server* server) {
  recorder_.BeginFrame(FrameAt(now));
  if (script_.changes().empty()) return;
  players_.clear();
  for (const client::BotRun* run : runs) {
    for (const auto& client : run->clients()) players_.push_back(client.get());
  }
  script_.Apply(FrameAt(now), now, server, players_, &recorder_);
}

void RunJournal::AfterUpdate(Micros now, std::span<const client::BotRun* const> runs,
                             const server::Server* server) {
  const std::int32_t frame = FrameAt(now);
  if (frame <= last_frame_) return;
  last_frame_ = frame;
  clients_.clear();
  held_.clear();
  for (const client::BotRun* run : runs) {
    for (std::size_t i = 0; i < run->clients().size(); ++i) {
      clients_.push_back(run->clients()[i].get());
      held_.push_back(run->held(i));
    }
  }
  recorder_.Record(frame, now, server, clients_);
  for (std::size_t i = 0; i < clients_.size() && i < samplers_.size(); ++i) {
    const client::Client& player = *clients_[i];
    if (player.state() != client::ConnectionState::kConnected) continue;
    // The truth: the server's world when it is here; else the newest the player heard of it.
    if (server == nullptr) client::NewestReceived(player, heard_);
    const std::span<const sim::PlayerCube> truth =
        server == nullptr ? std::span<const sim::PlayerCube>(heard_) : server->world();
    const client::FrameSample sample = samplers_[i].Sample(frame, now, held_[i], player, truth);
    explained_.clear();
    explainer_.Frame(i, sample, player, server, explained_);
    for (timeline::Explanation& e : explained_) {
      if (out_ != nullptr) *out_ << ExplanationJson(e);
      ++count_;
      if (!journal_out_.empty()) KeepForJournalFile(kept_, std::move(e));
    }
  }
}

bool RunJournal::Finish() {
  bool ok = true;
  std::uint64_t events = journal_.server().total();
  for (std::size_t i = 0; i < journal_.clients(); ++i) events += journal_.client(i).total();
  const std::string took = std::to_string(count_) + " explained glitches; the journal took " +
                           std::to_string(events) + " events, " +
                           std::to_string(events * sizeof(timeline::Event) / 1024) + " KiB";
  if (out_ != nullptr) {
    out_->flush();
    if (out_ == &file_) file_.close();
    if (!out_->good() || (out_ == &file_ && file_.fail())) {
      std::cerr << program_ << ": cannot write " << explain_path_ << '\n';
      ok = false;
    } else if (out_ == &file_) {
      std::cout << program_ << ": wrote " << explain_path_ << " (" << took << ")\n";
    }
  }
  if (!journal_out_.empty()) {
    std::vector<std::string> script;
    for (const timeline::LinkChange& change : script_.changes()) script.push_back(change.text);
    ok =
        WriteJournalFile(journal_out_, program_, title_, has_server_, labels_, script, journal_, kept_) && ok;
  }
  return ok;
}

}  // namespace netcube::apps
