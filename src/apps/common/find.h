#pragma once
// --find for netcube-bot and netcube-client: ask the LAN for servers for a couple of seconds, print each
// one heard, and exit.
#include <string>

#include "cli_forward.h"
#include "netcube/discovery/browser.h"

namespace netcube::apps {

class FindFlags {
 public:
  // Adds --find, --discovery-port and --discovery-address; returns the --find option.
  CLI::Option* Register(CLI::App& app);
  bool requested() const noexcept { return find_; }
  // The port and addresses the flags chose, for a browser of the program's own.
  const discovery::BrowserConfig& browser() const noexcept { return browser_; }
  // Runs the search on the steady clock. Exit code: 0 if a server answered, 1 if none did, 2 on an error.
  int Run(const std::string& program) const;

 private:
  bool find_ = false;
  discovery::BrowserConfig browser_;
  double seconds_ = 2.0;
};

}  // namespace netcube::apps
