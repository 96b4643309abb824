#include "flag_checks.h"

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

}  // namespace netcube::apps
