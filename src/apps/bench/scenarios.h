#pragma once
// netcube-bench's scenarios as the flags ask for them: each one's runs in turn, their progress on stderr
// and their printed table. What they share: the network profiles of assets/link_profiles.json, loaded once,
// and the settings of a scale run.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench_flags.h"
#include "netcube/transport/link_profile.h"
#include "profiles.h"
#include "scale.h"

namespace netcube::bench {

class Scenarios {
 public:
  // Loads the profiles the flags need (none when only lan scale runs); nothing, said, when they cannot be.
  static std::optional<Scenarios> Load(const BenchFlags& flags);

  // Each runs one scenario; false, said, when a profile it is asked for is not known.
  bool RunScale(std::vector<ScaleResult>& scale, std::vector<ScaleResult>& baselines) const;
  bool RunBandwidth(std::vector<ScaleResult>& bandwidth) const;
  bool RunProfiles(std::vector<ProfileResult>& profiles) const;
  bool RunTagging(nlohmann::json& tagging) const;
  // The server runs that failed (each said on stderr when it did): the others' figures still stand.
  int failed_runs() const noexcept { return failed_runs_; }

 private:
  Scenarios(const BenchFlags& flags, std::string profiles_path, std::vector<transport::LinkProfile> known);
  // The profile named `name`, or nothing, said.
  std::optional<transport::LinkProfile> Find(const std::string& name) const;
  // The scale runs of one setting, an entry per encoding and interest management (on or off); `single`
  // holds the links named by a profile.
  std::vector<ScaleSettings> ScaleRuns(int clients, int rate, int redundancy,
                                       const std::vector<std::string>& encodings,
                                       const std::vector<std::string>& interests, double idle,
                                       const std::string& links,
                                       const std::vector<transport::LinkProfile>& mixed,
                                       const std::vector<transport::LinkProfile>& single) const;

  const BenchFlags& flags_;
  std::string profiles_path_;
  std::vector<transport::LinkProfile> known_;
  ScaleSettings base_;  // what the scale and bandwidth runs share
  mutable int failed_runs_ = 0;
};

}  // namespace netcube::bench
