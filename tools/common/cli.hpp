// SPDX-License-Identifier: Apache-2.0
// Command-line parsing shared by the tools: comma lists, sizes written as
// counts or 2^k, counts. Errors are std::invalid_argument naming the value
// (the tools turn them into exit status 2).
#pragma once

#include <cstddef>
#include <exception>
#include <string>
#include <vector>

namespace cli {

std::vector<std::string> split(const std::string& s, char separator = ',');
std::size_t parse_size(const std::string& s, const char* what);   // "1000003", "2^24"; what: "--sizes"
int non_negative(const std::string& s, const char* what);         // "--reps"
unsigned long long seed(const std::string& s, const char* what);  // "--seed": 0 to 2^64 - 1
// A whole number from 1 (a grid side, a row count in a spec); the error
// names `spec` and the field.
std::size_t positive_whole(const std::string& s, const std::string& spec);
double non_negative_real(const std::string& s, const char* what);
std::string now_text();  // local time, "2026-11-22 20:00:50"
std::string now_utc();   // ISO 8601, "2026-11-22T19:00:50Z": what machine-readable outputs carry

// True when `name` is selected by `pattern`: equal, or its first word
// ("count_if" selects "count_if x>0.5").
bool selects(const std::string& pattern, const std::string& name);
// Every pattern must select one of `known`, else std::invalid_argument
// "<what>: no 'nope'; there are: a, b, ..." (a usage error, exit 2).
void check_names(const std::vector<std::string>& patterns, const std::vector<std::string>& known, const char* what);

// Walks argv: `for (cli::Arguments args(argc, argv); args.next();)`, then
// args.arg() is the option and args.value() takes its value: the word after
// it, or what follows '=' in "--reps=5" (as getopt and CLI11 allow). Errors:
// "--sizes needs a value" when there is none, "--json takes no value" for
// "--json=1" (an inline value the option did not take).
class Arguments {
 public:
  Arguments(int argc, char** argv) : argc_(argc), argv_(argv) {}
  bool next();
  const std::string& arg() const { return arg_; }
  std::string value();
  /// Refuses an inline value ("--json=1") on an option that takes none.
  void no_value() const;

 private:
  int argc_;
  char** argv_;
  int i_ = 0;
  std::string arg_;
  std::string inline_value_;
  bool has_inline_value_ = false;
};

// -h/--help prints `usage`, --version "<tool> <portacl version>"; true when
// the current argument was one of them (the tool then exits 0).
// "--version=1" is refused (std::invalid_argument).
bool help_or_version(const Arguments& args, const char* tool, const char* usage);

// The forms of a device selector (README, "Choosing a device"), for each
// tool's --help under its --device line.
#define PORTACL_CLI_DEVICE_SELECTORS                                                        \
  "                     SEL: an index (2), platform:device (1:0), a type with a position\n" \
  "                     (gpu:1), or conditions joined by commas that must all hold: cpu,\n" \
  "                     gpu, accelerator, fp64, fp16, name=S, platform=S, vendor=S\n"       \
  "                     (case-insensitive substrings), ext=EXTENSION, or a bare word\n"     \
  "                     matched against the device, platform and vendor names\n"            \
  "                     (e.g. H100, pocl, gpu,name=H100, cpu,fp64)\n"

/// "skipped: does not fit the device: ..." when `e` says a buffer or
/// launch is past the device's limits (allocation size, memory,
/// resources, host memory), else "": the bench and the tuner report such a
/// case as skipped and go on.
std::string skip_reason(const std::exception& e);

}  // namespace cli
