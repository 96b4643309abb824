// The comparison's figures have one definition (client::Summarize): a frame without a value counts nowhere,
// and the CSV leaves that cell empty, so a mean taken from the CSV is the plot's and the printed one.
#include "compare_csv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace netcube::apps {
namespace {

std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  std::istringstream fields(row.substr(0, row.size() - 1));  // without the newline
  std::string cell;
  while (std::getline(fields, cell, ',')) cells.push_back(cell);
  if (row.size() >= 2 && row[row.size() - 2] == ',') cells.emplace_back();  // an empty last cell
  return cells;
}

TEST(CompareFigures, AFrameWithoutAValueCountsNowhereAndIsAnEmptyCell) {
  std::vector<client::FrameSample> samples(4);
  samples[0].frame = 0;  // before the own cube is known: no own or remote error
  for (std::size_t i = 1; i < samples.size(); ++i) {
    samples[i].frame = static_cast<std::int64_t>(i);
    samples[i].present = true;
    samples[i].own_error = static_cast<double>(i);  // 1, 2, 3
  }
  samples[2].remote_error = 4.0;
  samples[2].remote_jumps = 1;
  samples[2].remote_frozen = 0;
  samples[2].remote_moving = 1;
  samples[2].remote_seconds = 0.5;
  samples[2].remote_jumps_per_s = 2.0;
  samples[3].press_delay_ms = 16.667;
  samples[1].keys_error = 0.0;  // predicted: on the keys
  samples[2].keys_error = 0.5;
  samples[2].drift = 0.25;

  const client::SampleSummary summary = client::Summarize(samples);
  EXPECT_EQ(summary.own_error.count, 3U);
  EXPECT_DOUBLE_EQ(summary.own_error.mean, 2.0) << "not 1.5: the frame without a cube is not a 0";
  EXPECT_DOUBLE_EQ(summary.own_error.p99, 3.0);
  EXPECT_DOUBLE_EQ(summary.own_error.min, 1.0);
  EXPECT_EQ(summary.remote_error.count, 1U);
  EXPECT_DOUBLE_EQ(summary.remote_error.mean, 4.0);
  EXPECT_EQ(summary.press_delay_ms.count, 1U);
  EXPECT_EQ(summary.keys_error.count, 2U) << "a 0 on the keys counts; a frame without the cube does not";
  EXPECT_DOUBLE_EQ(summary.keys_error.mean, 0.25);
  EXPECT_EQ(summary.drift.count, 1U);
  EXPECT_DOUBLE_EQ(summary.remote_jumps_rate, 2.0) << "one jump in half a cube-second";
  EXPECT_DOUBLE_EQ(summary.remote_frozen_share, 0.0);

  const std::vector<std::string> header = Cells(CompareCsvHeader());
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  double sum = 0.0;
  int count = 0;
  for (const client::FrameSample& sample : samples) {
    const std::vector<std::string> cells = Cells(CompareCsvRow("full", "p+r", sample));
    ASSERT_EQ(cells.size(), header.size());
    const std::string& own = cells[column("own_error")];
    EXPECT_EQ(own.empty(), !sample.present);
    EXPECT_EQ(cells[column("drawn_x")].empty(), !sample.present);
    EXPECT_EQ(cells[column("remote_error")].empty(), !sample.remote_error.has_value());
    EXPECT_EQ(cells[column("press_delay_ms")].empty(), !sample.press_delay_ms.has_value());
    EXPECT_EQ(cells[column("keys_error")].empty(), !sample.keys_error.has_value());
    EXPECT_EQ(cells[column("drift")].empty(), !sample.drift.has_value());
    EXPECT_EQ(cells[column("own_jump")].empty(), !sample.present);
    EXPECT_EQ(cells[column("remote_jumps")].empty(), !sample.remote_jumps.has_value());
    EXPECT_EQ(cells[column("remote_jumps_per_s")].empty(), !sample.remote_jumps_per_s.has_value());
    if (!own.empty()) {
      sum += std::stod(own);
      ++count;
    }
  }
  EXPECT_DOUBLE_EQ(sum / count, summary.own_error.mean);
  EXPECT_EQ(SummaryText("full", summary).substr(0, 47), "full: own error mean 2.00 p99 3.00 min 1.00 max");
}

}  // namespace
}  // namespace netcube::apps
