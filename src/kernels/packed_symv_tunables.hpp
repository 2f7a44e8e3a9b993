// SPDX-License-Identifier: Apache-2.0
// The packed_symv family's declarations for the runtime, the tuner and the
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

KernelTraits packed_symv_traits(ElementType element);
/// work-group size, groups per compute unit, BLOCK: the side of the square
/// blocks staged in local memory.
const TuningSpace& packed_symv_tunables();

struct Planner;
/// The product of order n, planned whole by the rules
/// (plan_packed_symv_launches); n = 0 gets the plan alone.
PackedSymvLaunches plan_packed_symv(const Planner& planner, ElementType element, std::size_t n);

}  // namespace portacl
