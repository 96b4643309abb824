#include "flag_checks.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

#include "netcube/protocol/messages.h"

namespace netcube::apps {

CLI::Validator FiniteRange(double min, double max) {
  std::ostringstream range;
  range << std::setprecision(10);
  range << "[" << min << ", " << max << "]";
  const std::string in_range = range.str();
  return CLI::Validator(
      [min, max, in_range](std::string& input) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(input, value)) return input + " is not a number";
        if (!std::isfinite(value) || value < min || value > max) {
          return input + " is not a finite number in " + in_range;
        }
        return {};
      },
      "NUMBER in " + in_range);
}

CLI::Validator Unsigned() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        // strtoull, under CLI11's conversion, reads "-1" as the largest value instead of refusing it.
        const bool digits = !input.empty() && std::all_of(input.begin(), input.end(),
                                                          [](char c) { return c >= '0' && c <= '9'; });
        return digits ? std::string() : input + " is not a whole number of at least 0";
      },
      "UINT");
}

CLI::Validator Port() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        const bool digits =
            !input.empty() && input.size() <= 5 &&
            std::all_of(input.begin(), input.end(), [](char c) { return c >= '0' && c <= '9'; });
        return digits && std::stoi(input) <= 65535 ? std::string() : input + " is not in 0..65535";
      },
      "PORT in 0..65535");
}

CLI::Validator PlayerName() {
  return CLI::Validator([](std::string& name) { return protocol::NameProblem(name); },
                        "1-" + std::to_string(protocol::kMaxNameLength) + " printable ASCII characters");
}

std::optional<sim::Arena> ParseArena(const std::string& text) {
  const std::size_t x = text.find('x');
  const auto side = [](const std::string& digits) -> std::optional<std::int32_t> {
    if (digits.empty() || digits.size() > 4 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
    return std::stoi(digits);
  };
  if (x == std::string::npos) return std::nullopt;
  const std::optional<std::int32_t> width = side(text.substr(0, x));
  const std::optional<std::int32_t> height = side(text.substr(x + 1));
  if (!width || !height) return std::nullopt;
  const sim::Arena arena = sim::Arena::OfUnits(*width, *height);
  return arena.Valid() ? std::optional(arena) : std::nullopt;
}

CLI::Option* AddArenaFlag(CLI::App& app, sim::Arena& arena, const std::string& help) {
  const std::string default_text =
      std::to_string(arena.width_units()) + "x" + std::to_string(arena.height_units());
  const std::string range =
      "[" + std::to_string(sim::kMinArenaUnits) + ", " + std::to_string(sim::kMaxArenaUnits) + "]";
  return app
      .add_option_function<std::string>(
          "--arena", [&arena](const std::string& text) { arena = *ParseArena(text); }, help)
      ->check(CLI::Validator(
          [range](std::string& input) -> std::string {
            return ParseArena(input) ? std::string()
                                     : input + " is not WxH with whole units in " + range + " on each side";
          },
          "WxH"))
      ->default_str(default_text);
}

}  // namespace netcube::apps
