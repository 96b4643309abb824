// The netcube-client executable, run headless (SDL's offscreen driver) as a child process: screenshots of
// the lab and of a connected client are real PNGs, a scripted lab run is reproducible, a run that never
// connects fails, bad flags print the usage and exit non-zero.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include <stb_image.h>

#include "netcube/gui/theme.h"
#include "support/command.h"
#include "support/server_thread.h"

namespace netcube::gui {
namespace {

const std::string kHeadless = "SDL_VIDEODRIVER=offscreen ";

std::filesystem::path TempPng(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("netcube-client-test-" + std::to_string(::getpid()) + "-" + name + ".png");
}

testing::CommandResult RunClient(const std::string& args) {
  return testing::RunCommand(kHeadless + NETCUBE_CLIENT_EXE + " " + args);
}

std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

struct Png {
  int width = 0;
  int height = 0;
  Rgb top_left{};
};

// Decodes the file as a PNG; nullopt if it is none.
std::optional<Png> DecodePng(const std::filesystem::path& path) {
  int width = 0;
  int height = 0;
  int channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &width, &height, &channels, 3);
  if (pixels == nullptr) return std::nullopt;
  Png png{width, height, Rgb{pixels[0], pixels[1], pixels[2]}};
  stbi_image_free(pixels);
  return png;
}

TEST(ClientExecutable, ScriptedLabScreenshotIsAPngAndTheSameOnEveryRun) {
  const std::string args =
      "--lab --preset full --latency-ms 60 --script circle --script2 R:500,U:500 --frames 90 --width 640 "
      "--height 360 --screenshot ";
  const std::filesystem::path first = TempPng("lab-1");
  const std::filesystem::path second = TempPng("lab-2");
  for (const std::filesystem::path& path : {first, second}) {
    const testing::CommandResult run = RunClient(args + path.string());
    ASSERT_EQ(run.exit_code, 0) << run.output;
  }
  const std::optional<Png> png = DecodePng(first);
  ASSERT_TRUE(png.has_value());
  EXPECT_EQ(png->width, 640);
  EXPECT_EQ(png->height, 360);
  EXPECT_EQ(png->top_left, kBackground);
  EXPECT_EQ(ReadBytes(first), ReadBytes(second)) << "a scripted lab run on the virtual clock is reproducible";
  std::filesystem::remove(first);
  std::filesystem::remove(second);
}

TEST(ClientExecutable, ConnectedClientScreenshotIsAPng) {
  testing::ServerThread server;
  ASSERT_NE(server.port(), 0) << server.error();
  const std::filesystem::path path = TempPng("client");
  const testing::CommandResult run =
      RunClient("--connect 127.0.0.1:" + std::to_string(server.port()) +
                " --name carol --script R:300 --latency-ms 30 --frames 60 --width 480 --height 270 --screenshot " +
                path.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::optional<Png> png = DecodePng(path);
  ASSERT_TRUE(png.has_value());
  EXPECT_EQ(png->width, 480);
  EXPECT_EQ(png->height, 270);
  EXPECT_EQ(png->top_left, kBackground);
  std::filesystem::remove(path);
}

TEST(ClientExecutable, NoConnectionByTheLastFrameIsAFailure) {
  // Nobody listens on the port: the bounded run that was meant to show a connection says so.
  const testing::CommandResult run =
      RunClient("--connect 127.0.0.1:9 --frames 10 --screenshot " + TempPng("unconnected").string());
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.output.find("not connected"), std::string::npos) << run.output;
  std::filesystem::remove(TempPng("unconnected"));
}

TEST(ClientExecutable, BadFlagsPrintTheUsageAndExitNonZero) {
  for (const char* args : {"--bogus", "--width 10", "--screenshot x.png", "--connect nohost",
                           "--connect 127.0.0.1:99999", "--lab --connect 127.0.0.1:7777", "--script Q:100",
                           "--preset fast", "--frames 0"}) {
    const testing::CommandResult run = RunClient(args);
    EXPECT_NE(run.exit_code, 0) << args;
    EXPECT_FALSE(run.output.empty()) << args;
  }
}

}  // namespace
}  // namespace netcube::gui
