#pragma once
// Whole-file reads and writes for the executables (the libraries do no I/O: they parse text and encode
// bytes, and the programs move those to and from disk).
#include <string>
#include <string_view>

namespace netcube::apps {

// False with `error` set when the file cannot be read.
bool ReadFile(const std::string& path, std::string* contents, std::string* error);
// Replaces the file's contents with `bytes`. False with `error` set when it cannot be written.
bool WriteFile(const std::string& path, std::string_view bytes, std::string* error);

}  // namespace netcube::apps
