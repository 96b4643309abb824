#include "files.h"

#include <fstream>
#include <sstream>

namespace netcube::apps {

bool ReadFile(const std::string& path, std::string* contents, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = "cannot open " + path;
    return false;
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) {
    *error = "cannot read " + path;
    return false;
  }
  *contents = std::move(text).str();
  return true;
}

bool WriteFile(const std::string& path, std::string_view bytes, std::string* error) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (file.fail()) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace netcube::apps
