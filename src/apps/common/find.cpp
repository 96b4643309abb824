#include "find.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "flag_checks.h"

namespace netcube::apps {
namespace {

// One line per server: name, address:port, players, arena, rates, protocol version, round trip.
std::string DescribeFound(const discovery::FoundServer& server) {
  const protocol::DiscoveryReply& r = server.reply;
  char line[256];
  std::snprintf(
      line, sizeof line,
      "%-26s %s:%u  players %u/%u  arena %dx%d  tick %u Hz  snapshots %u Hz  protocol %u%s  rtt %.1f ms",
      r.name.c_str(), server.address.c_str(), static_cast<unsigned>(server.port),
      static_cast<unsigned>(r.players), static_cast<unsigned>(r.max_players), r.arena.width_units(),
      r.arena.height_units(), static_cast<unsigned>(r.tick_rate), static_cast<unsigned>(r.snapshot_rate),
      static_cast<unsigned>(r.version), server.compatible() ? "" : " (incompatible)",
      std::chrono::duration<double, std::milli>(server.round_trip).count());
  return line;
}

}  // namespace

CLI::Option* FindFlags::Register(CLI::App& app) {
  CLI::Option* find = app.add_flag("--find", find_, "List the servers that answer on the LAN, then exit");
  app.add_option("--discovery-port", browser_.port, "UDP port of LAN discovery")->capture_default_str();
  app.add_option(
      "--discovery-address", browser_.targets,
      "Where discovery queries go: broadcast, multicast or one host's address (repeatable; default "
      "255.255.255.255 and " +
          std::string(discovery::kMulticastGroup) + ")");
  app.add_option("--find-seconds", seconds_, "How long --find listens")
      ->check(FiniteRange(0.1, 60.0))
      ->capture_default_str();
  return find;
}

int FindFlags::Run(const std::string& program) const {
  std::string error;
  std::unique_ptr<discovery::Browser> browser = discovery::Browser::Open(browser_, &error);
  if (browser == nullptr) {
    std::cerr << program << ": " << error << '\n';
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  const auto end =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds_));
  while (Clock::now() < end) {
    browser->Service(std::chrono::duration_cast<Micros>(Clock::now() - start));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the round trip is measured to this
  }
  for (const discovery::FoundServer& server : browser->servers())
    std::printf("%s\n", DescribeFound(server).c_str());
  if (browser->servers().empty()) {
    std::printf(
        "no netcube server answered on UDP port %u (%llu queries sent, %llu refused by the network)\n",
        static_cast<unsigned>(browser_.port),
        static_cast<unsigned long long>(browser->counters().queries_sent),
        static_cast<unsigned long long>(browser->counters().send_errors));
  }
  return browser->servers().empty() ? 1 : 0;
}

}  // namespace netcube::apps
