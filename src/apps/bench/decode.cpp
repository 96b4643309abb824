#include "decode.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <optional>

#include "netcube/client/input_script.h"
#include "netcube/client/snapshot_decoder.h"
#include "netcube/protocol/replay.h"
#include "netcube/protocol/snapshot_writer.h"
#include "netcube/sim/world.h"

namespace netcube::bench {
namespace {

using Clock = std::chrono::steady_clock;

enum class Code { kFull, kDelta };

const char* NameOf(Code code) { return code == Code::kFull ? "full" : "delta"; }

// The crowded arena the scale scenario's players make: every cube steered by the random script (seeded per
// cube), an input each tick, pushing each other apart.
class Crowd {
 public:
  explicit Crowd(int cubes) : inputs_(static_cast<std::size_t>(cubes)) {
    for (int id = 0; id < cubes; ++id) {
      sim::PlayerCube cube{static_cast<sim::PlayerId>(id), {}};
      cube.state.x = sim::kStandardArena.min_x() + 2600 * (id % 24);
      cube.state.y = sim::kStandardArena.min_y() + 2600 * (id / 24);
      world_.push_back(cube);
    }
    generations_.assign(world_.size(), 1);
    std::string error;
    script_ = *client::InputScript::Parse("random", &error);
  }

  void Step(std::uint64_t tick) {
    steps_.clear();
    const Micros elapsed(static_cast<std::int64_t>(tick) * 1'000'000 / sim::kTicksPerSecond);
    for (std::size_t i = 0; i < world_.size(); ++i) {
      inputs_[i] = {static_cast<sim::Seq>(tick), script_.ButtonsAt(elapsed, i + 1)};
      steps_.push_back({&world_[i], std::span(&inputs_[i], 1)});
    }
    sim::StepWorld(world_, steps_, true, sim::kStandardArena, resolver_);
    moves_.Record(tick, world_, generations_, {}, steps_, true);
    history_.push_back(world_);
  }

  // The world `age` ticks before the newest.
  const std::vector<sim::PlayerCube>& Ago(int age) const {
    return history_[history_.size() - 1 - static_cast<std::size_t>(age)];
  }
  const std::vector<sim::PlayerCube>& world() const { return world_; }
  const protocol::MoveLog& moves() const { return moves_; }

 private:
  std::vector<sim::PlayerCube> world_;
  std::vector<std::uint32_t> generations_;
  std::vector<sim::Input> inputs_;
  std::vector<sim::PlayerStep> steps_;
  sim::OverlapResolver resolver_;
  std::vector<std::vector<sim::PlayerCube>> history_;
  protocol::MoveLog moves_;
  client::InputScript script_;
};

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

// One code against baselines `age` ticks old, a snapshot every tick, as a client at 60 snapshots a second
// receives them: every snapshot is received, so the decoder holds the world a tick before each. As a
// server's kept baseline, one serves until it is half as old again as the newest the client told of, so
// consecutive deltas name the same baseline, and never one older than a client holds.
DecodeResult Measure(int cubes, int ticks, Code code, int age) {
  constexpr int kWarmUp = 80;
  Crowd crowd(cubes);
  client::SnapshotDecoder decoder;
  protocol::SnapshotWriter writer;
  protocol::DeltaSnapshot delta;
  protocol::Message message;
  std::vector<double> micros;
  std::uint64_t cube_bits = 0;
  std::uint64_t deltas = 0;
  std::uint64_t ages = 0;
  std::uint64_t baseline = 0;
  for (int t = 0; t < kWarmUp + ticks; ++t) {
    const auto tick = static_cast<std::uint64_t>(t);
    crowd.Step(tick);
    const bool measured = t >= kWarmUp;
    if (!measured || code == Code::kFull) {
      writer.Prepare(static_cast<std::uint32_t>(tick), sim::kStandardArena, crowd.world());
    } else {
      if (tick - baseline > static_cast<std::uint64_t>(std::min(age + age / 2, protocol::kHeldBaselines)))
        baseline = tick - static_cast<std::uint64_t>(age);
      const int kept_age = static_cast<int>(tick - baseline);
      const std::vector<sim::PlayerCube>& held = crowd.Ago(kept_age);
      const bool replayed = protocol::MakeReplay(tick, kept_age, held, crowd.world(), crowd.moves(), delta);
      deltas += replayed ? 1 : 0;
      ages += static_cast<std::uint64_t>(kept_age);
      if (replayed) {
        writer.Prepare(delta);
      } else {
        writer.Prepare(static_cast<std::uint32_t>(tick), sim::kStandardArena, crowd.world());
      }
    }
    const std::span<const std::uint8_t> packet = writer.PacketFor(std::nullopt);
    const Clock::time_point start = Clock::now();
    const bool decoded = protocol::Decode(packet, message) == protocol::DecodeError::kNone;
    const protocol::Snapshot* snapshot = std::get_if<protocol::Snapshot>(&message);
    if (const auto* d = std::get_if<protocol::DeltaSnapshot>(&message); decoded && d != nullptr)
      snapshot = decoder.Rebuild(static_cast<client::Tick>(tick) - d->age, *d, sim::kStandardArena);
    const Clock::time_point end = Clock::now();
    if (snapshot == nullptr) continue;  // not rebuilt: counted as no sample
    decoder.Received(static_cast<client::Tick>(tick), snapshot->players.span());
    if (!measured) continue;
    micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    cube_bits += writer.cube_bits();
  }
  DecodeResult out;
  out.code = NameOf(code);
  out.age = code == Code::kFull ? 0 : age;
  out.mean_age = static_cast<double>(ages) / ticks;
  out.cubes = static_cast<std::size_t>(cubes);
  const double samples = static_cast<double>(std::max<std::size_t>(micros.size(), 1));
  out.bytes_per_cube = static_cast<double>(cube_bits) / 8.0 / samples / cubes;
  out.decode_p50_us = Percentile(micros, 0.5);
  out.decode_p99_us = Percentile(micros, 0.99);
  out.deltas_pct = code == Code::kDelta ? 100.0 * static_cast<double>(deltas) / ticks : 0.0;
  return out;
}

}  // namespace

std::vector<DecodeResult> RunDecode(int cubes, int ticks) {
  std::vector<DecodeResult> out{Measure(cubes, ticks, Code::kFull, 0)};
  for (const int age : {3, 22, 60}) {
    out.push_back(Measure(cubes, ticks, Code::kDelta, age));
  }
  return out;
}

void PrintDecode(const std::vector<DecodeResult>& results) {
  std::printf("\nDecode: one snapshot of a crowded arena, as a client decodes it\n");
  std::printf("%-10s %4s %8s %6s %12s %14s %14s %9s\n", "code", "age", "mean age", "cubes", "B per cube",
              "decode p50 us", "decode p99 us", "deltas");
  for (const DecodeResult& r : results) {
    std::printf("%-10s %4d %8.1f %6zu %12.2f %14.1f %14.1f %8.0f%%\n", r.code.c_str(), r.age, r.mean_age,
                r.cubes, r.bytes_per_cube, r.decode_p50_us, r.decode_p99_us, r.deltas_pct);
  }
}

nlohmann::json DecodeJson(const std::vector<DecodeResult>& results) {
  nlohmann::json out = nlohmann::json::array();
  for (const DecodeResult& r : results) {
    out.push_back({{"code", r.code},
                   {"age", r.age},
                   {"mean_age", r.mean_age},
                   {"cubes", r.cubes},
                   {"bytes_per_cube", r.bytes_per_cube},
                   {"decode_p50_us", r.decode_p50_us},
                   {"decode_p99_us", r.decode_p99_us},
                   {"deltas_pct", r.deltas_pct}});
  }
  return out;
}

}  // namespace netcube::bench
