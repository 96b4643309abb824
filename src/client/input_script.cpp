#include "netcube/client/input_script.h"

#include <charconv>

#include "netcube/sim/move.h"

namespace netcube::client {
namespace {

using sim::kDown;
using sim::kLeft;
using sim::kRight;
using sim::kUp;

constexpr std::uint8_t kCircle[] = {kRight, kRight | kDown, kDown, kDown | kLeft,
                                    kLeft,  kLeft | kUp,    kUp,   kUp | kRight};
// Standing still is one choice in nine, as likely as each direction.
constexpr std::uint8_t kRandomChoices[] = {0,           kRight, kRight | kDown, kDown, kDown | kLeft, kLeft,
                                           kLeft | kUp, kUp,    kUp | kRight};
constexpr long long kMaxSegmentMs = 3'600'000;

// splitmix64: a well-mixed hash of (seed, segment), so the random script needs no state.
std::uint64_t Mix(std::uint64_t x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::optional<std::uint8_t> ParseKeys(std::string_view keys, std::string* why) {
  if (keys == "-") return std::uint8_t{0};
  if (keys.empty()) {
    *why = "no keys before ':' (use a combination of U D L R, or - for none)";
    return std::nullopt;
  }
  std::uint8_t buttons = 0;
  for (char c : keys) {
    std::uint8_t bit = 0;
    switch (c) {
      case 'U':
      case 'u':
        bit = kUp;
        break;
      case 'D':
      case 'd':
        bit = kDown;
        break;
      case 'L':
      case 'l':
        bit = kLeft;
        break;
      case 'R':
      case 'r':
        bit = kRight;
        break;
      default:
        *why = std::string("unknown key '") + c + "' (use a combination of U D L R, or - for none)";
        return std::nullopt;
    }
    if (buttons & bit) {
      *why = std::string("key '") + c + "' given twice";
      return std::nullopt;
    }
    buttons = static_cast<std::uint8_t>(buttons | bit);
  }
  return buttons;
}

std::optional<Micros> ParseDuration(std::string_view ms, std::string* why) {
  long long value = 0;
  const auto [end, ec] = std::from_chars(ms.data(), ms.data() + ms.size(), value);
  if (ms.empty() || ec != std::errc() || end != ms.data() + ms.size() || value <= 0 ||
      value > kMaxSegmentMs) {
    *why = "duration '" + std::string(ms) + "' is not a whole number of milliseconds in [1, " +
           std::to_string(kMaxSegmentMs) + "]";
    return std::nullopt;
  }
  return std::chrono::milliseconds(value);
}

std::string KeysText(std::uint8_t buttons) {
  if (buttons == 0) return "-";
  std::string keys;
  if (buttons & kUp) keys += 'U';
  if (buttons & kDown) keys += 'D';
  if (buttons & kLeft) keys += 'L';
  if (buttons & kRight) keys += 'R';
  return keys;
}

}  // namespace

std::optional<InputScript> InputScript::Parse(std::string_view text, std::string* error) {
  InputScript script;
  if (text == "idle") return script;
  if (text == "random" || text == "circle") {
    script.kind_ = text == "random" ? Kind::kRandom : Kind::kCircle;
    return script;
  }
  if (text.empty()) {
    *error = "empty script (use random, circle, idle or a timeline like R:100,-:50,R:100)";
    return std::nullopt;
  }
  script.kind_ = Kind::kTimeline;
  std::size_t index = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view segment = text.substr(start, comma - start);
    ++index;
    const std::size_t colon = segment.find(':');
    std::string why;
    std::optional<std::uint8_t> buttons;
    std::optional<Micros> duration;
    if (colon == std::string_view::npos) {
      why = "expected KEYS:MS";
    } else if ((buttons = ParseKeys(segment.substr(0, colon), &why))) {
      duration = ParseDuration(segment.substr(colon + 1), &why);
    }
    if (!duration) {
      *error = "script segment " + std::to_string(index) + " '" + std::string(segment) + "': " + why;
      return std::nullopt;
    }
    script.segments_.push_back({*buttons, *duration});
    start = comma + 1;
  }
  return script;
}

std::uint8_t InputScript::ButtonsAt(Micros elapsed, std::uint64_t seed) const noexcept {
  if (elapsed.count() < 0) return 0;
  switch (kind_) {
    case Kind::kIdle:
      return 0;
    case Kind::kRandom: {
      const auto segment = static_cast<std::uint64_t>(elapsed / kRandomSegment);
      return kRandomChoices[Mix(seed ^ Mix(segment)) % std::size(kRandomChoices)];
    }
    case Kind::kCircle: {
      const auto segment = static_cast<std::size_t>(elapsed / kCircleSegment);
      return kCircle[segment % std::size(kCircle)];
    }
    case Kind::kTimeline:
      for (const Segment& s : segments_) {
        if (elapsed < s.duration) return s.buttons;
        elapsed -= s.duration;
      }
      return 0;
  }
  return 0;
}

InputScript InputScript::Timeline(std::vector<Segment> segments) {
  InputScript script;
  script.kind_ = Kind::kTimeline;
  script.segments_ = std::move(segments);
  return script;
}

std::optional<Micros> InputScript::length() const noexcept {
  if (kind_ != Kind::kTimeline) return std::nullopt;
  Micros total{0};
  for (const Segment& s : segments_) total += s.duration;
  return total;
}

std::string InputScript::ToString() const {
  switch (kind_) {
    case Kind::kIdle:
      return "idle";
    case Kind::kRandom:
      return "random";
    case Kind::kCircle:
      return "circle";
    case Kind::kTimeline:
      break;
  }
  std::string text;
  for (const Segment& s : segments_) {
    if (!text.empty()) text += ',';
    text += KeysText(s.buttons) + ':' +
            std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(s.duration).count());
  }
  return text;
}

}  // namespace netcube::client
