#include "netcube/client/settings.h"

#include <gtest/gtest.h>

#include "netcube/protocol/messages.h"

namespace netcube::client {
namespace {

TEST(Settings, PresetsAreTheThreeCs447Builds) {
  const Settings naive = PresetSettings(Preset::kNaive);
  EXPECT_FALSE(naive.prediction || naive.reconciliation || naive.interpolation || naive.smoothing ||
               naive.extrapolation || naive.adaptive_delay);
  const Settings predicted = PresetSettings(Preset::kPredicted);
  EXPECT_TRUE(predicted.prediction && predicted.reconciliation);
  EXPECT_FALSE(predicted.interpolation || predicted.smoothing || predicted.extrapolation || predicted.adaptive_delay);
  const Settings full = PresetSettings(Preset::kFull);
  EXPECT_TRUE(full.prediction && full.reconciliation && full.interpolation && full.smoothing && full.extrapolation &&
              full.adaptive_delay);
  EXPECT_EQ(full, Settings{});  // the default is the full build
}

TEST(Settings, PresetNamesRoundTrip) {
  for (Preset p : kAllPresets) {
    EXPECT_EQ(ParsePreset(ToString(p)), p);
    EXPECT_EQ(MatchPreset(PresetSettings(p)), p);
  }
  EXPECT_EQ(ParsePreset("Full"), std::nullopt);
  EXPECT_EQ(ParsePreset(""), std::nullopt);
  Settings mixed = PresetSettings(Preset::kPredicted);
  mixed.smoothing = true;
  EXPECT_EQ(MatchPreset(mixed), std::nullopt);
  mixed = PresetSettings(Preset::kFull);
  mixed.interp_delay_ms = 250;  // numbers do not matter to the match
  EXPECT_EQ(MatchPreset(mixed), Preset::kFull);
}

TEST(Settings, ClampedBringsNumbersIntoRange) {
  Settings s;
  s.redundancy = 500;
  s.interp_delay_ms = -5;
  s.smoothing_ms = 1'000'000;
  s = Clamped(s);
  EXPECT_EQ(s.redundancy, static_cast<int>(protocol::kMaxInputsPerPacket));
  EXPECT_EQ(s.interp_delay_ms, 0);
  EXPECT_EQ(s.smoothing_ms, kMaxSmoothingMs);
  s.redundancy = 0;
  EXPECT_EQ(Clamped(s).redundancy, 1);
}

}  // namespace
}  // namespace netcube::client
