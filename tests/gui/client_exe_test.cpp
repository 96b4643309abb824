// The netcube-client executable, run headless (SDL's offscreen driver) as a child process: screenshots of
// the lab and of a connected client are real PNGs, a scripted lab run is reproducible, a run that never
// connects fails, bad flags print the usage and exit non-zero.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
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

// The file is a PNG of the window's size with the window's background in its corner.
void ExpectScreenshot(const std::filesystem::path& path, int width, int height) {
  int decoded_width = 0;
  int decoded_height = 0;
  int channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &decoded_width, &decoded_height, &channels, 3);
  ASSERT_NE(pixels, nullptr) << path << " is not a PNG: " << stbi_failure_reason();
  const Rgb top_left{pixels[0], pixels[1], pixels[2]};
  stbi_image_free(pixels);
  EXPECT_EQ(decoded_width, width);
  EXPECT_EQ(decoded_height, height);
  EXPECT_EQ(top_left, kBackground);
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
  ExpectScreenshot(first, 640, 360);
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
  ExpectScreenshot(path, 480, 270);
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

// Without a display (or with the offscreen driver) and no --frames, a window nobody sees would be drawn until
// killed: the client says so and how to render headless instead, and stops.
TEST(ClientExecutable, NoDisplayAndNoFramesSaysHowToRenderHeadless) {
  for (const std::string& environment :
       {std::string("env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "), kHeadless}) {
    for (const char* args : {"--lab", "--connect 127.0.0.1:9"}) {
      const testing::CommandResult run =
          testing::RunCommand(environment + "timeout 20 " + NETCUBE_CLIENT_EXE + " " + args);
      EXPECT_EQ(run.exit_code, 1) << environment << args << ": " << run.output;
      EXPECT_NE(run.output.find("--frames N --screenshot FILE.png"), std::string::npos) << run.output;
    }
  }
}

// A replay says how far it is in the lab's title, and when its recording is over, says so.
TEST(ClientExecutable, AReplaySaysWhenItEnded) {
  const std::filesystem::path session = TempPng("session").replace_extension(".json");
  const std::filesystem::path shot = TempPng("replay");
  const testing::CommandResult record =
      RunClient("--lab --compare naive,full --script R:200 --frames 30 --record " + session.string());
  ASSERT_EQ(record.exit_code, 0) << record.output;
  const testing::CommandResult replay =
      RunClient("--lab --replay " + session.string() + " --frames 40 --screenshot " + shot.string());
  EXPECT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_NE(replay.output.find("the replay of " + session.string() + " ended after 30 frames"),
            std::string::npos)
      << replay.output;
  std::filesystem::remove(session);
  std::filesystem::remove(shot);
}

TEST(ClientExecutable, BadFlagsPrintTheUsageAndExitNonZero) {
  for (const char* args : {"--bogus", "--width 10", "--screenshot x.png", "--connect nohost",
                           "--connect 127.0.0.1:99999", "--lab --connect 127.0.0.1:7777", "--script Q:100",
                           "--preset fast", "--frames 0", "--lab --compare naive,full --profile moon", "--frames 1e300",
                           "--name ''", "--name 0123456789abcdef", "--name 'tab\there'", "--latency-ms nan",
                           "--loss inf", "--find-seconds nan"}) {
    const testing::CommandResult run = RunClient(args);
    EXPECT_NE(run.exit_code, 0) << args;
    EXPECT_FALSE(run.output.empty()) << args;
  }
}

}  // namespace
}  // namespace netcube::gui
