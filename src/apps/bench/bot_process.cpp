#include "bot_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <utility>

extern char** environ;

namespace netcube::bench {
namespace {

constexpr int kBotNice = 10;  // of at most 19: a ninth of the server's weight in the scheduler

}  // namespace

std::optional<BotProcess> BotProcess::Spawn(const std::string& bot_path, std::vector<std::string> args,
                                            const std::string& work_prefix, std::string* error) {
  const std::string report_path = work_prefix + ".report.json";
  const std::string log_path = work_prefix + ".log";
  std::filesystem::remove(report_path);
  args.insert(args.begin(), bot_path);
  args.push_back("--report");
  args.push_back(report_path);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  const int result = posix_spawn(&pid, bot_path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (result != 0) {
    *error = "cannot start " + bot_path + ": " + std::strerror(result);
    return std::nullopt;
  }
  // The bots stand in for the players' own machines: on the cores they share with the server they yield
  // to it, so that the server runs as on a machine of its own (no tick skipped for want of a core, no
  // handshake timed out while it waited) and the bots' own lateness shows in their figures (round trips,
  // the server's dry ticks). Failing to lower it only leaves the bots at the bench's priority.
  setpriority(PRIO_PROCESS, static_cast<id_t>(pid), kBotNice);
  return BotProcess(pid, report_path, log_path);
}

BotProcess::BotProcess(BotProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      exit_status_(other.exit_status_),
      report_path_(std::move(other.report_path_)),
      log_path_(std::move(other.log_path_)) {}

BotProcess::~BotProcess() {
  if (pid_ > 0) Kill();
  if (!report_path_.empty()) std::filesystem::remove(report_path_);
  if (!log_path_.empty()) std::filesystem::remove(log_path_);
}

bool BotProcess::Exited() {
  if (pid_ <= 0) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  pid_ = -1;
  return true;
}

void BotProcess::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  exit_status_ = 128 + SIGKILL;
  pid_ = -1;
}

std::optional<nlohmann::json> BotProcess::ReadReport(std::string* error) const {
  std::ifstream file(report_path_);
  if (!file) {
    *error = "netcube-bot wrote no report";
    return std::nullopt;
  }
  try {
    return nlohmann::json::parse(file);
  } catch (const nlohmann::json::exception& e) {
    *error = std::string("netcube-bot's report does not parse: ") + e.what();
    return std::nullopt;
  }
}

std::string BotProcess::LogTail(std::size_t max_lines) const {
  std::ifstream file(log_path_);
  std::deque<std::string> lines;
  for (std::string line; std::getline(file, line);) {
    lines.push_back(line);
    if (lines.size() > max_lines) lines.pop_front();
  }
  std::string tail;
  for (const std::string& line : lines) tail += line + "\n";
  return tail;
}

}  // namespace netcube::bench
