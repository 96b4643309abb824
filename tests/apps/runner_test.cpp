// The client executable's frame loop, run in process: a headless lab run on the virtual clock that ends in
// a PNG file.
#include "runner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace netcube::apps {
namespace {

TEST(RunLab, WritesAScreenshotHeadless) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("netcube_gui_test_" + std::to_string(::getpid()) + ".png");
  LabRunOptions options;
  options.run.app.headless = true;
  options.run.app.width = 960;
  options.run.app.height = 540;
  options.run.frames = 30;
  options.run.screenshot = path.string();
  std::string error;
  options.scripts[0] = client::InputScript::Parse("circle", &error);
  ASSERT_EQ(RunLab(options), 0);
  std::ifstream file(path, std::ios::binary);
  char signature[8] = {};
  file.read(signature, sizeof signature);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  file.close();
  EXPECT_GT(std::filesystem::file_size(path), 1000U);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace netcube::apps
