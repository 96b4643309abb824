#include "lab_digest.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "lab_loop.h"

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

std::vector<std::uint64_t> ScriptedLabDigests(LabRunOptions options, int frames, std::string* error) {
  for (std::size_t i = 0; i < std::min(options.lab.players.size(), options.scripts.size()); ++i) {
    if (!options.scripts[i]) {
      *error = "player " + std::to_string(i + 1) + " has no script";
      return {};
    }
  }
  int exit_code = 0;
  const std::unique_ptr<LabLoop> loop = LabLoop::Create(options, {}, error, &exit_code);
  if (loop == nullptr) return {};
  std::vector<std::uint64_t> digests;
  for (int frame = 0; frame < frames; ++frame) {
    loop->UpdateOneFrame();
    digests.push_back(LabDigest(loop->original().shown().lab()));
  }
  return digests;
}

}  // namespace netcube::apps
