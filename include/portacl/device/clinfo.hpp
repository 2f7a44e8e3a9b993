// SPDX-License-Identifier: Apache-2.0
/// \file
/// Device descriptions from the text clinfo prints, in its default
/// (human-readable) form and in --raw form.
#pragma once

#include <string>
#include <vector>

#include "portacl/device/device_info.hpp"

namespace portacl {

/// Every device found in `text`, in order. Throws portacl::Error if the text
/// holds no device at all. Lines starting with '#' (but not clinfo's own
/// "#PLATFORMS"/"#DEVICES" raw markers) are comments, so fixtures can carry
/// their provenance. `origin` is recorded in DeviceInfo::source.
std::vector<DeviceInfo> parse_clinfo(const std::string& text, const std::string& origin = "clinfo");

/// Reads and parses a file; errors name the file.
std::vector<DeviceInfo> parse_clinfo_file(const std::string& path);

}  // namespace portacl
