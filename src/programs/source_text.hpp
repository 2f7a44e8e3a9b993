// SPDX-License-Identifier: Apache-2.0
// What the program caches do with a kernel source's text: hash it (part of
// the binary cache's key) and map a compiler log's expanded lines back to
// the .cl files they came from. Internal to the programs layer (and its
// tests).
#pragma once

#include <cstdint>
#include <string>

#include "portacl/programs.hpp"

namespace portacl {

/// The 64-bit FNV-1a hash of `data`.
std::uint64_t fnv1a64(const std::string& data);

/// Rewrites "<kernel>:N" / "<source>:N" references to expanded lines in a
/// compiler log into "file.cl:line".
std::string map_log_lines(const std::string& log, const KernelSource& source);

}  // namespace portacl
