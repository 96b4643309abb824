// The comparison picture's panels: a row per technique the compared entries differ in, what it buys beside
// what it costs, and none for a technique they all share (its panels would show equal curves).
#include "netcube/gui/compare_plot.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace netcube::gui {
namespace {

std::vector<PlotSeries> Entries(const std::string& list) {
  std::string error;
  std::vector<PlotSeries> series;
  const std::optional<std::vector<client::TechniqueSet>> sets = client::ParseTechniqueSets(list, &error);
  EXPECT_TRUE(sets) << error;
  for (const client::TechniqueSet& set : sets.value_or(std::vector<client::TechniqueSet>{}))
    series.push_back({set.label, {}, {}, set.settings});
  return series;
}

TEST(ComparePlot, EachTechniqueTheEntriesDifferInHasWhatItBuysBesideWhatItCosts) {
  const std::vector<std::string> panels = ComparePanels(Entries("naive,p,predicted,full"));
  ASSERT_EQ(panels.size(), 10U);
  const char* techniques[] = {"Prediction", "Reconciliation", "Interpolation", "Smoothing", "Extrapolation"};
  for (std::size_t row = 0; row < 5; ++row) {
    EXPECT_EQ(panels[2 * row].rfind(std::string(techniques[row]) + " buys: ", 0), 0U) << panels[2 * row];
    EXPECT_EQ(panels[2 * row + 1].rfind(std::string(techniques[row]) + " costs: ", 0), 0U)
        << panels[2 * row + 1];
  }
}

TEST(ComparePlot, TheTwoFamiliesShowOnlyWhatPredictingTheOthersBuysAndCosts) {
  const std::vector<std::string> panels = ComparePanels(Entries("full,predict-others"));
  ASSERT_EQ(panels.size(), 4U);
  for (const std::string& panel : panels) EXPECT_EQ(panel.rfind("Predicting the others", 0), 0U) << panel;
  EXPECT_TRUE(ComparePanels(Entries("full,full")).empty());
}

}  // namespace
}  // namespace netcube::gui
