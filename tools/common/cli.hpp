// SPDX-License-Identifier: Apache-2.0
// Command-line parsing shared by the tools: comma lists, sizes written as
// counts or 2^k, counts. Errors are std::invalid_argument naming the value
// (the tools turn them into exit status 2).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cli {

std::vector<std::string> split(const std::string& s, char separator = ',');
std::size_t parse_size(const std::string& s, const char* what);  // "1000003", "2^24"; what: "--sizes"
int non_negative(const std::string& s, const char* what);        // "--reps"
// A whole number from 1 (a grid side, a row count in a spec); the error
// names `spec` and the field.
std::size_t positive_whole(const std::string& s, const std::string& spec);
double non_negative_real(const std::string& s, const char* what);
std::string now_text();  // local time, "2026-11-22 20:00:50"
std::string now_utc();   // ISO 8601, "2026-11-22T19:00:50Z": what machine-readable outputs carry

// -h/--help prints `usage`, --version "<tool> <portacl version>"; true when
// `arg` was one of them (the tool then exits 0).
bool help_or_version(const std::string& arg, const char* tool, const char* usage);

// True when `name` is selected by `pattern`: equal, or its first word
// ("count_if" selects "count_if x>0.5").
bool selects(const std::string& pattern, const std::string& name);
// Every pattern must select one of `known`, else std::invalid_argument
// "<what>: no 'nope'; there are: a, b, ..." (a usage error, exit 2).
void check_names(const std::vector<std::string>& patterns, const std::vector<std::string>& known, const char* what);

// Walks argv: `for (cli::Arguments args(argc, argv); args.next();)`, then
// args.arg() is the option and args.value() takes the word after it
// ("--sizes needs a value" when there is none).
class Arguments {
 public:
  Arguments(int argc, char** argv) : argc_(argc), argv_(argv) {}
  bool next() {
    if (++i_ >= argc_) return false;
    arg_ = argv_[i_];
    return true;
  }
  const std::string& arg() const { return arg_; }
  std::string value();

 private:
  int argc_;
  char** argv_;
  int i_ = 0;
  std::string arg_;
};

}  // namespace cli
