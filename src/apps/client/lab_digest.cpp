#include "lab_digest.h"

#include <cstdio>
#include <cstring>

#include "lab_branch.h"
#include "netcube/gui/frame_clock.h"
#include "netcube/gui/keys.h"
#include "runner.h"

namespace netcube::apps {
namespace {

class Fnv1a {
 public:
  // The value's bytes from the lowest up, so the digest does not depend on the machine's byte order.
  void Add(std::uint64_t value) noexcept {
    for (int byte = 0; byte < 8; ++byte) {
      hash_ = (hash_ ^ ((value >> (8 * byte)) & 0xFFU)) * kPrime;
    }
  }
  // std::bit_cast's bits (libc++ 13, the web build's, has no bit_cast).
  void Add(double value) noexcept {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    Add(bits);
  }
  void Add(const client::Vec2& v) noexcept {
    Add(v.x);
    Add(v.y);
  }
  void Add(const sim::CubeState& state) noexcept {
    for (const std::int32_t field : {state.x, state.y, state.vx, state.vy})
      Add(static_cast<std::uint64_t>(static_cast<std::int64_t>(field)));
    Add(static_cast<std::uint64_t>(state.last_input));
    Add(static_cast<std::uint64_t>(state.buttons));
    Add(static_cast<std::uint64_t>(state.held_since));
  }
  std::uint64_t value() const noexcept { return hash_; }

 private:
  static constexpr std::uint64_t kPrime = 0x100000001b3ULL;
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace

std::uint64_t LabDigest(gui::Lab& lab) {
  Fnv1a hash;
  hash.Add(static_cast<std::uint64_t>(lab.server().tick()));
  for (const sim::PlayerCube& cube : lab.server().world()) {
    hash.Add(static_cast<std::uint64_t>(cube.id));
    hash.Add(cube.state);
  }
  for (std::size_t i = 0; i < lab.players(); ++i) {
    const client::Client& player = lab.player(i);
    hash.Add(static_cast<std::uint64_t>(player.state()));
    hash.Add(static_cast<std::uint64_t>(player.local().present));
    hash.Add(player.local().drawn);
    for (const client::RemoteView& remote : player.remotes()) {
      hash.Add(static_cast<std::uint64_t>(remote.id));
      hash.Add(remote.drawn);
    }
  }
  return hash.value();
}

std::string DigestLine(std::int64_t frame, std::uint64_t digest) {
  char line[48];
  std::snprintf(line, sizeof line, "%lld %016llx\n", static_cast<long long>(frame),
                static_cast<unsigned long long>(digest));
  return line;
}

std::vector<std::uint64_t> ScriptedLabDigests(const LabRunOptions& options, int frames, std::string* error) {
  LabBranch branch(options, options.lab, std::nullopt, {});
  if (!branch.Start(error)) return {};
  std::vector<gui::PlayerKeys> keys;
  for (std::size_t i = 0; i < options.lab.players.size(); ++i) {
    // Without a script a player holds nothing: no keyboard is read.
    keys.emplace_back(options.scripts[i % options.scripts.size()].value_or(client::InputScript{}),
                      options.lab.players[i].client.seed, options.lab.players[i].keys);
  }
  std::vector<std::uint64_t> digests;
  for (int frame = 0; frame < frames; ++frame) {
    branch.Step([&](std::vector<std::uint8_t>& held) {
      gui::Lab& lab = branch.shown().lab();
      for (std::size_t i = 0; i < held.size(); ++i)
        held[i] = keys[i].Held(gui::VirtualFrameTime(frame), lab.player(i));
    });
    digests.push_back(LabDigest(branch.shown().lab()));
  }
  return digests;
}

}  // namespace netcube::apps
