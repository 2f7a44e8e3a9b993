// SPDX-License-Identifier: Apache-2.0
// The scan family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/scan_rules.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/vectors.hpp"

namespace portacl {

/// The family's declaration: what the rules see for a scan of `element`s
/// whose running sums are `sum_bytes` wide.
KernelTraits scan_traits(const std::string& kernel, ElementType element, std::size_t sum_bytes);
/// What the tuner may change in the scans and compaction; SCAN_BYTES and
/// SCAN_KEEP shape the single-pass (look-back) variant only.
const TuningSpace& scan_tunables();

struct Planner;
/// The scan `kernel` ("prefix_sum", "compact") of n elements of `element`
/// (`element_bytes` each), sums `sum_bytes` wide, planned whole by the
/// rules (plan_scan_launch); n = 0 gets the plan alone.
ScanLaunch plan_scan(const Planner& planner, const std::string& kernel, ElementType element, std::size_t element_bytes,
                     std::size_t n, std::size_t sum_bytes);

}  // namespace portacl
