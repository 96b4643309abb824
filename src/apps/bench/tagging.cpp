#include "tagging.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "netcube/client/bot.h"
#include "netcube/client/client.h"
#include "netcube/server/server.h"

namespace netcube::bench {
namespace {

constexpr Micros kStep{1000};
constexpr Micros kExtraTime{60'000'000};  // beyond the play time: settling
constexpr auto kRealTimeGuard = std::chrono::minutes(10);
constexpr Micros kGoodbyeTime{300'000};

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

// The players, playing at random and tagging the nearest cube as drawn at the cooldown rate.
std::unique_ptr<client::BotRun> StartTaggers(const TagSettings& settings,
                                             std::shared_ptr<transport::Network> network, std::uint16_t port,
                                             std::string* error) {
  client::BotConfig bot;
  bot.network = std::move(network);
  bot.port = port;
  bot.count = settings.players;
  bot.duration_s = settings.play_s;
  bot.link = settings.profile.settings;
  bot.settings = settings.client;
  bot.seed = settings.seed;
  const std::optional<client::InputScript> random_script = client::InputScript::Parse("random", error);
  if (!random_script) return nullptr;
  bot.script = *random_script;
  bot.tag_interval_ms = sim::kTagCooldownMs;
  bot.name_prefix = "tag";
  return client::BotRun::Start(bot, Micros{0}, error);
}

// The figures of a finished run: the server's verdicts and rewinds, the players' round trip and delay, and
// the victims' view of every tag taken.
TagResult ResultOf(const TagSettings& settings, const server::ServerStats& stats, const client::BotRun& run,
                   std::vector<double>& victim_view_ms) {
  TagResult result;
  result.settings = settings;
  result.tags_judged = stats.tags_judged;
  result.tags_hit = stats.tags_hit;
  result.tags_refused = stats.tags_refused;
  result.tags_capped = stats.tags_capped;
  result.hit_rate = stats.tags_judged > 0
                        ? static_cast<double>(stats.tags_hit) / static_cast<double>(stats.tags_judged)
                        : 0.0;
  result.rewind_ms_mean =
      stats.tags_judged > 0 ? stats.rewind_ms_sum / static_cast<double>(stats.tags_judged) : 0.0;
  result.rewind_ms_max = stats.rewind_ms_max;
  for (const auto& c : run.clients()) {
    const client::Metrics m = c->metrics();
    result.rtt_ms += m.rtt_ms_mean / settings.players;
    result.interp_delay_ms += m.interp_delay_ms / settings.players;
  }
  result.victim_samples = victim_view_ms.size();
  if (!victim_view_ms.empty()) {
    double sum = 0.0;
    for (const double v : victim_view_ms) sum += v;
    result.victim_view_ms_mean = sum / static_cast<double>(victim_view_ms.size());
    result.victim_view_ms_p99 = Percentile(victim_view_ms, 0.99);
    result.victim_view_ms_max = *std::max_element(victim_view_ms.begin(), victim_view_ms.end());
  }
  return result;
}

}  // namespace

std::optional<TagResult> RunTagging(const TagSettings& settings, std::string* error) {
  Micros now{0};
  const std::shared_ptr<transport::Network> network = transport::MakeNetwork(settings.network);
  server::ServerConfig config;
  config.network = network;
  config.bind_address = "127.0.0.1";
  config.port = 0;
  config.collisions = false;  // cubes pass through each other: nothing but the network moves them apart
  config.lag_compensation = settings.lag_compensation;
  config.max_clients = static_cast<std::size_t>(settings.players);
  std::unique_ptr<server::Server> server = server::Server::Create(config, now, error);
  if (!server) return std::nullopt;
  std::unique_ptr<client::BotRun> run = StartTaggers(settings, network, server->port(), error);
  if (!run) return std::nullopt;

  // Every tag a player takes, read at the step its result arrives (two in one step count the last twice).
  std::vector<std::uint64_t> taken(static_cast<std::size_t>(settings.players), 0);
  std::vector<double> victim_view_ms;
  const Micros limit = Micros(static_cast<std::int64_t>(settings.play_s * 1e6)) + kExtraTime;
  const auto real_start = std::chrono::steady_clock::now();
  while (true) {
    now += kStep;
    server->Update(now);
    const bool running = run->Update(now);
    if (run->failure()) {
      *error = *run->failure();
      return std::nullopt;
    }
    for (std::size_t i = 0; i < run->clients().size(); ++i) {
      const client::Metrics m = run->clients()[i]->metrics();
      for (; taken[i] < m.victim_view_samples; ++taken[i]) victim_view_ms.push_back(m.victim_view_ms_last);
    }
    if (!running) break;
    if (now > limit || std::chrono::steady_clock::now() - real_start > kRealTimeGuard) {
      *error = "the tagging scenario did not finish in time";
      return std::nullopt;
    }
  }
  TagResult result = ResultOf(settings, server->stats(), *run, victim_view_ms);
  run->Disconnect(now);
  for (const Micros end = now + kGoodbyeTime; now < end; now += kStep) {
    server->Update(now);
    run->Update(now);
  }
  return result;
}

void PrintTagging(const std::vector<TagResult>& runs, const std::vector<ScaleResult>& cost) {
  std::printf(
      "\n== tagging: 8 players moving at random, each tagging the nearest cube exactly as drawn every %d ms\n"
      "   (virtual clock, collisions off); rewind = how far back the server judged (what it would grant, "
      "when off)\n",
      sim::kTagCooldownMs);
  std::printf("   %-16s %-14s %-4s %7s %8s %9s %9s %8s %9s %11s %11s\n", "profile", "family", "comp", "tags",
              "hit rate", "rewind", "max", "rtt", "interp", "victim mean", "victim p99");
  for (const TagResult& r : runs) {
    std::printf("   %-16s %-14s %-4s %7llu %7.2f%% %7.0f ms %6.0f ms %5.0f ms %6.0f ms %8.0f ms %8.0f ms\n",
                r.settings.profile.name.c_str(),
                !r.settings.client.predict_others         ? "interpolation"
                : r.settings.client.predict_to_input_tick ? "others-at-input"
                                                          : "predict-others",
                r.settings.lag_compensation ? "on" : "off", static_cast<unsigned long long>(r.tags_judged),
                100.0 * r.hit_rate, r.rewind_ms_mean, r.rewind_ms_max, r.rtt_ms, r.interp_delay_ms,
                r.victim_view_ms_mean, r.victim_view_ms_p99);
  }
  for (const ScaleResult& r : cost) {
    std::printf(
        "   64 players tagging every %d ms, compensation %-3s: tick p50 %.0f us, p99 %.0f us, max %.0f us, "
        "%llu tags in the window\n",
        r.settings.tag_interval_ms, r.settings.lag_compensation ? "on" : "off", r.tick_p50_us, r.tick_p99_us,
        r.tick_max_us, static_cast<unsigned long long>(r.tags_judged));
  }
  std::fflush(stdout);
}

void to_json(nlohmann::json& j, const TagResult& r) {
  j = {{"profile", r.settings.profile.name},
       {"lag_compensation", r.settings.lag_compensation},
       {"predict_others", r.settings.client.predict_others},
       {"predict_to_input_tick", r.settings.client.predict_to_input_tick},
       {"players", r.settings.players},
       {"play_s", r.settings.play_s},
       {"transport", transport::ToString(r.settings.network)},
       {"tags_judged", r.tags_judged},
       {"tags_hit", r.tags_hit},
       {"tags_refused", r.tags_refused},
       {"tags_capped", r.tags_capped},
       {"hit_rate", r.hit_rate},
       {"rewind_ms", {{"mean", r.rewind_ms_mean}, {"max", r.rewind_ms_max}}},
       {"rtt_ms", r.rtt_ms},
       {"interp_delay_ms", r.interp_delay_ms},
       {"victim_view_ms",
        {{"samples", r.victim_samples},
         {"mean", r.victim_view_ms_mean},
         {"p99", r.victim_view_ms_p99},
         {"max", r.victim_view_ms_max}}}};
}

}  // namespace netcube::bench
