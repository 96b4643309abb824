#include "netcube/gui/player_view.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <utility>
#include <vector>

#include "netcube/client/bot.h"
#include "netcube/gui/theme.h"
#include "netcube/protocol/messages.h"

namespace netcube::gui {
namespace {

constexpr Micros kCorrectionShowTime{1'000'000};
// Smoothing offsets and corrections below this (units) are invisible at any zoom: not worth an overlay.
constexpr double kVisibleUnits = 0.02;

void Tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

// A button drawn as "selected" when `active` (the preset or link profile in use).
bool ChoiceButton(const char* label, bool active) {
  if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const bool pressed = ImGui::Button(label);
  if (active) ImGui::PopStyleColor();
  return pressed;
}

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

// Widgets side by side, sharing the row's width (sliders say what they are in their value format).
class ItemRow {
 public:
  explicit ItemRow(int count)
      : width_((ImGui::GetContentRegionAvail().x -
                ImGui::GetStyle().ItemSpacing.x * static_cast<float>(count - 1)) /
               static_cast<float>(count)) {}
  // Before each widget.
  void Next() {
    if (started_) {
      ImGui::PopItemWidth();
      ImGui::SameLine();
    }
    started_ = true;
    ImGui::PushItemWidth(width_);
  }
  // After the last widget.
  void End() {
    if (started_) ImGui::PopItemWidth();
    started_ = false;
  }

 private:
  float width_;
  bool started_ = false;
};

// Puts the next item, `width` wide, on the current line when it fits there, else on the next: a narrow
// panel wraps a row of checkboxes or buttons instead of cutting it.
void SameLineIfFits(float width) {
  const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

float CheckboxWidth(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
         ImGui::CalcTextSize(label, nullptr, true).x;
}

float ButtonWidth(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0F * ImGui::GetStyle().FramePadding.x;
}

bool SliderDouble(const char* label, double& value, double min, double max, const char* format) {
  return ImGui::SliderScalar(label, ImGuiDataType_Double, &value, &min, &max, format);
}

// The plot's overlay reads "<name> <latest value> <unit>" along its top; the scale grows with the data from
// `min_scale` and keeps the line in the lower part, clear of the overlay (else the title looks struck out).
void Plot(const char* id, const SampleRing& ring, const char* name, int decimals, const char* unit,
          float min_scale) {
  constexpr float kLineShare = 0.55F;  // of the plot's height, below the overlay's line of text
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%s %.*f %s", name, decimals, static_cast<double>(ring.latest()),
                unit);
  const float scale = std::max(min_scale, ring.max() / kLineShare);
  ImGui::PlotLines(id, ring.data(), static_cast<int>(SampleRing::kCapacity), ring.offset(), overlay, 0.0F,
                   scale, ImVec2(0.0F, ImGui::GetFontSize() * 3.2F));
}

// One small arrow per held direction, around `centre`; a dot when nothing is held.
void DrawButtonGlyphs(ImDrawList& draw, ImVec2 centre, float half_base, std::uint8_t buttons, ImU32 colour) {
  if ((buttons & sim::kButtonMask) == 0) {
    draw.AddCircleFilled(centre, 1.5F, colour);
    return;
  }
  const float s = half_base;
  const float d = half_base * 1.2F;  // each arrow sits this far from the centre, pointing outward
  if ((buttons & sim::kUp) != 0) {
    draw.AddTriangleFilled({centre.x, centre.y - d - s}, {centre.x - s, centre.y - d},
                           {centre.x + s, centre.y - d}, colour);
  }
  if ((buttons & sim::kDown) != 0) {
    draw.AddTriangleFilled({centre.x, centre.y + d + s}, {centre.x + s, centre.y + d},
                           {centre.x - s, centre.y + d}, colour);
  }
  if ((buttons & sim::kLeft) != 0) {
    draw.AddTriangleFilled({centre.x - d - s, centre.y}, {centre.x - d, centre.y + s},
                           {centre.x - d, centre.y - s}, colour);
  }
  if ((buttons & sim::kRight) != 0) {
    draw.AddTriangleFilled({centre.x + d + s, centre.y}, {centre.x + d, centre.y - s},
                           {centre.x + d, centre.y + s}, colour);
  }
}

}  // namespace

void SampleRing::Push(float value) noexcept {
  values_[next_] = value;
  next_ = (next_ + 1) % kCapacity;
}

float SampleRing::latest() const noexcept { return values_[(next_ + kCapacity - 1) % kCapacity]; }

float SampleRing::max() const noexcept { return *std::max_element(values_.begin(), values_.end()); }

PlayerView::PlayerView(std::string title, std::string keys_hint)
    : title_(std::move(title)), keys_hint_(std::move(keys_hint)) {}

void PlayerView::Reset() {
  history_ = {};
  trails_.Clear();
  last_sample_.reset();
  corrections_seen_ = 0;
  largest_correction_since_sample_ = 0.0;
  latest_correction_.reset();
}

void PlayerView::Observe(Micros now, const client::Client& client) {
  const client::Metrics metrics = client.metrics();
  const client::LocalView& local = client.local();
  if (metrics.corrections < corrections_seen_) corrections_seen_ = 0;  // a new connection counts afresh
  if (metrics.corrections > corrections_seen_) {
    corrections_seen_ = metrics.corrections;
    largest_correction_since_sample_ =
        std::max(largest_correction_since_sample_, client::Length(local.last_correction));
    latest_correction_ = Correction{local.predicted - local.last_correction, local.predicted, now};
  }

  if (!last_sample_ || now - *last_sample_ >= MetricsHistory::kInterval) {
    last_sample_ = now;
    history_.rtt_ms.Push(static_cast<float>(metrics.rtt_ms));
    history_.correction.Push(static_cast<float>(largest_correction_since_sample_));
    history_.buffer_depth.Push(static_cast<float>(metrics.buffer_depth));
    history_.interp_delay_ms.Push(static_cast<float>(metrics.interp_delay_ms));
    history_.bytes_up_per_s.Push(static_cast<float>(metrics.bytes_up_per_s));
    history_.bytes_down_per_s.Push(static_cast<float>(metrics.bytes_down_per_s));
    largest_correction_since_sample_ = 0.0;
  }

  std::vector<CubeMark> cubes;
  if (const auto id = client.player_id(); id && local.present) cubes.push_back({*id, local.drawn});
  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.sample != client::SampleKind::kEmpty) cubes.push_back({remote.id, remote.drawn});
  }
  trails_.Record(now, cubes);
}

void PlayerView::DrawArena(ImDrawList& draw, const ArenaMapping& mapping, const client::Client& client,
                           Micros now, std::span<const sim::PlayerCube> authoritative) const {
  DrawArenaFloor(draw, mapping);
  const Rect& arena = mapping.arena();
  if (client.state() != client::ConnectionState::kConnected) {
    std::string text = client::ToString(client.state());
    if (!client.status().empty()) text += ": " + client.status();
    DrawCentredText(draw, arena.x + arena.w / 2.0F, arena.y + arena.h / 2.0F - ImGui::GetFontSize(),
                    ToImU32(kHeaderText), text);
    return;
  }
  if (overlays_.trails) trails_.Draw(draw, mapping);

  const client::LocalView& local = client.local();
  const std::optional<sim::PlayerId> own_id = client.player_id();
  const bool own_visible = own_id.has_value() && local.present;
  if (overlays_.server_ghost && !authoritative.empty()) {
    for (const sim::PlayerCube& cube : authoritative) {
      DrawCube(draw, mapping, client::PositionOf(cube.state), cube.id, CubeStyle::kOutline);
    }
  } else if (overlays_.server_ghost) {
    for (const client::RemoteView& remote : client.remotes()) {
      DrawCube(draw, mapping, remote.latest, remote.id, CubeStyle::kOutline);
    }
    if (own_visible) DrawCube(draw, mapping, local.server, *own_id, CubeStyle::kOutline);
  }
  if (overlays_.latest_received) {
    for (const client::RemoteView& remote : client.remotes()) {
      if (remote.sample != client::SampleKind::kEmpty)
        DrawCube(draw, mapping, remote.latest, remote.id, CubeStyle::kFrame);
    }
  }
  if (overlays_.raw_prediction && own_visible && client.settings().prediction &&
      client::Length(local.smoothing_offset) > kVisibleUnits) {
    DrawCube(draw, mapping, local.predicted, *own_id, CubeStyle::kOutline);
  }

  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.sample != client::SampleKind::kEmpty)
      DrawCube(draw, mapping, remote.drawn, remote.id, CubeStyle::kSolid);
  }
  if (own_visible && overlays_.tag_reach) DrawTagReach(draw, mapping, local.drawn);
  if (own_visible) DrawCube(draw, mapping, local.drawn, *own_id, CubeStyle::kOwn);

  if (overlays_.corrections && latest_correction_ && client.settings().prediction) {
    const Micros age = now - latest_correction_->at;
    const double length = client::Length(latest_correction_->to - latest_correction_->from);
    if (age >= Micros(0) && age < kCorrectionShowTime && length > kVisibleUnits) {
      const double fade =
          1.0 - static_cast<double>(age.count()) / static_cast<double>(kCorrectionShowTime.count());
      DrawArrow(draw, mapping.ToScreen(latest_correction_->from), mapping.ToScreen(latest_correction_->to),
                ToImU32(kCorrectionArrow, static_cast<std::uint8_t>(255.0 * fade)), 2.5F);
    }
  }

  // Tags: this player's rays as it drew them, coloured by the server's verdict once it came, and a flash
  // around every cube tagged lately (anyone's tags), where this player draws it.
  const auto fade = [now](Micros at) {
    return 1.0F -
           static_cast<float>((now - at).count()) / static_cast<float>(client::kTagDisplayTime.count());
  };
  for (const client::ShotView& shot : client.shots()) {
    const Rgb colour = !shot.judged                                 ? kRayPending
                       : shot.outcome == protocol::TagOutcome::kHit ? kRayHit
                                                                    : kRayMiss;
    DrawRay(draw, mapping, shot.origin, shot.aim,
            ToImU32(colour,
                    static_cast<std::uint8_t>(80.0F + 175.0F * std::clamp(fade(shot.fired_at), 0.0F, 1.0F))));
  }
  for (const client::TagFlash& flash : client.tag_flashes()) {
    if (own_visible && flash.target == *own_id) {
      DrawTagFlash(draw, mapping, local.drawn, fade(flash.at));
      continue;
    }
    for (const client::RemoteView& remote : client.remotes()) {
      if (remote.id == flash.target && remote.sample != client::SampleKind::kEmpty) {
        DrawTagFlash(draw, mapping, remote.drawn, fade(flash.at));
      }
    }
  }

  // Labels keep off the cubes and the outlines drawn above (ghosts, latest received states).
  CubeLabels labels(draw, mapping);
  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.sample != client::SampleKind::kEmpty) labels.Avoid(remote.drawn);
  }
  if (own_visible) labels.Avoid(local.drawn);
  for (const sim::PlayerCube& cube : authoritative) {
    if (overlays_.server_ghost) labels.Avoid(client::PositionOf(cube.state));
  }
  for (const client::RemoteView& remote : client.remotes()) {
    if (overlays_.latest_received || (overlays_.server_ghost && authoritative.empty()))
      labels.Avoid(remote.latest);
  }
  if (own_visible && overlays_.server_ghost && authoritative.empty()) labels.Avoid(local.server);
  char label[64];
  // The own cube's label first: it keeps its place, and the others move round it.
  if (own_visible) {
    std::snprintf(label, sizeof label, "#%u you", static_cast<unsigned>(*own_id));
    labels.Draw(local.drawn, *own_id, label);
  }
  for (const client::RemoteView& remote : client.remotes()) {
    if (remote.sample == client::SampleKind::kEmpty) continue;
    std::snprintf(label, sizeof label, "#%u %s", static_cast<unsigned>(remote.id), remote.name.c_str());
    labels.Draw(remote.drawn, remote.id, label);
  }
}

std::optional<TagRequest> PlayerView::TagInput(const ArenaMapping& mapping, bool key_pressed) const {
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 mouse = io.MousePos;
  const bool over_arena = mapping.Contains(mouse) && !io.WantCaptureMouse;
  const bool clicked = over_arena && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
  if (!key_pressed && !clicked) return std::nullopt;
  return TagRequest{over_arena ? std::optional(mapping.ToWorld(mouse)) : std::nullopt};
}

void PlayerView::TagByHand(client::Client& client, Micros now, std::optional<client::Vec2> target) {
  client.Tag(now, client::HandAim(client, target));
}

void PlayerView::DrawPanel(client::Client& client, std::span<const transport::LinkProfile> profiles) {
  DrawStatus(client);
  DrawPresets(client);
  DrawLinkProfiles(client, profiles);
  ImGui::Separator();
  ImGui::Text("Pending inputs: %zu", client.pending().size());
  Tooltip(
      "Inputs sent but not yet acknowledged by the server, oldest first: the queue the client replays "
      "on every snapshot.");
  DrawPendingStrip(client.pending());
  // What a newcomer needs first comes first, so that a 1280 x 720 window shows it without scrolling: the
  // switches, then what they do (readouts, plots); the finer link settings and the overlays below.
  if (ImGui::CollapsingHeader("Techniques", ImGuiTreeNodeFlags_DefaultOpen)) DrawTechniques(client);
  if (ImGui::CollapsingHeader("Readouts", ImGuiTreeNodeFlags_DefaultOpen)) DrawReadouts(client);
  if (ImGui::CollapsingHeader("Plots", ImGuiTreeNodeFlags_DefaultOpen)) DrawPlots();
  if (ImGui::CollapsingHeader("Link conditioner", ImGuiTreeNodeFlags_DefaultOpen))
    DrawLinkConditioner(client);
  if (ImGui::CollapsingHeader("Overlays", ImGuiTreeNodeFlags_DefaultOpen)) DrawOverlayToggles();
}

void PlayerView::DrawStatus(const client::Client& client) const {
  // The keys are in the column's title (the lab) or the window's (the client): here they would push the
  // status off a narrow panel.
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(kHeaderText)), "%s:", title_.c_str());
  Tooltip(keys_hint_.c_str());
  const client::ConnectionState state = client.state();
  char status[160];
  Rgb colour = kGoodText;
  if (state == client::ConnectionState::kConnected) {
    std::snprintf(status, sizeof status, "#%u connected, RTT %.0f ms",
                  static_cast<unsigned>(client.player_id().value_or(0)), client.metrics().rtt_ms);
  } else {
    const bool failed = state == client::ConnectionState::kRefused ||
                        state == client::ConnectionState::kLost ||
                        state == client::ConnectionState::kUnreachable;
    colour = failed ? kBadText : kHeaderText;
    std::snprintf(status, sizeof status, "%s%s%s", client::ToString(state),
                  client.status().empty() ? "" : ": ", client.status().c_str());
  }
  SameLineIfFits(ImGui::CalcTextSize(status).x);
  ImGui::PushTextWrapPos(0.0F);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(colour)), "%s", status);
  ImGui::PopTextWrapPos();
  // A server that died looks alive (frozen cubes) until the timeout: say so, on a line of its own where
  // it is seen, as soon as snapshots stop.
  if (state != client::ConnectionState::kConnected) return;
  if (const std::optional<Micros> silence = client.snapshot_silence()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(kBadText)), "no snapshot for %lld ms",
                       static_cast<long long>(silence->count() / 1000));
  }
}

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
  bool changed = false;
  changed |= ImGui::Checkbox("prediction", &s.prediction);
  Tooltip("Draw your cube where your own inputs put it now, instead of waiting a round trip for the server.");
  SameLineIfFits(CheckboxWidth("reconciliation"));
  changed |= ImGui::Checkbox("reconciliation", &s.reconciliation);
  Tooltip(
      "On each snapshot, replay the inputs the server has not processed yet on top of its state, so the "
      "prediction does not jump back.");
  SameLineIfFits(CheckboxWidth("interpolation"));
  changed |= ImGui::Checkbox("interpolation", &s.interpolation);
  Tooltip("Draw remote cubes slightly in the past, between two snapshots, so they glide instead of jumping.");
  changed |= ImGui::Checkbox("smoothing", &s.smoothing);
  Tooltip(
      "Blend a correction of your cube in over the smoothing time instead of snapping to it, and never "
      "draw a remote cube moving faster than a cube can (a late snapshot's correction is made up over the "
      "next frames).");
  SameLineIfFits(CheckboxWidth("extrapolation"));
  changed |= ImGui::Checkbox("extrapolation", &s.extrapolation);
  Tooltip(
      "When the interpolation buffer runs dry, keep a remote cube moving along its last velocity for a "
      "while.");
  SameLineIfFits(CheckboxWidth("adaptive delay"));
  changed |= ImGui::Checkbox("adaptive delay", &s.adaptive_delay);
  Tooltip(
      "Size the interpolation delay from the measured snapshot interval, loss and jitter instead of the "
      "fixed value.");
  SameLineIfFits(CheckboxWidth("predict others"));
  changed |= ImGui::Checkbox("predict others", &s.predict_others);
  Tooltip(
      "Draw every cube at the present: simulate the newest snapshot's world forward, remote cubes holding "
      "their last buttons and yours through its pending inputs, collisions included, and roll back on each "
      "snapshot (remote turns become corrections, smoothed).");
  changed |= ImGui::Checkbox("input pacing", &s.input_pacing);
  Tooltip(
      "Sample the keys a few percent slower or faster, by the input lead the server reports, so inputs "
      "arrive just in time whatever this machine's clock does (off: 60 a second by the local clock).");
  SameLineIfFits(CheckboxWidth("adaptive snapshot rate"));
  changed |= ImGui::Checkbox("adaptive snapshot rate", &s.adaptive_snapshot_rate);
  Tooltip(
      "Ask the server for a snapshot every tick from the start and while the link loses or delays "
      "snapshots (each one the buffer must ride out then costs a third of the delay), and for the server's "
      "rate back once 10 s show it does not (off: the server's rate).");

  ItemRow row(3);
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
  ItemRow times(2);
  times.Next();
  changed |= SliderDouble("##latency", link.latency_ms, 0.0, 1000.0, "latency %.0f ms");
  Tooltip("Delay added to every packet in each direction: the round trip grows by twice this.");
  times.Next();
  changed |= SliderDouble("##jitter", link.jitter_ms, 0.0, 250.0, "jitter +-%.0f ms");
  Tooltip("Each packet's added delay varies randomly by up to plus or minus this.");
  times.End();
  ItemRow chances(3);
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

void PlayerView::DrawOverlayToggles() {
  ImGui::Checkbox("server ghost", &overlays_.server_ghost);
  Tooltip(
      "Outline where the server has every cube now (in the lab: its own world; connected to a server: the "
      "newest state received, the best a client can know).");
  SameLineIfFits(CheckboxWidth("latest received"));
  ImGui::Checkbox("latest received", &overlays_.latest_received);
  Tooltip("Thin frame at each remote cube's newest received state; interpolation draws it further back.");
  ImGui::Checkbox("raw prediction", &overlays_.raw_prediction);
  Tooltip("Outline at your cube's raw prediction while smoothing draws it elsewhere.");
  SameLineIfFits(CheckboxWidth("trails"));
  ImGui::Checkbox("trails", &overlays_.trails);
  Tooltip("Short trails of where each cube was drawn over the last 0.6 s.");
  SameLineIfFits(CheckboxWidth("corrections"));
  ImGui::Checkbox("corrections", &overlays_.corrections);
  Tooltip("An arrow from where your cube was predicted to where the latest reconciliation moved it.");
  SameLineIfFits(CheckboxWidth("tag reach"));
  ImGui::Checkbox("tag reach", &overlays_.tag_reach);
  Tooltip("The dashed circle a tag's ray reaches (20 units) around your cube.");
}

void PlayerView::DrawReadouts(const client::Client& client) const {
  const client::Metrics m = client.metrics();
  ImGui::PushTextWrapPos(0.0F);  // a narrow panel wraps a readout rather than cutting it
  ImGui::Text("RTT %.0f ms (jitter %.1f), snapshots %.1f/s of %d (%s), loss %.0f%%", m.rtt_ms,
              m.rtt_jitter_ms, m.snapshots_per_second, m.snapshot_rate,
              m.snapshot_rate_asked ? "asked" : "the server's", m.snapshot_loss * 100.0);
  Tooltip(
      "RTT: a time echo's round trip, stamped when this client reads the reply: the added latency both ways, "
      "and how long the reply waited to be read (netcube-client reads between frames every millisecond; the "
      "lab once a frame, up to 17 ms). Snapshots received a second, of the rate the server sends this "
      "player: its own, or the one this player asked for (adaptive snapshot rate); loss counts only the "
      "snapshots that never came.");
  ImGui::Text("inputs sent %" PRIu64 ", acked %" PRIu64 ", last ack #%u", m.inputs_sent, m.inputs_acked,
              static_cast<unsigned>(m.last_acked_input));
  ImGui::Text("input lead %+.2f at the server, sampling x%.3f", m.input_lead, m.sample_rate);
  Tooltip(
      "How many more of this player's inputs wait at the server than it wants waiting (smoothed), and the "
      "rate input pacing samples the keys at to bring that to 0.");
  ImGui::Text("corrections %" PRIu64 ", max %.2f, mean %.2f units", m.corrections, m.max_correction,
              m.mean_correction);
  ImGui::Text("interp delay %.0f ms, buffer %.1f, underruns %" PRIu64, m.interp_delay_ms, m.buffer_depth,
              m.interp_underruns);
  ImGui::Text("up %.0f B/s (wire %.0f), down %.0f B/s (wire %.0f)", m.bytes_up_per_s, m.wire_bytes_up_per_s,
              m.bytes_down_per_s, m.wire_bytes_down_per_s);
  ImGui::Text("snapshots full %" PRIu64 ", delta %" PRIu64 ", no baseline %" PRIu64, m.snapshots_full,
              m.snapshots_delta, m.snapshots_no_baseline);
  Tooltip(
      "How the snapshots this player accepted were encoded, and the deltas it dropped because it no longer "
      "held the snapshot they were made against (the next one recovers).");
  ImGui::Text("tags given %" PRIu64 ", missed %" PRIu64 ", taken %" PRIu64 ", rewind %.0f ms", m.tags_hit,
              m.tags_missed, m.tags_taken, m.rewind_ms_mean);
  Tooltip(
      "This player's tags the server judged hits and misses, the tags it took, and how far back the "
      "server judged its tags on average.");
  if (m.victim_view_samples > 0) {
    ImGui::Text("last tag taken: its cube had left that spot %.0f ms earlier (mean %.0f)",
                m.victim_view_ms_last, m.victim_view_ms_mean);
    Tooltip(
        "The other side of lag compensation: when this cube is tagged where another player saw it, "
        "it may have left that spot a while ago on this player's own screen.");
  }
  if (const auto check = client.last_prediction_check()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ToImU32(check->match ? kGoodText : kBadText)),
                       "prediction of input #%u %s the server", static_cast<unsigned>(check->seq),
                       check->match ? "matches" : "differs from");
    Tooltip(
        "Compares what this client predicted after its last acknowledged input with what the server "
        "computed.");
  }
  ImGui::PopTextWrapPos();
}

void PlayerView::DrawPlots() const {
  struct PlotSpec {
    const char* id;
    const SampleRing& ring;
    const char* name;
    int decimals;
    const char* unit;
    float min_scale;
  };
  const PlotSpec plots[] = {
      {"##rtt", history_.rtt_ms, "RTT", 0, "ms", 10.0F},
      {"##correction", history_.correction, "correction", 2, "units", 0.5F},
      {"##depth", history_.buffer_depth, "interp buffer", 1, "snapshots", 2.0F},
      {"##delay", history_.interp_delay_ms, "interp delay", 0, "ms", 50.0F},
      {"##up", history_.bytes_up_per_s, "up", 0, "B/s", 500.0F},
      {"##down", history_.bytes_down_per_s, "down", 0, "B/s", 500.0F},
  };
  constexpr std::size_t kPerRow = 2;
  for (std::size_t first = 0; first < std::size(plots); first += kPerRow) {
    ItemRow row(static_cast<int>(kPerRow));
    for (const PlotSpec& plot : std::span(plots).subspan(first, kPerRow)) {
      row.Next();
      Plot(plot.id, plot.ring, plot.name, plot.decimals, plot.unit, plot.min_scale);
    }
    row.End();
  }
}

void DrawPendingStrip(const client::PendingInputs& pending) {
  constexpr int kRows = 2;
  const float font = ImGui::GetFontSize();
  const float cell_w = font * 3.2F;
  const float cell_h = font * 2.7F;
  const float gap = 2.0F;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float avail = std::max(cell_w, ImGui::GetContentRegionAvail().x);
  const auto per_row = static_cast<std::size_t>(std::max(1.0F, (avail + gap) / (cell_w + gap)));
  const std::size_t room = per_row * kRows;
  ImGui::Dummy(ImVec2(avail, kRows * (cell_h + gap)));  // the strip keeps its height: the panel does not jump

  ImDrawList& draw = *ImGui::GetWindowDrawList();
  const ImU32 text = ToImU32(kLabelText);
  if (pending.empty()) {
    draw.AddText(ImVec2(origin.x + 4.0F, origin.y + cell_h / 2.0F - font / 2.0F), ToImU32({140, 145, 160}),
                 "(empty: every input acknowledged)");
    return;
  }
  const std::size_t cells = pending.size() <= room ? pending.size() : room - 1;
  char buffer[32];
  for (std::size_t i = 0; i < cells + (pending.size() > room ? 1 : 0); ++i) {
    const ImVec2 min(origin.x + static_cast<float>(i % per_row) * (cell_w + gap),
                     origin.y + static_cast<float>(i / per_row) * (cell_h + gap));
    const ImVec2 max(min.x + cell_w, min.y + cell_h);
    draw.AddRectFilled(min, max, ToImU32(kPendingCell), 2.0F);
    draw.AddRect(min, max, ToImU32(kPendingCellBorder), 2.0F);
    if (i == cells) {
      std::snprintf(buffer, sizeof buffer, "+%zu", pending.size() - cells);
      const ImVec2 size = ImGui::CalcTextSize(buffer);
      draw.AddText(ImVec2(min.x + (cell_w - size.x) / 2.0F, min.y + (cell_h - size.y) / 2.0F), text, buffer);
      continue;
    }
    const client::PendingInput& entry = pending[i];
    DrawButtonGlyphs(draw, ImVec2(min.x + cell_w / 2.0F, min.y + cell_h * 0.33F), font * 0.22F,
                     entry.input.buttons, ToImU32(kPendingGlyph));
    std::snprintf(buffer, sizeof buffer, "%u", static_cast<unsigned>(entry.input.seq));
    const ImVec2 size = ImGui::CalcTextSize(buffer);
    draw.AddText(ImVec2(min.x + (cell_w - size.x) / 2.0F, max.y - size.y - 1.0F), text, buffer);
  }
}

}  // namespace netcube::gui
