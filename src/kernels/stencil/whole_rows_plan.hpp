// SPDX-License-Identifier: Apache-2.0
// The plan CPUs take for the stencil family (rule cpu.large-grain): a 1D
// launch in which a work-item streams whole rows, or chunks of them, with
// unit-stride loops. It carries the 2D plan's macros (boundary, mask, reach)
// and decisions, so that the explanation keeps every choice made before.
#pragma once

#include <string>

#include "rules/stencil_rules.hpp"
#include "../planner.hpp"

namespace portacl {

inline LaunchPlan whole_rows_plan(const Planner& planner, const LaunchPlan& plan, const std::string& name,
                                  std::size_t units, const std::string& variant) {
  KernelTraits traits = plan.traits;
  traits.dimensions = 1;
  traits.name = name;
  LaunchPlan rows = planner.plan(traits, ProblemSize(units));
  rows.macros.insert(plan.macros.begin(), plan.macros.end());  // the 1D launch's own shape wins
  rows.decisions = plan.decisions;
  decide_whole_rows(rows, variant);
  return rows;
}

}  // namespace portacl
