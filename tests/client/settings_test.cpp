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
  EXPECT_FALSE(predicted.interpolation || predicted.smoothing || predicted.extrapolation ||
               predicted.adaptive_delay);
  const Settings full = PresetSettings(Preset::kFull);
  EXPECT_TRUE(full.prediction && full.reconciliation && full.interpolation && full.smoothing &&
              full.extrapolation && full.adaptive_delay);
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

TEST(Settings, TechniqueSetsArePresetsOrToggles) {
  std::string error;
  const auto full = ParseTechniqueSet("full", &error);
  ASSERT_TRUE(full.has_value()) << error;
  EXPECT_EQ(full->label, "full");
  EXPECT_EQ(full->settings, PresetSettings(Preset::kFull));
  EXPECT_EQ(TechniquesOf(full->settings), "p+r+i+s+e+a");
  EXPECT_EQ(TechniquesOf(PresetSettings(Preset::kNaive)), "none");
  EXPECT_EQ(TechniquesOf(PresetSettings(Preset::kPredicted)), "p+r");

  const auto toggles = ParseTechniqueSet("i+p", &error);
  ASSERT_TRUE(toggles.has_value()) << error;
  EXPECT_EQ(TechniquesOf(toggles->settings), "p+i");
  EXPECT_EQ(ParseTechniqueSet("none", &error)->settings, PresetSettings(Preset::kNaive));

  for (const char* bad : {"", "x", "p+p", "p+", "+p", "pr", "Full"}) {
    error.clear();
    EXPECT_FALSE(ParseTechniqueSet(bad, &error).has_value()) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

TEST(Settings, TechniqueSetListsHoldTwoToFour) {
  std::string error;
  const auto three = ParseTechniqueSets("naive,predicted,full", &error);
  ASSERT_TRUE(three.has_value()) << error;
  ASSERT_EQ(three->size(), 3U);
  EXPECT_EQ((*three)[1].settings, PresetSettings(Preset::kPredicted));
  EXPECT_TRUE(ParseTechniqueSets("p,p+r,p+r+i,full", &error).has_value()) << error;
  for (const char* bad : {"full", "naive,,full", "a,b", "naive,predicted,full,full,naive"}) {
    error.clear();
    EXPECT_FALSE(ParseTechniqueSets(bad, &error).has_value()) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

}  // namespace
}  // namespace netcube::client
