// SPDX-License-Identifier: Apache-2.0
// What portacl-query prints about one device: its description, class and
// the plans for a few representative kernel shapes.
#pragma once

#include <string>
#include <vector>

#include "portacl/portacl.hpp"
#include "tooling.hpp"

namespace portacl_query {

std::string text_report(const portacl::DeviceInfo& d, const std::string& heading, bool explain,
                        const portacl::DeviceLimits* live_limits = nullptr);
portacl::Json json_report(const portacl::DeviceInfo& d, const portacl::DeviceLimits* live_limits = nullptr);

// The quirk book: every known driver or library bug portacl works around.
std::string quirk_book_report();
// The quirks that apply to one device, by id.
std::string quirks_report(const portacl::DeviceInfo& d, const std::string& heading);

}  // namespace portacl_query
