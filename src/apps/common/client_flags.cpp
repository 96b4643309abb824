#include "client_flags.h"

#include <CLI/CLI.hpp>

#include "flag_checks.h"
#include "link_profiles.h"
#include "netcube/protocol/messages.h"

namespace netcube::apps {
namespace {

void ApplyToggle(const std::string& value, bool& toggle) {
  if (!value.empty()) toggle = value == "on";
}

}  // namespace

void ClientFlags::Register(CLI::App& app, const std::string& preset_note, const std::string& latency_note) {
  app.add_option("--preset", preset_,
                 "Technique preset: naive, predicted, full or predict-others" + preset_note)
      ->check(CLI::IsMember({"naive", "predicted", "full", "predict-others"}));
  const auto on_off = CLI::IsMember({"on", "off"});
  app.add_option("--prediction", prediction_, "Override the preset: on or off")->check(on_off);
  app.add_option("--reconciliation", reconciliation_, "Override the preset: on or off")->check(on_off);
  app.add_option("--interpolation", interpolation_, "Override the preset: on or off")->check(on_off);
  app.add_option("--smoothing", smoothing_, "Override the preset: on or off")->check(on_off);
  app.add_option("--predict-others", predict_others_,
                 "Override the preset: on or off (the other cubes simulated to the present, with rollback)")
      ->check(on_off);
  app.add_option("--predict-to-input-tick", predict_to_input_tick_,
                 "With predict-others, draw the other cubes where they will be when your inputs reach the "
                 "server instead of now: on or off (the default)")
      ->check(on_off);
  app.add_option("--adaptive-snapshot-rate", adaptive_snapshot_rate_,
                 "Ask the server for a snapshot every tick from the start and while the link loses or delays "
                 "them: on (the default) or off (the server's rate)")
      ->check(on_off);
  app.add_option("--redundancy", redundancy_, "Inputs per input packet (default 32)")
      ->check(CLI::Range(1, static_cast<int>(protocol::kMaxInputsPerPacket)));
  app.add_option_function<std::string>(
         "--profile",
         [this](const std::string& name) {
           std::string error;
           const std::vector<transport::LinkProfile> known = LoadLinkProfiles(LinkProfilesPath(), &error);
           if (known.empty()) throw CLI::ValidationError("--profile", error);
           const std::optional<transport::LinkProfile> profile = transport::FindLinkProfile(known, name);
           if (!profile) {
             std::string names;
             for (const transport::LinkProfile& p : known) names += (names.empty() ? "" : ", ") + p.name;
             throw CLI::ValidationError("--profile", "no profile '" + name + "' (known: " + names + ")");
           }
           profile_ = profile->settings;
         },
         "Client-side conditioner: a named network from link_profiles.json (lan, cross-continent, lossy, "
         "harsh, ...); the single settings below override its values")
      ->type_name("NAME");
  app.add_option("--latency-ms", latency_ms_,
                 "Client-side conditioner: added latency, each direction" + latency_note)
      ->check(FiniteRange(0.0, kMaxLinkDelayMs));
  app.add_option("--jitter-ms", jitter_ms_, "Client-side conditioner: latency varies by up to +-this")
      ->check(FiniteRange(0.0, kMaxLinkDelayMs));
  app.add_option("--loss", loss_, "Client-side conditioner: packet loss probability [0, 1]")
      ->check(FiniteRange(0.0, 1.0));
  app.add_option("--duplicate", duplicate_, "Client-side conditioner: duplication probability [0, 1]")
      ->check(FiniteRange(0.0, 1.0));
}

client::Settings ClientFlags::ApplySettings(client::Settings defaults) const {
  client::Settings settings = defaults;
  if (!preset_.empty()) settings = client::PresetSettings(*client::ParsePreset(preset_));
  ApplyToggle(prediction_, settings.prediction);
  ApplyToggle(reconciliation_, settings.reconciliation);
  ApplyToggle(interpolation_, settings.interpolation);
  ApplyToggle(smoothing_, settings.smoothing);
  ApplyToggle(predict_others_, settings.predict_others);
  ApplyToggle(predict_to_input_tick_, settings.predict_to_input_tick);
  ApplyToggle(adaptive_snapshot_rate_, settings.adaptive_snapshot_rate);
  if (redundancy_) settings.redundancy = *redundancy_;
  return settings;
}

bool ClientFlags::ChoosesTechniques() const {
  return !preset_.empty() || !prediction_.empty() || !reconciliation_.empty() || !interpolation_.empty() ||
         !smoothing_.empty() || !predict_others_.empty();
}

transport::LinkSettings ClientFlags::ApplyLink(transport::LinkSettings defaults) const {
  transport::LinkSettings link = profile_.value_or(defaults);
  if (latency_ms_) link.latency_ms = *latency_ms_;
  if (jitter_ms_) link.jitter_ms = *jitter_ms_;
  if (loss_) link.loss = *loss_;
  if (duplicate_) link.duplicate = *duplicate_;
  return link;
}

bool SplitHostPort(const std::string& text, std::string& host, std::uint16_t& port, std::string* error) {
  const std::size_t colon = text.rfind(':');
  if (colon == 0) {
    *error = "--connect wants HOST:PORT, and the host is empty in '" + text + "'";
    return false;
  }
  int value = 0;
  std::size_t used = 0;
  try {
    if (colon != std::string::npos) value = std::stoi(text.substr(colon + 1), &used);
  } catch (const std::exception&) {
    value = 0;
  }
  if (colon == std::string::npos || used == 0 || used != text.size() - colon - 1 || value < 1 ||
      value > 65535) {
    *error = "--connect wants HOST:PORT with a port in [1, 65535], got '" + text + "'";
    return false;
  }
  host = text.substr(0, colon);
  port = static_cast<std::uint16_t>(value);
  return true;
}

}  // namespace netcube::apps
