#include "files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace netcube::apps {

namespace {

// The system's reason for the last failed call, e.g. ": No such file or directory" (libstdc++'s file
// streams open through the C library, which sets errno); empty when it gave none.
std::string Reason() { return errno != 0 ? std::string(": ") + std::strerror(errno) : std::string(); }

}  // namespace

bool ReadFile(const std::string& path, std::string* contents, std::string* error) {
  errno = 0;
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = "cannot open " + path + Reason();
    return false;
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) {
    *error = "cannot read " + path + Reason();
    return false;
  }
  *contents = std::move(text).str();
  return true;
}

bool WriteFile(const std::string& path, std::string_view bytes, std::string* error) {
  errno = 0;
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (file.fail()) {
    *error = "cannot write " + path + Reason();
    return false;
  }
  return true;
}

}  // namespace netcube::apps
