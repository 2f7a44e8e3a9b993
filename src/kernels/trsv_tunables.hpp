// SPDX-License-Identifier: Apache-2.0
// The trsv family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/blas_rules.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/blas.hpp"

namespace portacl {

KernelTraits trsv_traits(ElementType element);
/// work-group size and groups per compute unit (flow-down), BLOCK: unknowns
/// solved per block, TPR: work-items per row of the flow-down.
const TuningSpace& trsv_tunables();

struct Planner;
/// The solve of order n (rows of L `row_stride` elements apart), planned
/// whole by the rules (plan_trsv_launches: its rules on options.plan_as
/// where given, the limits of the planner's device); n = 0 gets the plan
/// alone.
TrsvLaunches plan_trsv(const Planner& planner, ElementType element, std::size_t n, std::size_t row_stride,
                       const PlanOptions& options);

}  // namespace portacl
