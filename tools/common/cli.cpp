#include "cli.hpp"

#include <ctime>
#include <sstream>
#include <stdexcept>

namespace cli {

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, separator))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::size_t parse_size(const std::string& s) {
  try {
    std::size_t used = 0;
    if (s.rfind("2^", 0) == 0) {
      unsigned long k = std::stoul(s.substr(2), &used);
      if (used + 2 == s.size() && k < 40) return std::size_t{1} << k;
    } else {
      unsigned long long v = std::stoull(s, &used);
      if (used == s.size() && v > 0) return static_cast<std::size_t>(v);
    }
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("'" + s + "' is not a size (a positive count or 2^k)");
}

namespace {

// The whole of `s` read by `read` (std::stoi, std::stod), at least 0.
template <class T, class Read>
T non_negative_as(const std::string& s, const char* what, const char* kind, Read read) {
  try {
    std::size_t used = 0;
    T v = read(s, &used);
    if (used == s.size() && v >= 0) return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument(std::string(what) + " must be a non-negative " + kind + ", not '" + s + "'");
}

}  // namespace

int non_negative(const std::string& s, const char* what) {
  return non_negative_as<int>(s, what, "integer", [](const std::string& t, std::size_t* u) { return std::stoi(t, u); });
}

double non_negative_real(const std::string& s, const char* what) {
  return non_negative_as<double>(s, what, "number",
                                 [](const std::string& t, std::size_t* u) { return std::stod(t, u); });
}

std::string now_text() {
  std::time_t t = std::time(nullptr);
  char b[64];
  std::strftime(b, sizeof b, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  return b;
}

std::string Arguments::value() {
  if (i_ + 1 >= argc_) throw std::invalid_argument(arg_ + " needs a value");
  return argv_[++i_];
}

}  // namespace cli
