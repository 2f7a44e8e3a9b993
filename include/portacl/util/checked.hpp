// SPDX-License-Identifier: Apache-2.0
/// \file
/// Size arithmetic and number parsing that refuse to wrap. Every byte count
/// the library allocates is formed here, so a size near 2^64 / sizeof(T)
/// gives an error naming the operand instead of a small buffer that
/// receives n elements. Number parsers take digits only: no sign, no
/// surrounding junk, no overflow, and leading zeros are decimal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace portacl {

/// a * b, or portacl::Error "<what>: a x b overflows the address space".
std::size_t checked_product(std::size_t a, std::size_t b, const std::string& what);
/// a + b, likewise.
std::size_t checked_sum(std::size_t a, std::size_t b, const std::string& what);

/// The bytes of n elements of T (what: "Buffer<float>", "gemm packing panel").
template <class T>
std::size_t bytes_of(std::size_t n, const char* what) {
  return checked_product(n, sizeof(T), what);
}

/// The whole of `text` as an unsigned decimal number (or hexadecimal after
/// "0x" when `hex_prefix`), nullopt on anything else: empty, a sign, spaces,
/// other characters, or a value above `max`.
std::optional<std::uint64_t> parse_unsigned(const std::string& text, bool hex_prefix = false,
                                            std::uint64_t max = UINT64_MAX);
/// Same, throwing portacl::Error "<what> must be a whole number from 0 to
/// max, not '<text>'".
std::uint64_t parse_unsigned_or_throw(const std::string& text, const std::string& what, std::uint64_t max = UINT64_MAX);

/// A double to an integer type's range: nullopt when it is NaN, infinite,
/// has a fraction, or lies outside [lo, hi] (every float-to-integer cast
/// goes through here, so none is undefined behaviour).
std::optional<std::int64_t> exact_integer(double v, std::int64_t lo, std::int64_t hi);

}  // namespace portacl
