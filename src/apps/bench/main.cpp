// netcube-bench: measures the netcode. Runs the scale scenario (one server, N netcube-bot players in a child
// process), the bandwidth scenario (the scale scenario's setup, both snapshot encodings, players moving,
// half idle and idle, under network profiles) and the network-profile scenario (in-process players under each
// profile of assets/link_profiles.json), each with its baseline, and the decode scenario (a client's decode
// of one snapshot, decode.h), prints tables and the targets, and writes every figure to --json. It reports;
// it does not fail on timing. docs/BENCHMARKS.md explains the numbers. The flags are in bench_flags.h, the
// scenarios' runs in scenarios.h.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bench_flags.h"
#include "decode.h"
#include "report.h"
#include "scenarios.h"

namespace bench = netcube::bench;

int main(int argc, char** argv) {
  bench::BenchFlags flags;
  if (const std::optional<int> exit_code = bench::ParseBenchFlags(argc, argv, flags)) return *exit_code;
  const std::optional<bench::Scenarios> scenarios = bench::Scenarios::Load(flags);
  if (!scenarios) return 1;

  const bench::Machine machine = bench::DescribeMachine();
  std::printf("netcube-bench on %u cores, %s\n", machine.cores, machine.cpu_model.c_str());
  std::fflush(stdout);

  std::vector<bench::ScaleResult> scale;
  std::vector<bench::ScaleResult> scale_baselines;
  if (flags.Runs("scale") && !scenarios->RunScale(scale, scale_baselines)) return 2;
  std::vector<bench::ScaleResult> bandwidth;
  if (flags.Runs("bandwidth") && !scenarios->RunBandwidth(bandwidth)) return 2;
  std::vector<bench::ProfileResult> profiles;
  if (flags.Runs("profiles") && !scenarios->RunProfiles(profiles)) return 2;
  nlohmann::json tagging = nlohmann::json::object();
  if (flags.Runs("tagging") && !scenarios->RunTagging(tagging)) return 2;
  std::vector<bench::DecodeResult> decode;
  if (flags.Runs("decode")) {
    decode = bench::RunDecode(128, 400);
    bench::PrintDecode(decode);
  }

  const std::vector<bench::Target> targets = bench::CheckTargets(scale, bandwidth, profiles);
  bench::PrintTargets(targets);
  if (!flags.json_path.empty()) {
    std::ofstream file(flags.json_path);
    nlohmann::json all = bench::ToJson(machine, scale, scale_baselines, profiles, targets);
    all["bandwidth"] = bandwidth;
    all["tagging"] = tagging;
    all["decode"] = bench::DecodeJson(decode);
    file << all.dump(2) << "\n";
    file.close();
    if (file.fail()) {
      std::cerr << "netcube-bench: cannot write " << flags.json_path << "\n";
      return 1;
    }
  }
  if (scenarios->failed_runs() > 0) {
    std::cerr << "netcube-bench: " << scenarios->failed_runs() << " run(s) failed (said above)\n";
    return 1;
  }
  return 0;
}
