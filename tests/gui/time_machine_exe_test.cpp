// The lab's time machine through netcube-client as a child process: a frame reached by scrubbing (back, or
// back and then forward) is drawn exactly as when the run passed it, and a fork of a comparison is its
// original until the fork's frame and takes its own settings from there, with the same hands and network
// luck as the original throughout.
#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gui/client_exe.h"
#include "netcube/gui/lab.h"

namespace netcube::gui {
namespace {

constexpr int kMachineWidth = 960;
constexpr int kMachineHeight = 540;

struct Picture {
  int width = 0;
  int height = 0;
  std::vector<unsigned char> rgb;
};

Picture Load(const std::filesystem::path& path) {
  Picture picture;
  int channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &picture.width, &picture.height, &channels, 3);
  if (pixels == nullptr) return picture;
  picture.rgb.assign(pixels, pixels + static_cast<std::size_t>(picture.width) *
                                          static_cast<std::size_t>(picture.height) * 3);
  stbi_image_free(pixels);
  return picture;
}

// Pixels that differ, outside the titles and the server's panel: those show where the run is paused (the
// notice, which may spill over the players' titles, and the time controls); the arenas, the players' panels
// and their plots show the frame itself.
int DifferingPixels(const Picture& a, const Picture& b) {
  const LabLayout layout = LabLayout::For(ImVec2(kMachineWidth, kMachineHeight), 2);
  const auto inside = [](const Rect& r, int x, int y) {
    return static_cast<float>(x) >= r.x && static_cast<float>(x) < r.x + r.w &&
           static_cast<float>(y) >= r.y && static_cast<float>(y) < r.y + r.h;
  };
  int differing = 0;
  for (int y = 0; y < kMachineHeight; ++y) {
    for (int x = 0; x < kMachineWidth; ++x) {
      if (inside(layout.title[layout.server_column], x, y) ||
          inside(layout.panel[layout.server_column], x, y))
        continue;
      const std::size_t at = (static_cast<std::size_t>(y) * kMachineWidth + static_cast<std::size_t>(x)) * 3;
      if (a.rgb[at] != b.rgb[at] || a.rgb[at + 1] != b.rgb[at + 1] || a.rgb[at + 2] != b.rgb[at + 2])
        ++differing;
    }
  }
  return differing;
}

Picture Screenshot(const std::string& args, const std::string& name, std::string* output = nullptr) {
  const std::filesystem::path path = ClientTemp(name + ".png");
  const testing::CommandResult run =
      RunClient("--lab --journal --profile lossy --script random --script2 circle --width " +
                std::to_string(kMachineWidth) + " --height " + std::to_string(kMachineHeight) + " " + args +
                " --screenshot " + path.string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  if (output != nullptr) *output = run.output;
  Picture picture = Load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(picture.width, kMachineWidth) << name;
  EXPECT_EQ(picture.height, kMachineHeight) << name;
  return picture;
}

TEST(TimeMachine, AFrameReachedByScrubbingIsDrawnAsWhenTheRunPassedIt) {
  // Frame 600 as the run passes it (the last of 601 frames), and frame 590 for contrast.
  const Picture passed = Screenshot("--frames 601", "passed");
  const Picture earlier = Screenshot("--frames 591", "earlier");
  // 900 frames, then back to 800 and back again to 600: each a fresh lab run from the start.
  std::string output;
  const Picture back = Screenshot("--frames 900 --seek 800,600", "back", &output);
  EXPECT_NE(output.find("sought frame 600 from frame 800"), std::string::npos) << output;
  // Back to 200, then forward to 600: the lab shown runs on.
  const Picture forth = Screenshot("--frames 900 --seek 200,600", "forth", &output);
  EXPECT_NE(output.find("sought frame 600 from frame 200 in"), std::string::npos) << output;
  EXPECT_NE(output.find("(400 frames run)"), std::string::npos) << "forward runs on: " << output;
  ASSERT_FALSE(passed.rgb.empty());
  ASSERT_EQ(back.rgb.size(), passed.rgb.size());
  ASSERT_EQ(forth.rgb.size(), passed.rgb.size());
  EXPECT_GT(DifferingPixels(passed, earlier), 100) << "ten frames apart, the pictures differ";
  EXPECT_EQ(DifferingPixels(back, passed), 0);
  EXPECT_EQ(DifferingPixels(forth, passed), 0);
}

// The CSV's rows by (entry, frame), each without its frame, time, entry and techniques.
using Rows = std::map<std::pair<std::string, int>, std::vector<std::string>>;

Rows ReadCsv(const std::filesystem::path& path, std::vector<std::string>* header) {
  Rows rows;
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  std::stringstream head(line);
  header->clear();
  for (std::string cell; std::getline(head, cell, ',');) header->push_back(cell);
  while (std::getline(file, line)) {
    std::vector<std::string> cells;
    std::stringstream stream(line);
    for (std::string cell; std::getline(stream, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    if (cells.size() < 4) continue;
    rows[{cells[2], std::stoi(cells[0])}] = std::vector<std::string>(cells.begin() + 4, cells.end());
  }
  return rows;
}

constexpr int kForkFrames = 600;
constexpr int kForkAt = 300;
const std::string kComparison =
    "--lab --compare naive,full --profile lossy --script R:700,-:900,D:500,-:900,L:900,-:900,U:500,-:900 "
    "--frames " +
    std::to_string(kForkFrames);

Rows RunComparison(const std::string& extra, const std::string& name, std::vector<std::string>* header) {
  const std::filesystem::path csv = ClientTemp(name + ".csv");
  const testing::CommandResult run = RunClient(kComparison + " " + extra + " --csv " + csv.string() +
                                               " --screenshot " + ClientTemp(name + ".png").string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  Rows rows = ReadCsv(csv, header);
  std::filesystem::remove(csv);
  std::filesystem::remove(ClientTemp(name + ".png"));
  return rows;
}

TEST(TimeMachine, AForkIsItsOriginalUntilItsFrameThenTakesItsOwnSettings) {
  std::vector<std::string> header;
  const Rows plain = RunComparison("", "plain", &header);
  const Rows forked =
      RunComparison("--fork-at " + std::to_string(kForkAt) + " --fork-with predicted", "fork", &header);
  const Rows delayed =
      RunComparison("--fork-at " + std::to_string(kForkAt) + " --fork-delay-ms 250", "delay", &header);
  const Rows slower =
      RunComparison("--fork-at " + std::to_string(kForkAt) + " --fork-snapshot-rate server", "rate", &header);
  ASSERT_EQ(plain.size(), 2U * kForkFrames);
  ASSERT_EQ(forked.size(), 4U * kForkFrames);
  ASSERT_EQ(delayed.size(), 4U * kForkFrames);
  ASSERT_EQ(slower.size(), 4U * kForkFrames);
  // What is measured over the other cubes changes with the fork, which has twice as many: the bytes of each
  // snapshot, and the remote cubes' errors, jumps and freezes (a comparison's cubes part on the server, as
  // each entry's snapshot rate paces its inputs). The own cube's columns are compared.
  std::vector<std::size_t> counts_cubes;
  std::size_t bytes_down = 0;
  for (std::size_t column = 4; column < header.size(); ++column) {
    if (header[column] == "bytes_down") bytes_down = column - 4;
    if (header[column] == "bytes_down" || header[column].starts_with("remote_"))
      counts_cubes.push_back(column - 4);
  }
  ASSERT_EQ(counts_cubes.size(), 7U);
  const auto without_cube_counts = [&](std::vector<std::string> row) {
    for (const std::size_t column : counts_cubes) row[column].clear();
    return row;
  };
  const auto without_bytes_down = [&](std::vector<std::string> row) {
    row[bytes_down].clear();
    return row;
  };
  for (const Rows* fork : {&forked, &delayed, &slower}) {
    for (const std::string entry : {"naive", "full"}) {
      int differing_after = 0;
      for (int frame = 0; frame < kForkFrames; ++frame) {
        const std::vector<std::string>& original = fork->at({entry, frame});
        const std::vector<std::string>& copy = fork->at({"fork-" + entry, frame});
        if (frame < kForkAt) {
          // Bytes down aside: the copy joined after its original, and was told of the players already there
          // in one PlayerJoined where its original heard of them one by one: a few bytes fewer, never more.
          ASSERT_EQ(without_bytes_down(copy), without_bytes_down(original))
              << entry << " frame " << frame << ": the same hands and luck before the fork";
          if (frame + 1 == kForkAt) {
            EXPECT_GE(std::stoll(original[bytes_down]), std::stoll(copy[bytes_down])) << entry;
          }
        } else if (without_bytes_down(copy) != without_bytes_down(original)) {
          ++differing_after;
        }
        // The original is the original run's, fork or not.
        ASSERT_EQ(without_cube_counts(original), without_cube_counts(plain.at({entry, frame})))
            << entry << " frame " << frame;
      }
      if (fork == &slower && entry == "naive") {
        // Without interpolation it asks for the server's rate already: the fork changes nothing.
        EXPECT_EQ(differing_after, 0) << entry;
      } else {
        EXPECT_GT(differing_after, kForkFrames / 10) << entry;
      }
    }
  }
}

TEST(TimeMachine, AForkOutsideAComparisonOrWithNothingToChangeIsAOneLineError) {
  for (const std::string args :
       {"--lab --fork-at 10 --fork-with naive --frames 5",
        "--lab --compare naive,full --fork-at 10 --frames 5",
        "--lab --compare naive,full --fork-at 10 --fork-with nonsense --frames 5",
        "--lab --compare naive,full --fork-at 10 --fork-profile nowhere --frames 5"}) {
    const testing::CommandResult run = RunClient(args);
    EXPECT_EQ(run.exit_code, 2) << args << ": " << run.output;
    EXPECT_NE(run.output.find("netcube-client: "), std::string::npos) << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
  }
}

}  // namespace
}  // namespace netcube::gui
