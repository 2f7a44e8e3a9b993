// Command-line parsing shared by the tools: comma lists, sizes written as
// counts or 2^k, counts. Errors are std::invalid_argument naming the value
// (the tools turn them into exit status 2).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cli {

std::vector<std::string> split(const std::string& s, char separator = ',');
std::size_t parse_size(const std::string& s);              // "1000003", "2^24"
int non_negative(const std::string& s, const char* what);  // "--reps"
double non_negative_real(const std::string& s, const char* what);
std::string now_text();  // local time, "2026-11-22 20:00:50"

}  // namespace cli
