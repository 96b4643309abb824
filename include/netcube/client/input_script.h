#pragma once
// Scripted key presses for bots and tests: which sim::Button bits are held at a given time.
//
//   random        a new random key combination every kRandomSegment (seeded per player), endless
//   circle        right, down-right, down, ... up-right, kCircleSegment each, endless
//   idle          nothing held, endless
//   <timeline>    comma-separated KEYS:MS segments, KEYS a combination of U D L R, or '-' for none;
//                 e.g. "R:100,-:50,R:100". Ends after the last segment.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netcube/sim/time.h"

namespace netcube::client {

class InputScript {
 public:
  static constexpr Micros kRandomSegment = std::chrono::milliseconds(300);
  static constexpr Micros kCircleSegment = std::chrono::milliseconds(250);

  struct Segment {
    std::uint8_t buttons = 0;
    Micros duration{0};
    friend bool operator==(const Segment&, const Segment&) = default;
  };

  // An idle script.
  InputScript() = default;
  // nullopt with `error` explaining what is wrong (which segment, which character).
  static std::optional<InputScript> Parse(std::string_view text, std::string* error);
  // A timeline of these segments (a recorded session's buttons, say).
  static InputScript Timeline(std::vector<Segment> segments);

  // Buttons held `elapsed` after the script started. `seed` varies the random script between players.
  std::uint8_t ButtonsAt(Micros elapsed, std::uint64_t seed) const noexcept;
  // A timeline's total length; nullopt for the endless scripts.
  std::optional<Micros> length() const noexcept;

  const std::vector<Segment>& segments() const noexcept { return segments_; }
  // The script as it would be written: "random", "circle", "idle" or the timeline.
  std::string ToString() const;

 private:
  enum class Kind : std::uint8_t { kIdle, kRandom, kCircle, kTimeline };
  Kind kind_ = Kind::kIdle;
  std::vector<Segment> segments_;
};

}  // namespace netcube::client
