#pragma once
// The command-line flags netcube-bot and netcube-client share: a technique preset with on/off overrides,
// input redundancy, the client's link conditioner (a named profile and single settings), and HOST:PORT
// parsing.
#include <cstdint>
#include <optional>
#include <string>

#include "cli_forward.h"
#include "netcube/client/settings.h"
#include "netcube/transport/link_conditioner.h"

namespace netcube::apps {

class ClientFlags {
 public:
  // Adds --preset, --prediction, --reconciliation, --interpolation, --smoothing, --adaptive-snapshot-rate,
  // --redundancy, --profile,
  // --latency-ms, --jitter-ms, --loss and --duplicate; the notes extend the help of --preset and
  // --latency-ms with the program's own defaults. An unknown --profile is a usage error naming the known.
  void Register(CLI::App& app, const std::string& preset_note, const std::string& latency_note);

  // `defaults` with the flags that were given applied on top: the preset first, then single toggles.
  client::Settings ApplySettings(client::Settings defaults) const;
  // Whether --preset or a technique toggle was given.
  bool ChoosesTechniques() const;
  // `defaults`, replaced by --profile's settings when given, with the single settings given on top.
  transport::LinkSettings ApplyLink(transport::LinkSettings defaults) const;

 private:
  std::string preset_;
  std::string prediction_;
  std::string reconciliation_;
  std::string interpolation_;
  std::string smoothing_;
  std::string predict_others_;
  std::string predict_to_input_tick_;
  std::string adaptive_snapshot_rate_;
  std::optional<int> redundancy_;
  std::optional<transport::LinkSettings> profile_;
  std::optional<double> latency_ms_;
  std::optional<double> jitter_ms_;
  std::optional<double> loss_;
  std::optional<double> duplicate_;
};

// "HOST:PORT" (port in [1, 65535]) into its parts; false with `error` set otherwise.
bool SplitHostPort(const std::string& text, std::string& host, std::uint16_t& port, std::string* error);

}  // namespace netcube::apps
