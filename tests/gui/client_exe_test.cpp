// The netcube-client executable, run headless (SDL's offscreen driver) as a child process: screenshots of
// the lab and of a connected client are real PNGs, a scripted lab run is reproducible, a run that never
// connects fails, bad flags print what is wrong and exit non-zero, and the lab runs with the defaults of
// netcube-server and netcube-client (its server's statistics file says so).
#include "gui/client_exe.h"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "netcube/gui/lab.h"
#include "netcube/gui/theme.h"
#include "support/server_thread.h"

namespace netcube::gui {
namespace {

std::filesystem::path TempPng(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("netcube-client-test-" + std::to_string(::getpid()) + "-" + name + ".png");
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
  const testing::CommandResult run = RunClient(
      "--connect 127.0.0.1:" + std::to_string(server.port()) +
      " --name carol --script R:300 --latency-ms 30 --frames 60 --width 480 --height 270 --screenshot " +
      path.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ExpectScreenshot(path, 480, 270);
  std::filesystem::remove(path);
}

// --spectate: a connection without a cube, its camera free (--spectate) or following a player (even one not
// there yet): connected at the end, its picture a PNG.
TEST(ClientExecutable, ASpectatorConnectsAndItsScreenshotIsAPng) {
  testing::ServerThread server;
  ASSERT_NE(server.port(), 0) << server.error();
  for (const char* spectate : {"--spectate", "--spectate 3"}) {
    const std::filesystem::path path = TempPng("spectator");
    const testing::CommandResult run =
        RunClient("--connect 127.0.0.1:" + std::to_string(server.port()) + " " + spectate +
                  " --script R:300 --frames 60 --width 480 --height 270 --screenshot " + path.string());
    ASSERT_EQ(run.exit_code, 0) << spectate << ": " << run.output;
    ExpectScreenshot(path, 480, 270);
    std::filesystem::remove(path);
  }
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

TEST(ClientExecutable, BadFlagsPrintTheErrorAndHowToGetHelp) {
  for (const char* args :
       {"--bogus", "--width 10", "--screenshot x.png", "--connect 127.0.0.1:7777 --name ''",
        "--lab --connect 127.0.0.1:7777", "--preset fast", "--frames 0",
        "--lab --compare naive,full --profile moon", "--frames 1e300", "--name 0123456789abcdef",
        "--name 'tab\there'", "--latency-ms nan", "--loss inf", "--find-seconds nan", "--seed -1",
        "--lab --transport tcp", "--transport udp",
        // --crowd out of range, not a number, without the lab, or beside a comparison.
        "--lab --crowd 0", "--lab --crowd 201", "--lab --crowd x", "--crowd 5",
        "--lab --crowd 5 --compare naive,full",
        // a snapshot budget under the least a client may ask, or for the lab's players.
        "--snapshot-budget 127", "--lab --snapshot-budget 600",
        // a spectator follows a player id, and is no lab player.
        "--spectate x", "--spectate 256", "--spectate -1", "--lab --spectate", "--spectate 3 --lab"}) {
    const testing::CommandResult run = RunClient(args);
    EXPECT_NE(run.exit_code, 0) << args;
    EXPECT_EQ(testing::ShortUsageErrorProblem(run.output, "netcube-client"), "") << args;
  }
  // Checked after parsing, in one line of their own.
  for (const char* args :
       {"--connect nohost", "--connect 127.0.0.1:99999", "--connect :7777", "--script Q:100"}) {
    const testing::CommandResult run = RunClient(args);
    EXPECT_NE(run.exit_code, 0) << args;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << args << ": " << run.output;
  }
  EXPECT_NE(RunClient("--connect :7777").output.find("the host is empty"), std::string::npos);
  // The name is quoted whole, however long.
  EXPECT_NE(RunClient("--name 0123456789abcdefghij").output.find("'0123456789abcdefghij' has 20 characters"),
            std::string::npos);
}

nlohmann::json ReadJson(const std::filesystem::path& path) {
  std::ifstream file(path);
  nlohmann::json json = nlohmann::json::parse(file, nullptr, /*allow_exceptions=*/false);
  std::filesystem::remove(path);
  return json;
}

// What the lab's server did, from --lab --stats-json.
nlohmann::json LabStats(const std::string& args) {
  const std::filesystem::path path = TempPng("lab-stats").replace_extension(".json");
  const testing::CommandResult run =
      RunClient("--lab --frames 120 --script R:500 " + args + " --stats-json " + path.string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("wrote " + path.string()), std::string::npos) << run.output;
  return ReadJson(path);
}

// The lab is the real thing: its server starts with netcube-server's settings and its first player with
// netcube-client's (the second has the techniques off, and both the lab's added latency).
TEST(ClientExecutable, TheLabStartsWithTheDefaultsOfTheServerAndTheClient) {
  const std::filesystem::path server_stats = TempPng("server-stats").replace_extension(".json");
  const testing::CommandResult server =
      testing::RunCommand(std::string(NETCUBE_SERVER_EXE) +
                          " --port 0 --duration 0.2 --discovery off --stats-json " + server_stats.string());
  ASSERT_EQ(server.exit_code, 0) << server.output;
  const nlohmann::json lab = LabStats("");
  ASSERT_TRUE(lab.is_object());
  EXPECT_EQ(lab["settings"], ReadJson(server_stats)["settings"]);
  EXPECT_EQ(lab["settings"]["snapshot_encoding"], "delta");
  EXPECT_GT(lab.value("delta_snapshots_sent", 0), 0) << "the lab sends deltas by default";
  EXPECT_GT(lab.value("inputs_processed", 0), 0);

  const LabConfig config = DefaultLabConfig();
  const client::ClientConfig client_defaults;
  ASSERT_EQ(config.players.size(), 2u);
  EXPECT_EQ(config.players[0].client.settings, client_defaults.settings);
  client::Settings naive = client_defaults.settings;
  naive.prediction = naive.reconciliation = naive.interpolation = naive.smoothing = false;
  naive.extrapolation = naive.adaptive_delay = false;
  EXPECT_EQ(config.players[1].client.settings, naive);
  for (const LabPlayer& player : config.players) {
    transport::LinkSettings link = client_defaults.link;
    link.latency_ms = kLabDefaultLatencyMs;
    EXPECT_EQ(player.client.link, link);
    EXPECT_EQ(player.client.input_rate, client_defaults.input_rate);
    EXPECT_EQ(player.client.timeout_ms, client_defaults.timeout_ms);
  }
}

TEST(ClientExecutable, EveryFileWrittenIsNamed) {
  const std::filesystem::path session = TempPng("named").replace_extension(".json");
  const std::filesystem::path csv = TempPng("named").replace_extension(".csv");
  const testing::CommandResult run =
      RunClient("--lab --compare naive,full --script R:300 --frames 30 --record " + session.string() +
                " --csv " + csv.string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("wrote " + session.string() + " (session, 30 frames)"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("wrote " + csv.string() + " (CSV, 30 frames)"), std::string::npos) << run.output;
  // A bad session file is named with the field that is wrong, in one line.
  { std::ofstream(session) << "{\"netcube_session\": \"five\"}"; }
  const testing::CommandResult replay = RunClient("--lab --replay " + session.string());
  EXPECT_NE(replay.exit_code, 0);
  EXPECT_EQ(replay.output, "netcube-client: --replay " + session.string() +
                               ": field 'netcube_session': type must be number, but is string\n");
  std::filesystem::remove(session);
  std::filesystem::remove(csv);
}

TEST(ClientExecutable, TheLabsSnapshotEncodingIsTheOneAskedFor) {
  const nlohmann::json full = LabStats("--snapshot-encoding full");
  EXPECT_EQ(full["settings"]["snapshot_encoding"], "full");
  EXPECT_EQ(full.value("delta_snapshots_sent", -1), 0);
  // --switch-encoding-frame switches at that frame, and not before.
  const nlohmann::json switched = LabStats("--snapshot-encoding full --switch-encoding-frame 100");
  EXPECT_EQ(switched["settings"]["snapshot_encoding"], "delta");
  EXPECT_GT(switched.value("delta_snapshots_sent", 0), 0);
  EXPECT_LT(switched.value("delta_snapshots_sent", 0), switched.value("snapshots_sent", 0));
}

// --crowd: the wanderers join the lab's server, in the crowd's arena (unless --arena gives another) with
// interest management on at the crowd's radius, and the server sends InterestSnapshots.
TEST(ClientExecutable, TheCrowdLabsServerHasTheCrowdAndItsArena) {
  const nlohmann::json crowd = LabStats("--crowd 20");
  ASSERT_TRUE(crowd.is_object());
  EXPECT_EQ(crowd["settings"]["arena"], "256x144");
  EXPECT_EQ(crowd["settings"]["interest"], true) << "netcube-server's default is off";
  EXPECT_EQ(crowd["settings"]["interest_radius"], kCrowdInterestRadiusUnits);
  EXPECT_EQ(crowd.value("clients_peak", 0), 22);
  EXPECT_GT(crowd.value("interest_snapshots_sent", 0), 0);
  EXPECT_EQ(LabStats("--crowd 20 --arena 128x72")["settings"]["arena"], "128x72");
}

}  // namespace
}  // namespace netcube::gui
