// SPDX-License-Identifier: Apache-2.0
#include "util/checked.hpp"

#include <cmath>
#include <limits>

#include "portacl/error.hpp"

namespace portacl {

std::size_t checked_product(std::size_t a, std::size_t b, const std::string& what) {
  std::size_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    throw Error(what + ": " + std::to_string(a) + " x " + std::to_string(b) + " overflows the address space");
  return r;
}

std::size_t checked_sum(std::size_t a, std::size_t b, const std::string& what) {
  std::size_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    throw Error(what + ": " + std::to_string(a) + " + " + std::to_string(b) + " overflows the address space");
  return r;
}

std::optional<std::uint64_t> parse_unsigned(const std::string& text, bool hex_prefix, std::uint64_t max) {
  std::size_t i = 0;
  unsigned base = 10;
  if (hex_prefix && text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    i = 2;
  }
  if (i >= text.size()) return std::nullopt;
  std::uint64_t v = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    unsigned digit;
    if (c >= '0' && c <= '9')
      digit = unsigned(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      digit = unsigned(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      digit = unsigned(c - 'A' + 10);
    else
      return std::nullopt;
    if (__builtin_mul_overflow(v, std::uint64_t{base}, &v) || __builtin_add_overflow(v, std::uint64_t{digit}, &v))
      return std::nullopt;
  }
  if (v > max) return std::nullopt;
  return v;
}

std::uint64_t parse_unsigned_or_throw(const std::string& text, const std::string& what, std::uint64_t max) {
  if (auto v = parse_unsigned(text, false, max)) return *v;
  throw Error(what + " must be a whole number from 0 to " + std::to_string(max) + ", not '" + text + "'");
}

std::optional<std::int64_t> exact_integer(double v, std::int64_t lo, std::int64_t hi) {
  if (!std::isfinite(v) || v != std::floor(v)) return std::nullopt;
  // Compare in double: lo and hi may not be exact doubles (2^63 - 1 rounds
  // up to 2^63), so the bound is taken as the next double below 2^63.
  const double top = hi == std::numeric_limits<std::int64_t>::max() ? 9223372036854774784.0 : double(hi);
  if (v < double(lo) || v > top) return std::nullopt;
  return static_cast<std::int64_t>(v);
}

}  // namespace portacl
