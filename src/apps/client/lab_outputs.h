#pragma once
#include <cstdint>
#include <fstream>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "compare_csv.h"
#include "explain_json.h"
#include "files.h"
#include "lab_branch.h"
#include "lab_digest.h"
#include "netcube/gui/compare_plot.h"
#include "run_journal.h"
#include "runner.h"

namespace netcube::apps {

// What a lab run writes as it goes, from its original branch's new frames: the CSV (--csv), the plot's
// samples, the explanations (--explain), and at the end the session (--record, from the tape) and the
// journal file (--journal-out).
class LabOutputs {
 public:
  explicit LabOutputs(const LabRunOptions& options) : options_(options) {
    for (const gui::LabPlayer& player : options.lab.players)
      series_.push_back({player.title, {}, {}, player.client.settings});
    if (!options.csv.empty()) {
      csv_.open(options.csv, std::ios::binary | std::ios::trunc);
      csv_ << CompareCsvHeader();
    }
    if (!options.digests.empty()) digests_.open(options.digests, std::ios::binary | std::ios::trunc);
    if (!options.explain.empty() && options.explain != "-") {
      explain_file_.open(options.explain, std::ios::binary | std::ios::trunc);
    }
    explain_ = options.explain.empty() ? nullptr : options.explain == "-" ? &std::cout : &explain_file_;
  }

  // False (said on stderr) when a file cannot be written.
  bool ok() const {
    if (!options_.csv.empty() && !csv_.good()) {
      std::cerr << "netcube-client: cannot write " << options_.csv << '\n';
      return false;
    }
    if (!options_.digests.empty() && !digests_.good()) {
      std::cerr << "netcube-client: cannot write " << options_.digests << '\n';
      return false;
    }
    if (explain_ != nullptr && !explain_->good()) {
      std::cerr << "netcube-client: cannot write " << options_.explain << '\n';
      return false;
    }
    return true;
  }

  void Frame(LabInstance& instance) {
    frames_ = instance.frames();
    if (!options_.digests.empty()) digests_ << DigestLine(frames_ - 1, LabDigest(instance.lab()));
    if (explain_ != nullptr) {
      for (const timeline::Explanation& explanation : instance.explained())
        *explain_ << ExplanationJson(explanation);
      explained_ += instance.explained().size();
    }
    if (!options_.journal_out.empty()) {
      for (const timeline::Explanation& explanation : instance.explained())
        KeepForJournalFile(kept_, explanation);
    }
    if (options_.csv.empty() && options_.plot.empty()) return;
    for (std::size_t i = 0; i < instance.samples().size(); ++i) {
      const client::FrameSample& sample = instance.samples()[i];
      if (!options_.csv.empty()) {
        csv_ << CompareCsvRow(options_.lab.players[i].client.name,
                              client::TechniquesOf(instance.lab().player(i).settings()), sample);
      }
      series_[i].samples.push_back(sample);
    }
  }

  // Prints the run's figures, writes the session and the explanations, and closes the CSV; false (with the
  // reason on stderr) on a failure.
  bool Finish(const LabBranch& branch) {
    bool ok = FinishExplanations(branch) && FinishJournalFile(branch);
    for (gui::PlotSeries& series : series_) {
      if (series.samples.empty()) continue;
      series.summary = client::Summarize(series.samples);
      std::cout << SummaryText(series.label, series.summary);
    }
    if (!options_.digests.empty()) {
      digests_.close();
      if (digests_.fail()) {
        std::cerr << "netcube-client: cannot write " << options_.digests << '\n';
        ok = false;
      } else {
        std::cout << "netcube-client: wrote " << options_.digests << " (digests, " << frames_ << " frames)\n";
      }
    }
    if (!options_.csv.empty()) {
      csv_.close();
      if (csv_.fail()) {
        std::cerr << "netcube-client: cannot write " << options_.csv << '\n';
        ok = false;
      } else {
        std::cout << "netcube-client: wrote " << options_.csv << " (CSV, " << frames_ << " frames)\n";
      }
    }
    if (!options_.record.empty()) {
      // The tape's hands: every entry of a comparison plays the first one's.
      Session session = options_.session;
      session.frames = branch.tape().frames;
      session.inputs = {branch.tape().hands.inputs.front()};
      session.hand_tags = branch.tape().hands.hand_tags;
      std::string error;
      if (!WriteFile(options_.record, SessionToJson(session), &error)) {
        std::cerr << "netcube-client: " << error << '\n';
        ok = false;
      } else {
        std::cout << "netcube-client: wrote " << options_.record << " (session, " << session.frames
                  << " frames)\n";
      }
    }
    return ok;
  }

  // Each player's samples, for the plot (--plot).
  const std::vector<gui::PlotSeries>& series() const noexcept { return series_; }

 private:
  bool FinishJournalFile(const LabBranch& branch) const {
    const timeline::Journal* journal = branch.shown().journal();
    if (options_.journal_out.empty() || journal == nullptr) return true;
    std::vector<std::string> labels;
    for (const gui::LabPlayer& player : options_.lab.players) labels.push_back(player.client.name);
    std::vector<std::string> script;
    for (const timeline::LinkChange& change : options_.link_script) script.push_back(change.text);
    return WriteJournalFile(options_.journal_out, "netcube-client", options_.title, true, labels, script,
                            *journal, kept_);
  }

  bool FinishExplanations(const LabBranch& branch) {
    if (explain_ == nullptr) return true;
    explain_->flush();
    if (explain_ == &explain_file_) explain_file_.close();
    if (!explain_->good() || (explain_ == &explain_file_ && explain_file_.fail())) {
      std::cerr << "netcube-client: cannot write " << options_.explain << '\n';
      return false;
    }
    const timeline::Journal* journal = branch.shown().journal();
    if (explain_ == &explain_file_ && journal != nullptr) {
      std::uint64_t events = journal->server().total();
      for (std::size_t i = 0; i < journal->clients(); ++i) events += journal->client(i).total();
      std::cout << "netcube-client: wrote " << options_.explain << " (" << explained_
                << " explained glitches; the journal took " << events << " events, "
                << events * sizeof(timeline::Event) / 1024 << " KiB, in rings of "
                << journal->memory_bytes() / 1024 << " KiB)\n";
    }
    return true;
  }

  const LabRunOptions& options_;
  std::vector<gui::PlotSeries> series_;
  std::ofstream csv_;
  std::ofstream digests_;
  std::ofstream explain_file_;
  std::ostream* explain_ = nullptr;
  std::uint64_t explained_ = 0;
  std::vector<timeline::Explanation> kept_;  // for the journal file
  std::int64_t frames_ = 0;
};

}  // namespace netcube::apps
