// SPDX-License-Identifier: Apache-2.0
/// \file
/// The rule book of ../shared/docs/mapping-rules.md (seed 000, chapter 1) as
/// data: every rule the planner applies has an id, the class it belongs to,
/// the book's section and its statement. Decisions cite these ids.
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
/// Throws portacl::Error for an id not in the book (catches typos in planners).
const Rule& rule(const std::string& id);

}  // namespace portacl
