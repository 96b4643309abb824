#include "bot_setup.h"

#include <iostream>

#include "file_flags.h"

namespace netcube::apps {
namespace {

// The players of a replayed session: its entries' techniques and keys, its tags by hand, link and seed.
bool ReplaySession(BotFlags& flags, Session& session) {
  client::BotConfig& config = flags.config;
  std::optional<Session> read = ReadSessionFlag("netcube-bot", flags.replay);
  if (!read) return false;
  if (flags.client_flags.ChoosesTechniques()) {
    std::cerr << "netcube-bot: --replay takes the session's techniques: drop --preset and the toggles\n";
    return false;
  }
  session = std::move(*read);
  for (std::size_t i = 0; i < session.entries.size(); ++i) {
    config.players.push_back({session.entries[i].settings, session.Script(i), {}});
  }
  // Frames count from the script's start, as the keys' do; the session keeps them for --record.
  for (const HandTag& tag : session.hand_tags) {
    config.players[tag.player].hand_tags.push_back({SessionFrameTime(tag.frame), tag.target});
  }
  config.same_network = session.compared;
  config.link = flags.client_flags.ApplyLink(session.link);
  config.seed = session.seed;
  config.tag_interval_ms = session.tag_interval_ms;
  return true;
}

// The session of players that play the flags' script, for --record.
void DescribeSession(const client::BotConfig& config, Session& session) {
  for (int i = 0; i < config.count; ++i) {
    session.entries.push_back({client::TechniquesOf(config.settings), config.settings});
  }
  session.compared = false;  // each player its own network (seed + i), as BotRun draws them
  session.link = config.link;
  session.seed = config.seed;
  session.tag_interval_ms = config.tag_interval_ms;
}

}  // namespace

bool ConfigurePlayers(BotFlags& flags, Session& session) {
  client::BotConfig& config = flags.config;
  std::string error;
  if (!flags.connect.empty() && !SplitHostPort(flags.connect, config.host, config.port, &error)) {
    std::cerr << "netcube-bot: " << error << "\n";
    return false;
  }
  const auto parsed_script = client::InputScript::Parse(flags.script, &error);
  if (!parsed_script) {
    std::cerr << "netcube-bot: bad --script: " << error << "\n";
    return false;
  }
  config.script = *parsed_script;
  if (flags.view_rate_hz > 0) config.view_interval = Micros(1'000'000 / flags.view_rate_hz);
  config.settings = flags.client_flags.ApplySettings(client::PresetSettings(client::Preset::kFull));
  config.link = flags.client_flags.ApplyLink({});
  if (!flags.replay.empty()) {
    if (!ReplaySession(flags, session)) return false;
  } else {
    DescribeSession(config, session);
  }
  session.inputs.assign(1, {});  // the keys as played, recorded as they are
  return true;
}

std::unique_ptr<server::Server> StartOwnServer(client::BotConfig& config, const Session& session) {
  server::ServerConfig server_config;
  server_config.bind_address = config.host = "127.0.0.1";
  server_config.port = 0;
  server_config.tick_rate = session.tick_rate;
  server_config.snapshot_rate = session.snapshot_rate;
  server_config.collisions = !session.compared;
  server_config.shared_spawn = session.compared;
  std::string error;
  std::unique_ptr<server::Server> server = server::Server::Create(server_config, Micros{0}, &error);
  if (!server) {
    std::cerr << "netcube-bot: cannot start the server: " << error << "\n";
    return nullptr;
  }
  config.port = server->port();
  return server;
}

std::optional<int> OpenJournal(BotFlags& flags, bool has_server, int argc, char** argv,
                               std::optional<RunJournal>& journal) {
  std::vector<timeline::LinkChange> changes;
  if (!flags.link_script.empty()) {
    std::string text;
    std::optional<std::vector<timeline::LinkChange>> parsed =
        ReadLinkScriptFlag("netcube-bot", flags.link_script, &text);
    if (!parsed) return 2;
    changes = std::move(*parsed);
  }
  if (flags.explain.empty() && flags.journal_out.empty() && changes.empty()) return std::nullopt;
  client::BotConfig& config = flags.config;
  std::vector<std::string> labels;
  const std::size_t players =
      config.players.empty() ? static_cast<std::size_t>(config.count) : config.players.size();
  for (std::size_t i = 0; i < players; ++i) labels.push_back(config.name_prefix + std::to_string(i));
  std::string title = "netcube-bot";
  for (int i = 1; i < argc; ++i) title += std::string(" ") + argv[i];
  journal.emplace(std::move(labels), std::move(title), has_server, flags.explain, flags.journal_out,
                  "netcube-bot", std::move(changes));
  if (!journal->ok()) return 1;
  journal->Attach(config);
  return std::nullopt;
}

}  // namespace netcube::apps
