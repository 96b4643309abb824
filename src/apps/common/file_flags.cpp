#include "file_flags.h"

#include <iostream>

#include "files.h"

namespace netcube::apps {

std::optional<std::vector<timeline::LinkChange>> ReadLinkScriptFlag(const std::string& program,
                                                                    const std::string& value,
                                                                    std::string* text) {
  std::string error;
  *text = value;
  if (text->starts_with('@') && !ReadFile(text->substr(1), text, &error)) {
    std::cerr << program << ": --link-script: " << error << '\n';
    return std::nullopt;
  }
  std::optional<std::vector<timeline::LinkChange>> changes = timeline::ParseLinkScript(*text, &error);
  if (!changes) std::cerr << program << ": bad --link-script: " << error << '\n';
  return changes;
}

std::optional<Session> ReadSessionFlag(const std::string& program, const std::string& path) {
  std::string error;
  std::string text;
  std::optional<Session> read;
  if (ReadFile(path, &text, &error)) read = ParseSession(text, &error);
  if (!read) std::cerr << program << ": --replay " << path << ": " << error << '\n';
  return read;
}

}  // namespace netcube::apps
