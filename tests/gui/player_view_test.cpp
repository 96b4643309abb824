#include "netcube/gui/player_view.h"

#include <gtest/gtest.h>

namespace netcube::gui {
namespace {

TEST(GuiSampleRing, KeepsTheLatestSamplesInPlotOrder) {
  SampleRing ring;
  EXPECT_EQ(ring.latest(), 0.0F);
  for (int i = 1; i <= static_cast<int>(SampleRing::kCapacity) + 10; ++i) ring.Push(static_cast<float>(i));
  EXPECT_EQ(ring.latest(), static_cast<float>(SampleRing::kCapacity + 10));
  EXPECT_EQ(ring.max(), static_cast<float>(SampleRing::kCapacity + 10));
  // PlotLines reads data[(offset + i) % capacity] for i = 0..capacity-1: oldest to newest.
  const auto at = [&ring](std::size_t i) {
    return ring.data()[(static_cast<std::size_t>(ring.offset()) + i) % SampleRing::kCapacity];
  };
  EXPECT_EQ(at(0), 11.0F);
  EXPECT_EQ(at(SampleRing::kCapacity - 1), static_cast<float>(SampleRing::kCapacity + 10));
}

}  // namespace
}  // namespace netcube::gui
