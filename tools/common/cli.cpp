// SPDX-License-Identifier: Apache-2.0
#include "cli.hpp"

#include <limits>
#include <cctype>
#include <climits>
#include <cmath>
#include <ctime>
#include <iostream>
#include <new>
#include <sstream>
#include <stdexcept>

#include "util/checked.hpp"
#include "tuning/operations.hpp"
#include "portacl/version.hpp"

namespace cli {

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, separator))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::size_t parse_size(const std::string& s, const char* what) {
  // Digits only (portacl::parse_unsigned): no sign, no junk, no overflow.
  if (s.rfind("2^", 0) == 0) {
    if (auto k = portacl::parse_unsigned(s.substr(2), false, 62)) return std::size_t{1} << *k;
  } else if (auto v = portacl::parse_unsigned(s); v && *v > 0) {
    return static_cast<std::size_t>(*v);
  }
  throw std::invalid_argument(std::string(what) + ": '" + s + "' is not a size (a count from 1 or 2^k, k <= 62)");
}

int non_negative(const std::string& s, const char* what) {
  if (auto v = portacl::parse_unsigned(s, false, INT_MAX)) return static_cast<int>(*v);
  throw std::invalid_argument(std::string(what) + " must be a whole number from 0 to " + std::to_string(INT_MAX) +
                              ", not '" + s + "'");
}

unsigned long long seed(const std::string& s, const char* what) {
  if (auto v = portacl::parse_unsigned(s, false, std::numeric_limits<unsigned long long>::max())) return *v;
  throw std::invalid_argument(std::string(what) + " must be a whole number from 0 to 2^64 - 1, not '" + s + "'");
}

std::size_t positive_whole(const std::string& s, const std::string& spec) {
  if (auto v = portacl::parse_unsigned(s, false, std::numeric_limits<std::size_t>::max()); v && *v > 0)
    return static_cast<std::size_t>(*v);
  throw std::invalid_argument(spec + ": '" + s + "' is not a positive whole number");
}

double non_negative_real(const std::string& s, const char* what) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    // stod also reads "nan", "inf" and leading spaces: none is a number here.
    if (used == s.size() && !s.empty() && !std::isspace(static_cast<unsigned char>(s[0])) && std::isfinite(v) && v >= 0)
      return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument(std::string(what) + " must be a finite number from 0, not '" + s + "'");
}

std::string now_text() {
  std::time_t t = std::time(nullptr);
  char b[64];
  std::strftime(b, sizeof b, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  return b;
}

std::string now_utc() {
  std::time_t t = std::time(nullptr);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return b;
}

bool help_or_version(const Arguments& args, const char* tool, const char* usage) {
  const std::string& arg = args.arg();
  if (arg == "-h" || arg == "--help" || arg == "--version") args.no_value();
  if (arg == "-h" || arg == "--help") {
    std::cout << usage;
    return true;
  }
  if (arg == "--version") {
    std::cout << tool << " " << PORTACL_VERSION_STRING << "\n";
    return true;
  }
  return false;
}

bool selects(const std::string& pattern, const std::string& name) {
  return name == pattern || name.rfind(pattern + " ", 0) == 0;
}

void check_names(const std::vector<std::string>& patterns, const std::vector<std::string>& known, const char* what) {
  for (const auto& p : patterns) {
    bool found = false;
    for (const auto& k : known) found = found || selects(p, k);
    if (found) continue;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    throw std::invalid_argument(std::string(what) + ": no '" + p + "'; there are: " + list);
  }
}

void Arguments::no_value() const {
  if (has_inline_value_) throw std::invalid_argument(arg_ + " takes no value (given '" + inline_value_ + "')");
}

bool Arguments::next() {
  no_value();
  if (++i_ >= argc_) return false;
  arg_ = argv_[i_];
  const std::size_t equals = arg_.find('=');
  if (arg_.rfind("--", 0) == 0 && equals != std::string::npos) {
    inline_value_ = arg_.substr(equals + 1);
    arg_.resize(equals);
    has_inline_value_ = true;
  }
  return true;
}

std::string Arguments::value() {
  if (has_inline_value_) {
    has_inline_value_ = false;
    if (inline_value_.empty()) throw std::invalid_argument(arg_ + " needs a value");
    return inline_value_;
  }
  if (i_ + 1 >= argc_) throw std::invalid_argument(arg_ + " needs a value");
  return argv_[++i_];
}

std::string skip_reason(const std::exception& e) {
  const std::string what = e.what();
  if (dynamic_cast<const portacl::CaseOutOfRange*>(&e)) return "skipped: " + what;
  for (const char* limit : {"CL_DEVICE_MAX_MEM_ALLOC_SIZE", "CL_MEM_OBJECT_ALLOCATION_FAILURE", "CL_OUT_OF_RESOURCES",
                            "CL_OUT_OF_HOST_MEMORY", "CL_INVALID_BUFFER_SIZE", "std::bad_alloc"})
    if (what.find(limit) != std::string::npos) return "skipped: does not fit the device: " + what;
  if (dynamic_cast<const std::bad_alloc*>(&e)) return "skipped: out of host memory";
  return "";
}

}  // namespace cli
