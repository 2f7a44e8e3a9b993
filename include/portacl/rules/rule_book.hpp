// SPDX-License-Identifier: Apache-2.0
/// \file
/// The rule book (docs/mapping-rules.md) as data: every rule the planner
/// applies has an id, the class it belongs to, the section of its source and
/// its statement. Decisions cite these ids.
#pragma once

#include <string>
#include <vector>

namespace portacl {

struct Rule {
  const char* id;
  const char* device_class;  ///< "cpu", "nvidia_gpu", ..., or "all"
  const char* section;       ///< "1.5.1", ...
  const char* statement;
};

const std::vector<Rule>& rule_book();
/// Throws portacl::Error for an id not in the rule book (catches typos in planners).
const Rule& rule(const std::string& id);

}  // namespace portacl
