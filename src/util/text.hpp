// SPDX-License-Identifier: Apache-2.0
// Small text helpers the parsers and selectors share (ASCII only: device
// names, clinfo labels, file keywords).
#pragma once

#include <cctype>
#include <string>

namespace portacl::text {

inline std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// `s` without leading and trailing blanks (spaces, tabs, carriage returns).
inline std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace portacl::text
