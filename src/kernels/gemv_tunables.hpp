// SPDX-License-Identifier: Apache-2.0
// The gemv family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/gemv_rules.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/blas.hpp"

namespace portacl {

/// The traits of the path's kernel (GemvPath: src/rules/gemv_rules.hpp).
KernelTraits gemv_traits(ElementType element, GemvPath path);
/// work-group size, vector width (rows path: along a row; columns path: rows
/// of y per work-item), groups per compute unit
/// (columns path: how many chunks), TEAM: work-items per row (rows path;
/// the rules take the sub-group width on GPUs, 1 on CPUs).
const TuningSpace& gemv_tunables();

struct Planner;
/// The m x n product by `path`, planned whole by the rules
/// (plan_gemv_launches) on options.plan_as where given, else the planner's
/// device; m = 0 gets the product's plan alone.
GemvLaunches plan_gemv(const Planner& planner, ElementType element, GemvPath path, std::size_t m, std::size_t n,
                       const PlanOptions& options);

}  // namespace portacl
