// SPDX-License-Identifier: Apache-2.0
/// \file
/// Number parsing that refuses to wrap (the size arithmetic is public:
/// portacl/error.hpp). Number parsers take digits only: no sign, no
/// surrounding junk, no overflow, and leading zeros are decimal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "portacl/error.hpp"

namespace portacl {

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
