// SPDX-License-Identifier: Apache-2.0
/// \file
/// Known bugs of drivers and of other libraries that portacl works around,
/// as data with ids, like the rule book: the code cites the id at each
/// workaround, `portacl-query --quirks` lists them with the devices they
/// apply to, and docs/design.md explains them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "portacl/device.hpp"

namespace portacl {

struct Quirk {
  const char* id;          ///< "pocl.barrier-loop-in-branch"
  const char* applies_to;  ///< in words: "PoCL (any device)", "CLBlast 1.5.3 on any device"
  const char* symptom;     ///< what goes wrong without the workaround
  const char* workaround;  ///< what portacl does instead, and where
  std::function<bool(const DeviceInfo&)> applies;
};

const std::vector<Quirk>& quirk_book();
/// Throws portacl::Error for an id not in the quirk book.
const Quirk& quirk(const std::string& id);
/// The quirks that apply to `device`.
std::vector<const Quirk*> quirks_of(const DeviceInfo& device);

}  // namespace portacl
