// SPDX-License-Identifier: Apache-2.0
// The histogram family's declarations for the runtime, the tuner and the
// tests: its kernel's traits (what the rules see) and tuning space (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <cstddef>

#include "planner.hpp"
#include "portacl/vectors.hpp"
#include "portacl/plan.hpp"
#include "rules/histogram_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

KernelTraits histogram_traits();
/// work-group size and groups per compute unit (the atomic variants' grid,
/// the row variant's rows).
const TuningSpace& histogram_tunables();

/// A histogram call's launches (HistogramLaunches: src/rules/histogram_rules.hpp),
/// planned whole by the rules (plan_histogram_launches).
HistogramLaunches plan_histogram(const Planner& planner, std::size_t keys, std::size_t bins,
                                 const HistogramOptions& options);

}  // namespace portacl
