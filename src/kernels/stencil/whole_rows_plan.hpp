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
  whole_rows_launch(rows, plan, variant);
  return rows;
}

}  // namespace portacl
