// The player view's controls: the technique presets and link profiles as buttons, the technique switches
// and their numbers, the link conditioner, and the overlay toggles. They only set the client's settings
// and link (and the view's overlays): what the switches do is the client's business.
#include <optional>

#include "netcube/gui/player_view.h"
#include "netcube/protocol/messages.h"
#include "panel_widgets.h"

namespace netcube::gui {
namespace {

const char* PresetTooltip(client::Preset preset) {
  switch (preset) {
    case client::Preset::kNaive:
      return "Every technique off: your cube moves only when the server says so, a round trip late.";
    case client::Preset::kPredicted:
      return "Client-side prediction with server reconciliation: your cube moves at once, remote cubes still "
             "jump.";
    case client::Preset::kFull:
      return "Prediction, reconciliation, interpolation, smoothing, extrapolation and the adaptive delay.";
    case client::Preset::kPredictOthers:
      return "full, and the other family of netcode: every cube simulated to the present from the newest "
             "snapshot (remote cubes with their last buttons, collisions included), rolled back on each "
             "snapshot.";
  }
  return "";
}

using TechniqueToggle = Toggle<client::Settings>;
constexpr TechniqueToggle kTechniqueToggles[] = {
    {"prediction", &client::Settings::prediction,
     "Draw your cube where your own inputs put it now, instead of waiting a round trip for the server.",
     true},
    {"reconciliation", &client::Settings::reconciliation,
     "On each snapshot, replay the inputs the server has not processed yet on top of its state, so the "
     "prediction does not jump back."},
    {"interpolation", &client::Settings::interpolation,
     "Draw remote cubes slightly in the past, between two snapshots, so they glide instead of jumping."},
    {"smoothing", &client::Settings::smoothing,
     "Blend a correction of your cube in over the smoothing time instead of snapping to it, and never draw a "
     "remote cube moving faster than a cube can (a late snapshot's correction is made up over the next "
     "frames).",
     true},
    {"extrapolation", &client::Settings::extrapolation,
     "When the interpolation buffer runs dry, keep a remote cube moving along its last velocity for a "
     "while."},
    {"adaptive delay", &client::Settings::adaptive_delay,
     "Size the interpolation delay from the measured snapshot interval, loss and jitter instead of the fixed "
     "value."},
    {"predict others", &client::Settings::predict_others,
     "Draw every cube at the present: simulate the newest snapshot's world forward, remote cubes holding "
     "their "
     "last buttons and yours through its pending inputs, collisions included, and roll back on each snapshot "
     "(remote turns become corrections, smoothed)."},
    {"input pacing", &client::Settings::input_pacing,
     "Sample the keys a few percent slower or faster, by the input lead the server reports, so inputs arrive "
     "just in time whatever this machine's clock does (off: 60 a second by the local clock).",
     true},
    {"adaptive snapshot rate", &client::Settings::adaptive_snapshot_rate,
     "Ask the server for a snapshot every tick from the start and while the link loses or delays snapshots "
     "(each one the buffer must ride out then costs a third of the delay), and for the server's rate back "
     "once 10 s show it does not (off, or without interpolation: the server's rate)."},
};

using OverlayToggle = Toggle<Overlays>;
constexpr OverlayToggle kOverlayToggles[] = {
    {"server ghost", &Overlays::server_ghost,
     "Outline where the server has every cube now (in the lab: its own world; connected to a server: the "
     "newest state received, the best a client can know).",
     true},
    {"latest received", &Overlays::latest_received,
     "Thin frame at each remote cube's newest received state; interpolation draws it further back."},
    {"raw prediction", &Overlays::raw_prediction,
     "Outline at your cube's raw prediction while smoothing draws it elsewhere.", true},
    {"trails", &Overlays::trails, "Short trails of where each cube was drawn over the last 0.6 s."},
    {"corrections", &Overlays::corrections,
     "An arrow from where your cube was predicted to where the latest reconciliation moved it."},
    {"tag reach", &Overlays::tag_reach, "The dashed circle a tag's ray reaches (20 units) around your cube."},
};

bool SliderDouble(const char* label, double& value, double min, double max, const char* format) {
  return ImGui::SliderScalar(label, ImGuiDataType_Double, &value, &min, &max, format);
}

}  // namespace

void PlayerView::DrawPresets(client::Client& client) const {
  ImGui::TextUnformatted("Preset:");
  const std::optional<client::Preset> active = client::MatchPreset(client.settings());
  for (const client::Preset preset : client::kAllPresets) {
    SameLineIfFits(ButtonWidth(client::ToString(preset)));
    if (ChoiceButton(client::ToString(preset), active == preset)) {
      // The preset decides the toggles; the numbers the user tuned stay.
      const client::Settings current = client.settings();
      client::Settings next = client::PresetSettings(preset);
      next.interp_delay_ms = current.interp_delay_ms;
      next.smoothing_ms = current.smoothing_ms;
      next.redundancy = current.redundancy;
      client.SetSettings(next);
    }
    Tooltip(PresetTooltip(preset));
  }
}

void PlayerView::DrawLinkProfiles(client::Client& client,
                                  std::span<const transport::LinkProfile> profiles) const {
  ImGui::TextUnformatted("Link:");
  if (profiles.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(no profiles: assets/link_profiles.json unreadable)");
    return;
  }
  for (const transport::LinkProfile& profile : profiles) {
    SameLineIfFits(ButtonWidth(profile.name.c_str()));
    if (ChoiceButton(profile.name.c_str(), client.link() == profile.settings))
      client.SetLink(profile.settings);
    Tooltip(profile.description.c_str());
  }
}

void PlayerView::DrawTechniques(client::Client& client) const {
  client::Settings s = client.settings();
  bool changed = DrawToggles<client::Settings>(kTechniqueToggles, s);

  ItemRow row(3, SliderWidth("smoothing 100 ms"));
  row.Next();
  ImGui::BeginDisabled(s.adaptive_delay);
  changed |= ImGui::SliderInt("##delay", &s.interp_delay_ms, 0, client::kMaxInterpDelayMs, "delay %d ms");
  ImGui::EndDisabled();
  Tooltip("How far in the past remote cubes are drawn while the delay is not adaptive.");
  row.Next();
  changed |= ImGui::SliderInt("##smoothing", &s.smoothing_ms, 0, client::kMaxSmoothingMs, "smoothing %d ms");
  Tooltip("How long a correction of your cube takes to blend in.");
  row.Next();
  changed |= ImGui::SliderInt("##redundancy", &s.redundancy, 1,
                              static_cast<int>(protocol::kMaxInputsPerPacket), "redundancy %d");
  Tooltip(
      "How many of the newest unacknowledged inputs each input packet carries, so a lost packet loses no "
      "input.");
  row.End();
  if (changed) client.SetSettings(client::Clamped(s));
}

void PlayerView::DrawLinkConditioner(client::Client& client) const {
  transport::LinkSettings link = client.link();
  bool changed = false;
  ItemRow times(2, SliderWidth("latency 1000 ms"));
  times.Next();
  changed |= SliderDouble("##latency", link.latency_ms, 0.0, 1000.0, "latency %.0f ms");
  Tooltip("Delay added to every packet in each direction: the round trip grows by twice this.");
  times.Next();
  changed |= SliderDouble("##jitter", link.jitter_ms, 0.0, 250.0, "jitter +-%.0f ms");
  Tooltip("Each packet's added delay varies randomly by up to plus or minus this.");
  times.End();
  ItemRow chances(3, SliderWidth("duplicate 0.00"));
  chances.Next();
  changed |= SliderDouble("##loss", link.loss, 0.0, 1.0, "loss %.2f");
  Tooltip("Probability that a packet is dropped, in each direction.");
  chances.Next();
  changed |= SliderDouble("##duplicate", link.duplicate, 0.0, 1.0, "duplicate %.2f");
  Tooltip("Probability that a packet is delivered twice, in each direction.");
  chances.Next();
  changed |= SliderDouble("##reorder", link.reorder, 0.0, 1.0, "reorder %.2f");
  Tooltip("Probability that a packet is held back behind later ones.");
  chances.End();
  if (changed) client.SetLink(link);
}

void PlayerView::DrawOverlayToggles() { DrawToggles<Overlays>(kOverlayToggles, overlays_); }

}  // namespace netcube::gui
