// The netcube-server executable, run as a child process: clean exits, the stats file, a short error on bad
// flags.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/command.h"

namespace {

using std::chrono::steady_clock;
constexpr std::chrono::seconds kProcessDeadline{60};  // generous: a loaded machine, ASan

// A child process with stdout and stderr captured together through one pipe.
class Child {
 public:
  explicit Child(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], STDOUT_FILENO);
      dup2(fds[1], STDERR_FILENO);
      close(fds[0]);
      close(fds[1]);
      std::vector<char*> argv;
      for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[1]);
    out_fd_ = fds[0];
  }
  ~Child() {
    if (pid_ > 0 && !status_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (out_fd_ >= 0) close(out_fd_);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool started() const { return pid_ > 0; }
  const std::string& output() const { return output_; }
  void Signal(int signal) const { kill(pid_, signal); }

  // Reads output until it contains `text` at or after `from` or the deadline passes; where it starts.
  std::optional<std::size_t> WaitForOutput(const std::string& text, std::size_t from = 0) {
    const auto deadline = steady_clock::now() + kProcessDeadline;
    while (output_.find(text, from) == std::string::npos) {
      if (steady_clock::now() >= deadline || !ReadSome(100)) return std::nullopt;
    }
    return output_.find(text, from);
  }

  // The exit code, or nothing if it did not exit normally before the deadline.
  std::optional<int> Wait() {
    const auto deadline = steady_clock::now() + kProcessDeadline;
    while (!status_ && steady_clock::now() < deadline) {
      ReadSome(20);
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
    }
    while (ReadSome(0)) {
    }
    if (!status_ || !WIFEXITED(*status_)) return std::nullopt;
    return WEXITSTATUS(*status_);
  }

 private:
  // Appends what the pipe has within `timeout_ms`; false at end of output.
  bool ReadSome(int timeout_ms) {
    pollfd fd{out_fd_, POLLIN, 0};
    if (poll(&fd, 1, timeout_ms) <= 0) return timeout_ms > 0;  // nothing yet: keep waiting
    char buffer[4096];
    const ssize_t n = read(out_fd_, buffer, sizeof buffer);
    if (n <= 0) return false;
    output_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string output_;
  std::optional<int> status_;
};

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("netcube_server_test_" + std::to_string(getpid()) + "_" + name))
      .string();
}

void ExpectStatsFile(const std::string& path) {
  std::ifstream file(path);
  ASSERT_TRUE(file.good()) << path;
  const nlohmann::json stats = nlohmann::json::parse(file, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(stats.is_object()) << "not valid JSON: " << path;
  for (const char* key :
       {"ticks", "tick_us_p50", "tick_us_p99", "tick_us_max", "clients_peak", "inputs_processed",
        "inputs_duplicate", "inputs_dropped_rate_limit", "packets_malformed", "bytes_sent", "bytes_received",
        "tags_judged", "tags_hit", "tags_refused", "tags_capped"}) {
    EXPECT_TRUE(stats.contains(key) && stats[key].is_number()) << key;
  }
  EXPECT_GT(stats.value("ticks", 0), 0);
  EXPECT_TRUE(stats.contains("settings") && stats["settings"].is_object()) << "what the server ran with";
  std::filesystem::remove(path);
}

TEST(NetcubeServerExe, RunsForTheDurationAndWritesStats) {
  const std::string stats = TempPath("duration.json");
  Child child({NETCUBE_SERVER_EXE, "--port", "0", "--duration", "1", "--stats-json", stats});
  ASSERT_TRUE(child.started());
  EXPECT_EQ(child.Wait(), 0) << child.output();
  EXPECT_NE(child.output().find("listening"), std::string::npos) << child.output();
  ExpectStatsFile(stats);
}

TEST(NetcubeServerExe, StopsCleanlyOnSigint) {
  const std::string stats = TempPath("sigint.json");
  Child child({NETCUBE_SERVER_EXE, "--port", "0", "--tick-rate", "30", "--collisions", "off",
               "--lag-compensation", "off", "--max-rewind-ms", "250", "--snapshot-encoding", "full",
               "--stats-json", stats});
  ASSERT_TRUE(child.started());
  ASSERT_TRUE(child.WaitForOutput("listening")) << child.output();
  EXPECT_NE(child.output().find("lag compensation off up to 250 ms, full snapshots"), std::string::npos)
      << child.output();
  // Until the server has ticked (the stats file must show some ticks): ask for its stats line (SIGUSR1)
  // until it counts one.
  std::uint64_t ticks = 0;
  const auto deadline = steady_clock::now() + kProcessDeadline;
  while (ticks == 0) {
    ASSERT_LT(steady_clock::now(), deadline) << "no tick yet: " << child.output();
    const std::size_t asked_at = child.output().size();
    child.Signal(SIGUSR1);
    const std::optional<std::size_t> line = child.WaitForOutput("stats {", asked_at);
    ASSERT_TRUE(line && child.WaitForOutput("\n", *line)) << child.output();
    const std::size_t json = *line + std::string("stats ").size();
    ticks = nlohmann::json::parse(child.output().substr(json, child.output().find('\n', json) - json))
                .value("ticks", std::uint64_t{0});
  }
  // The request writes the file too, just after the line: once it is there, removed, so that only the stop
  // writes it again.
  while (!std::filesystem::exists(stats)) {
    ASSERT_LT(steady_clock::now(), deadline) << "no stats file: " << child.output();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(std::filesystem::remove(stats));
  child.Signal(SIGINT);
  EXPECT_EQ(child.Wait(), 0) << child.output();
  ExpectStatsFile(stats);
}

TEST(NetcubeServerExe, BadFlagPrintsTheErrorAndHowToGetHelp) {
  Child child({NETCUBE_SERVER_EXE, "--no-such-flag"});
  ASSERT_TRUE(child.started());
  const std::optional<int> code = child.Wait();
  ASSERT_TRUE(code.has_value());
  EXPECT_NE(*code, 0);
  EXPECT_EQ(netcube::testing::ShortUsageErrorProblem(child.output(), "netcube-server"), "");
  EXPECT_NE(child.output().find("--no-such-flag"), std::string::npos) << child.output();
}

// The settings a server run briefly with `flags` writes to its stats file; its start line must say
// `start_line_part`.
nlohmann::json SettingsOfAShortRun(const std::vector<std::string>& flags,
                                   const std::string& start_line_part) {
  const std::string stats = TempPath("short-run.json");
  std::vector<std::string> command = {
      NETCUBE_SERVER_EXE, "--port", "0", "--duration", "0.2", "--discovery", "off", "--stats-json", stats};
  command.insert(command.end(), flags.begin(), flags.end());
  Child child(command);
  EXPECT_TRUE(child.started());
  EXPECT_EQ(child.Wait(), 0) << child.output();
  EXPECT_NE(child.output().find(start_line_part), std::string::npos) << child.output();
  std::ifstream file(stats);
  const nlohmann::json written = nlohmann::json::parse(file, nullptr, /*allow_exceptions=*/false);
  std::filesystem::remove(stats);
  return written.contains("settings") ? written["settings"] : nlohmann::json{};
}

// The server sends at most one snapshot a tick: it never advertises more (start line, discovery).
TEST(NetcubeServerExe, SnapshotsFasterThanTicksAreRefusedAndTheDefaultFollowsTheTickRate) {
  Child refused({NETCUBE_SERVER_EXE, "--port", "0", "--snapshot-rate", "120", "--tick-rate", "30"});
  ASSERT_TRUE(refused.started());
  const std::optional<int> code = refused.Wait();
  ASSERT_TRUE(code.has_value());
  EXPECT_NE(*code, 0);
  EXPECT_EQ(netcube::testing::ShortUsageErrorProblem(refused.output(), "netcube-server"), "");
  EXPECT_NE(refused.output().find("120 is more than --tick-rate 30"), std::string::npos) << refused.output();

  EXPECT_EQ(SettingsOfAShortRun({"--tick-rate", "10"}, "tick 10 Hz, snapshots 10 Hz")["snapshot_rate"], 10);
}

// A port out of range says so in the flag's terms, not as a failed conversion.
TEST(NetcubeServerExe, APortOutOfRangeSaysWhatIsWrong) {
  for (const std::string port : {"99999", "65536", "http"}) {
    Child child({NETCUBE_SERVER_EXE, "--port", port});
    ASSERT_TRUE(child.started());
    const std::optional<int> code = child.Wait();
    ASSERT_TRUE(code.has_value());
    EXPECT_NE(*code, 0);
    EXPECT_EQ(netcube::testing::ShortUsageErrorProblem(child.output(), "netcube-server"), "");
    EXPECT_NE(child.output().find("--port: " + port + " is not in 0..65535"), std::string::npos)
        << child.output();
  }
}

// The arena is whole units, 32 to 4096 a side: anything else says so in one line; a good one is run and
// said on the start line.
TEST(NetcubeServerExe, TheArenaFlagTakesWxHInUnits) {
  for (const std::string arena :
       {"31x36", "64x4097", "64", "64x", "x36", "64x36x2", "-64x36", "64.5x36", "WxH"}) {
    Child child({NETCUBE_SERVER_EXE, "--arena", arena});
    ASSERT_TRUE(child.started());
    const std::optional<int> code = child.Wait();
    ASSERT_TRUE(code.has_value());
    EXPECT_NE(*code, 0) << arena;
    EXPECT_EQ(netcube::testing::ShortUsageErrorProblem(child.output(), "netcube-server"), "") << arena;
    EXPECT_NE(child.output().find("--arena: " + arena + " is not WxH with whole units in [32, 4096]"),
              std::string::npos)
        << child.output();
  }
  EXPECT_EQ(SettingsOfAShortRun({"--arena", "1024x576"}, "arena 1024x576")["arena"], "1024x576");
}

TEST(NetcubeServerExe, TheInterestFlagsSetTheRadiusAndTheBudget) {
  const nlohmann::json settings = SettingsOfAShortRun(
      {"--interest", "on", "--interest-radius", "40", "--snapshot-budget", "600"},
      "interest management: cubes within 40 units of a player's, snapshots of them within 600 bytes");
  EXPECT_EQ(settings["interest"], true);
  EXPECT_EQ(settings["interest_radius"], 40);
  EXPECT_EQ(settings["snapshot_budget"], 600);
  EXPECT_EQ(SettingsOfAShortRun({}, "listening on")["interest"], false);  // off unless asked for
}

TEST(NetcubeServerExe, OutOfRangeValueFails) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--tick-rate", "0"},
                                               {"--max-rewind-ms", "1001"},
                                               {"--lag-compensation", "maybe"},
                                               {"--snapshot-encoding", "zip"},
                                               {"--interest", "maybe"},
                                               {"--interest-radius", "15"},
                                               {"--snapshot-budget", "127"},
                                               {"--snapshot-budget", "4097"},
                                               {"--duration", "nan"},
                                               {"--duration", "inf"},
                                               {"--duration", "1e300"},
                                               {"--duration", "0"},
                                               {"--loss", "nan"},
                                               {"--reorder", "-nan"},
                                               {"--latency-ms", "inf"},
                                               {"--jitter-ms", "1e308"},
                                               {"--stats-json", "/dev/null", "--stats-interval", "nan"},
                                               {"--seed", "-1"}}) {
    std::vector<std::string> command = {NETCUBE_SERVER_EXE};
    command.insert(command.end(), args.begin(), args.end());
    Child child(command);
    ASSERT_TRUE(child.started());
    const std::optional<int> code = child.Wait();
    ASSERT_TRUE(code.has_value());
    EXPECT_NE(*code, 0) << args[0];
    EXPECT_EQ(netcube::testing::ShortUsageErrorProblem(child.output(), "netcube-server"), "") << args[0];
  }
}

}  // namespace
