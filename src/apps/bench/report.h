#pragma once
// The bench's printed tables, the baseline ratios, and the targets the numbers are checked against.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "profiles.h"
#include "scale.h"

namespace netcube::bench {

// "1.23x", a over b; spelled out when b is zero.
std::string Ratio(double a, double b);

struct Machine {
  unsigned cores = 0;
  std::string cpu_model;
};
Machine DescribeMachine();

void PrintScale(const std::vector<ScaleResult>& runs, const std::vector<ScaleResult>& baselines);
// The bandwidth runs, with each cube's cost: a moving one's from the all-moving runs, a resting one's from
// the all-idle runs, and a moving one's among idle ones from the half-idle runs less the resting cost.
void PrintBandwidth(const std::vector<ScaleResult>& runs);
void PrintProfile(const ProfileResult& result);

struct Target {
  std::string name;
  std::string status;  // "met", "missed" or "not run"
  std::string detail;  // the numbers behind the verdict
};
std::vector<Target> CheckTargets(const std::vector<ScaleResult>& scale,
                                 const std::vector<ScaleResult>& bandwidth,
                                 const std::vector<ProfileResult>& profiles);
void PrintTargets(const std::vector<Target>& targets);

nlohmann::json ToJson(const Machine& machine, const std::vector<ScaleResult>& scale,
                      const std::vector<ScaleResult>& scale_baselines,
                      const std::vector<ProfileResult>& profiles, const std::vector<Target>& targets);

}  // namespace netcube::bench
