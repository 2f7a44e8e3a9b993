// SPDX-License-Identifier: Apache-2.0
// clinfo --json output (clinfo 3.0.21 and later) as the --raw text the
// clinfo parser reads: the same CL_* names with their values written the
// way --raw writes them, so one parser serves all three forms.
#pragma once

#include <string>

namespace portacl {

// Throws portacl::Error naming `origin` when `text` is not clinfo's JSON.
std::string clinfo_json_as_raw(const std::string& text, const std::string& origin);

}  // namespace portacl
