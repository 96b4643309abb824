#pragma once
// CLI11's types as the flag headers name them: CLI/CLI.hpp costs some 13 s of compile in each file that
// includes it, so only the files that define or parse flags do.
namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI
