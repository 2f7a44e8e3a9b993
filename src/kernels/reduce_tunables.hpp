// SPDX-License-Identifier: Apache-2.0
// The reduce family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <optional>
#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/vectors.hpp"

namespace portacl {

/// The family's declaration: what the rules see for a reduction that reads
/// `inputs` arrays and accumulates `state_bytes` per partial result.
KernelTraits reduce_traits(const std::string& kernel, ElementType element, unsigned inputs, std::size_t state_bytes,
                           bool vectorizable, double flops_per_item);
/// What the tuner may change in every reduction.
const TuningSpace& reduce_tunables();

struct Planner;
/// A reduction's launches: the reduce kernel and, where its plan takes two
/// passes, the combine of the work-groups' partials (reduce_combine_plan).
struct ReduceLaunches {
  LaunchPlan reduce;
  std::optional<LaunchPlan> combine;
};
/// sum's launches over n elements, from the same traits sum() plans with.
ReduceLaunches plan_sum(const Planner& planner, ElementType element, std::size_t n);

}  // namespace portacl
