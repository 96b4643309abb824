#pragma once
// The sockets this process holds, counted from /proc/self/fd: how a test shows it opened none.
#include <dirent.h>
#include <unistd.h>

#include <array>
#include <string>

namespace netcube::test {

// -1 when /proc/self/fd cannot be read.
inline int OpenSockets() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return -1;
  int sockets = 0;
  while (const dirent* entry = readdir(dir)) {
    std::array<char, 256> target{};
    const std::string path = std::string("/proc/self/fd/") + entry->d_name;
    const ssize_t length = readlink(path.c_str(), target.data(), target.size() - 1);
    if (length > 0 && std::string(target.data(), static_cast<std::size_t>(length)).rfind("socket:", 0) == 0) {
      ++sockets;
    }
  }
  closedir(dir);
  return sockets;
}

}  // namespace netcube::test
