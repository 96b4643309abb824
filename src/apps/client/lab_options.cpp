#include "lab_options.h"

#include <algorithm>
#include <iostream>
#include <iterator>

#include "file_flags.h"
#include "link_profiles.h"

namespace netcube::apps {
namespace {

// The fork --fork-at asks for; nothing, said, when it is no fork of a comparison or changes nothing.
std::optional<LabFork> ForkFrom(const ClientCommandLine& f) {
  if (f.compare.empty() && f.replay.empty()) {
    std::cerr << "netcube-client: --fork-at needs a comparison: --compare or --replay\n";
    return std::nullopt;
  }
  if (!f.record.empty()) {
    std::cerr << "netcube-client: --fork-at runs twice the entries: it cannot --record their session\n";
    return std::nullopt;
  }
  LabFork fork;
  fork.frame = *f.fork_at;
  std::string error;
  if (!f.fork_with.empty()) {
    fork.with = client::ParseTechniqueSet(f.fork_with, &error);
    if (!fork.with) {
      std::cerr << "netcube-client: bad --fork-with: " << error << '\n';
      return std::nullopt;
    }
  }
  fork.delay_ms = f.fork_delay_ms;
  if (!f.fork_snapshot_rate.empty()) fork.adaptive_snapshot_rate = f.fork_snapshot_rate == "adaptive";
  if (!f.fork_profile.empty()) {
    const std::vector<transport::LinkProfile> profiles = LoadLinkProfiles(LinkProfilesPath(), &error);
    fork.link = transport::FindLinkProfile(profiles, f.fork_profile);
    if (!fork.link) {
      std::cerr << "netcube-client: bad --fork-profile: no profile '" << f.fork_profile << "'"
                << (error.empty() ? "" : " (" + error + ")") << '\n';
      return std::nullopt;
    }
  }
  if (!fork.with && !fork.delay_ms && !fork.link && !fork.adaptive_snapshot_rate) {
    std::cerr << "netcube-client: --fork-at needs --fork-with, --fork-delay-ms, --fork-profile or "
                 "--fork-snapshot-rate\n";
    return std::nullopt;
  }
  return fork;
}

// The lab's two players as the flags set them (no comparison).
void SetUpPlayers(const ClientCommandLine& f, LabRunOptions& options) {
  for (std::size_t i = 0; i < options.lab.players.size(); ++i) {
    client::ClientConfig& player = options.lab.players[i].client;
    player.settings = f.client_flags.ApplySettings(player.settings);
    player.link = f.client_flags.ApplyLink(player.link);
    player.seed = f.seed + i;
  }
  options.lab.tag_interval_ms = f.tag_interval_ms;
  options.lab.server.snapshot_encoding =
      f.snapshot_encoding == "full" ? server::SnapshotEncoding::kFull : server::SnapshotEncoding::kDelta;
  options.plot_title = "netcube lab";
  // The wanderers' seeds follow the two players' (seed and seed + 1).
  if (f.crowd > 0) options.lab = gui::WithCrowd(std::move(options.lab), f.crowd, f.seed + 2);
}

// The session --replay names in options.session, with its link script unless --link-script gives another.
bool ReadReplay(const ClientCommandLine& f, LabRunOptions& options) {
  std::optional<Session> read = ReadSessionFlag("netcube-client", f.replay);
  if (!read) return false;
  if (options.link_script.empty() && !read->link_script.empty()) {
    std::string error;
    options.link_script = *timeline::ParseLinkScript(read->link_script, &error);
  } else {
    read->link_script = options.session.link_script;
  }
  options.session = std::move(*read);
  options.replay = true;
  options.replay_path = f.replay;
  return true;
}

// A comparison: --compare's entries, or a replayed session's (which --compare replaces).
bool SetUpComparisonFrom(const ClientCommandLine& f, LabRunOptions& options) {
  Session& session = options.session;
  session.seed = f.seed;
  session.tag_interval_ms = f.tag_interval_ms;
  session.link.latency_ms = gui::kLabDefaultLatencyMs;
  if (!f.replay.empty() && !ReadReplay(f, options)) return false;
  if (!f.compare.empty()) {
    std::string error;
    std::optional<std::vector<client::TechniqueSet>> entries = client::ParseTechniqueSets(f.compare, &error);
    if (!entries || !session.ReplaceEntries(std::move(*entries), &error)) {
      std::cerr << "netcube-client: bad --compare: " << error << '\n';
      return false;
    }
  }
  if (f.client_flags.ChoosesTechniques()) {
    std::cerr
        << "netcube-client: --compare and --replay choose the techniques: drop --preset and the toggles\n";
    return false;
  }
  for (client::TechniqueSet& entry : session.entries)
    entry.settings = f.client_flags.ApplySettings(entry.settings);
  session.link = f.client_flags.ApplyLink(session.link);
  SetUpComparison(options);
  return true;
}

// The files and outputs the run writes, straight from the flags.
void SetOutputs(const ClientCommandLine& f, LabRunOptions& options) {
  options.seek = f.seek;
  options.explain = f.explain;
  options.journal = f.journal;
  options.journal_out = f.journal_out;
  options.run = f.run;
  options.record = f.record;
  options.csv = f.csv;
  options.digests = f.digests;
  options.plot = f.plot;
  options.stats_json = f.stats_json;
  options.switch_encoding_frame = f.switch_encoding_frame;
}

}  // namespace

std::optional<LabRunOptions> LabOptionsFrom(const ClientCommandLine& flags,
                                            std::array<std::optional<client::InputScript>, 2> scripts,
                                            std::string title) {
  LabRunOptions options;
  if (flags.fork_at) {
    options.fork = ForkFrom(flags);
    if (!options.fork) return std::nullopt;
  }
  if (!flags.link_script.empty()) {
    std::string text;
    std::optional<std::vector<timeline::LinkChange>> changes =
        ReadLinkScriptFlag("netcube-client", flags.link_script, &text);
    if (!changes) return std::nullopt;
    options.link_script = std::move(*changes);
    options.session.link_script = text;  // a comparison's --record keeps it
  }
  SetOutputs(flags, options);
  options.title = std::move(title);
  options.scripts = std::move(scripts);
  if (flags.compare.empty() && flags.replay.empty()) {
    SetUpPlayers(flags, options);
  } else if (!SetUpComparisonFrom(flags, options)) {
    return std::nullopt;
  }
  options.lab.network = *transport::ParseNetworkKind(flags.transport);
  options.lab.server.arena = flags.arena;
  const auto tab = std::find(std::begin(gui::kPanelTabNames), std::end(gui::kPanelTabNames), flags.panel_tab);
  options.lab.panel_tab = static_cast<gui::PanelTab>(tab - std::begin(gui::kPanelTabNames));
  return options;
}

}  // namespace netcube::apps
