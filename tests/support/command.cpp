#include "support/command.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace netcube::testing {

std::filesystem::path UniqueTempPath(const std::string& stem, const std::string& extension) {
  static std::atomic<int> next_file{0};
  return std::filesystem::temp_directory_path() /
         (stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(next_file++) + extension);
}

CommandResult RunCommand(const std::string& command) {
  const std::filesystem::path out = UniqueTempPath("netcube-command", ".txt");
  const int status = std::system((command + " > '" + out.string() + "' 2>&1").c_str());
  CommandResult result;
  result.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream file(out);
  result.output.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  std::filesystem::remove(out);
  return result;
}

std::string ShortUsageErrorProblem(const std::string& output, const std::string& program) {
  const std::string hint = "Run '" + program + " --help' for the options.\n";
  const std::size_t first_end = output.find('\n');
  if (output.rfind(program + ": ", 0) != 0 || first_end == std::string::npos ||
      output.substr(first_end + 1) != hint) {
    return "not '" + program + ": <what>' and '" + hint + "': " + output;
  }
  return {};
}

}  // namespace netcube::testing
