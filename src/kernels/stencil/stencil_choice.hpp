// SPDX-License-Identifier: Apache-2.0
// One way for the stencil family to settle a count of a launch (cells or
// outputs per work-item, steps per launch): the caller's value first, then
// a tuning record's, then the rule's, each recorded in the plan with where
// it came from, so that portacl-query and plan.explain() show why.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>

#include "portacl/rules/launch_plan.hpp"
#include "portacl/rules/stencil_rules.hpp"
#include "portacl/rules/tuning_space.hpp"

namespace portacl {

/// The count `decision` of `plan`: the caller's, else the tuned value of
/// `knob`, else the rule's, else `otherwise` (no rule applies: nothing is
/// recorded, as for a variant that has no such count).
inline std::size_t caller_tuned_or_rule(LaunchPlan& plan, const std::string& decision,
                                        const std::optional<std::size_t>& caller, const TuningSpace& tunables,
                                        const std::string& knob, const std::optional<RuleCount>& rule,
                                        std::size_t otherwise = 1) {
  if (caller) {
    plan.decide(decision, std::to_string(*caller), "caller.choice", "asked for by the caller");
    return *caller;
  }
  if (const std::optional<long> tuned = tunables.chosen(plan, knob)) {
    const std::size_t value = static_cast<std::size_t>(std::max<long>(1, *tuned));
    plan.decide(decision, std::to_string(value), "tuning.override", plan.provenance);
    return value;
  }
  if (rule) {
    plan.decide(decision, std::to_string(rule->value), rule->rule, rule->why);
    return rule->value;
  }
  return otherwise;
}

}  // namespace portacl
