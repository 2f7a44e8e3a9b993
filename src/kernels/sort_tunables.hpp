// SPDX-License-Identifier: Apache-2.0
// The sort family's declarations for the runtime, the tuner and the tests:
// its kernels' traits (what the rules see) and tuning space (what the tuner
// may change). Tuner plumbing, not user API: never installed.
#pragma once

#include "portacl/vectors.hpp"
#include "portacl/plan.hpp"
#include "rules/sort_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// A radix sort's passes: keys alone ("radix_sort") or with values
/// ("radix_sort_pairs"), which moves twice the bytes and needs twice the
/// tile's local memory, so each is tuned on its own.
KernelTraits sort_traits(std::size_t key_bytes, std::size_t value_bytes);
/// work-group size, groups per compute unit (the chunks on CPUs),
/// RADIX_BITS (bits a pass sorts; unset, rules sort.work-item-chunks and
/// sort.work-group-tiles decide) and ITEMS (a tile's keys per work-item).
const TuningSpace& sort_tunables();

struct Planner;
/// The sort `problem` describes, planned whole by the rules
/// (plan_radix_sort); fewer than 2 keys get the plan alone, no shape.
SortLaunches plan_sort(const Planner& planner, const SortProblem& problem);

}  // namespace portacl
