#include "duration_histogram.h"

#include <gtest/gtest.h>

namespace netcube::server {
namespace {

TEST(DurationHistogram, EmptyReadsZero) {
  const DurationHistogram histogram;
  EXPECT_EQ(histogram.Percentile(0.5), Micros(0));
  EXPECT_EQ(histogram.max(), Micros(0));
}

TEST(DurationHistogram, SmallValuesAreExact) {
  DurationHistogram histogram;
  for (int i = 1; i <= 50; ++i) histogram.Add(Micros(i));
  EXPECT_EQ(histogram.Percentile(0.5), Micros(25));
  EXPECT_EQ(histogram.Percentile(1.0), Micros(50));
  EXPECT_EQ(histogram.samples(), 50u);
}

TEST(DurationHistogram, PercentilesWithinThreePercent) {
  DurationHistogram histogram;
  for (int i = 1; i <= 100'000; ++i) histogram.Add(Micros(i * 10));
  EXPECT_NEAR(static_cast<double>(histogram.Percentile(0.5).count()), 500'000.0, 15'000.0);
  EXPECT_NEAR(static_cast<double>(histogram.Percentile(0.99).count()), 990'000.0, 30'000.0);
  EXPECT_EQ(histogram.max(), Micros(1'000'000));
}

TEST(DurationHistogram, OneOutlierShowsInTheMaxNotTheMedian) {
  DurationHistogram histogram;
  for (int i = 0; i < 999; ++i) histogram.Add(Micros(100));
  histogram.Add(Micros(40'000));
  EXPECT_NEAR(static_cast<double>(histogram.Percentile(0.5).count()), 100.0, 3.0);
  EXPECT_NEAR(static_cast<double>(histogram.Percentile(0.99).count()), 100.0, 3.0);
  EXPECT_EQ(histogram.max(), Micros(40'000));
}

}  // namespace
}  // namespace netcube::server
