#pragma once
// A netcube-bot child process: the scale scenario's players run there, so that their CPU time never
// lands in the server's tick measurements. Output goes to a log file; the JSON report is read back.
#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace netcube::bench {

class BotProcess {
 public:
  // Starts `bot_path` with `args` (plus --report). nullopt with `error` set if it cannot be started.
  static std::optional<BotProcess> Spawn(const std::string& bot_path, std::vector<std::string> args,
                                         const std::string& work_prefix, std::string* error);
  BotProcess(BotProcess&& other) noexcept;
  BotProcess& operator=(BotProcess&&) = delete;
  BotProcess(const BotProcess&) = delete;
  BotProcess& operator=(const BotProcess&) = delete;
  // Kills the child if it still runs, reaps it, and removes its files.
  ~BotProcess();

  // True once the child has exited (non-blocking).
  bool Exited();
  // Ends a child that overran its time (SIGKILL) and reaps it.
  void Kill();
  // After Exited(): whether it exited with status 0.
  bool Succeeded() const { return exit_status_ == 0; }
  int exit_status() const { return exit_status_; }

  // The report the bot wrote; nullopt with `error` set if there is none or it does not parse.
  std::optional<nlohmann::json> ReadReport(std::string* error) const;
  // The last lines of the child's output, for error messages.
  std::string LogTail(std::size_t max_lines) const;

 private:
  BotProcess(pid_t pid, std::string report_path, std::string log_path)
      : pid_(pid), report_path_(std::move(report_path)), log_path_(std::move(log_path)) {}

  pid_t pid_ = -1;  // -1 once reaped
  int exit_status_ = -1;
  std::string report_path_;
  std::string log_path_;
};

}  // namespace netcube::bench
