// netcube-bot: headless players. Parses flags (bot_flags.h), prepares the players, the session and the
// journal (bot_setup.h), and plays them with netcube::client::BotRun until every player has played its
// script and settled, then prints a summary and writes the JSON report (bot_play.h). Against a server
// elsewhere it runs on the steady clock; a replay without --connect runs the server in this process on a
// virtual clock, so the same session gives the same frames (and CSV bytes) on every run.
#include <memory>
#include <optional>

#include "bot_flags.h"
#include "bot_play.h"
#include "bot_setup.h"

int main(int argc, char** argv) {
  netcube::apps::BotFlags flags;
  if (const std::optional<int> exit_code = netcube::apps::ParseBotFlags(argc, argv, flags)) return *exit_code;
  if (flags.find.requested()) return flags.find.Run("netcube-bot");

  netcube::apps::Session session;
  if (!netcube::apps::ConfigurePlayers(flags, session)) return 2;
  std::unique_ptr<netcube::server::Server> server;
  if (flags.connect.empty()) {
    server = netcube::apps::StartOwnServer(flags.config, session);
    if (!server) return 1;
  }
  std::optional<netcube::apps::RunJournal> journal;
  if (const std::optional<int> exit_code =
          netcube::apps::OpenJournal(flags, server != nullptr, argc, argv, journal)) {
    return *exit_code;
  }
  return netcube::apps::PlayBots(flags, server.get(), journal ? &*journal : nullptr, session);
}
