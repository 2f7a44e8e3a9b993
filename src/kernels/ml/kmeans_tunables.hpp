// SPDX-License-Identifier: Apache-2.0
// The k-means family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see), its tuning space (what
// the tuner may change) and the plans of one run. Tuner plumbing, not user
// API: never installed.
#pragma once

#include <cstddef>

#include "kernels/planner.hpp"
#include "portacl/ml.hpp"
#include "portacl/plan.hpp"
#include "rules/ml_kmeans_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The assignment: a point a work-item against every centroid, barriers
/// around the chunk's labels in local memory.
KernelTraits kmeans_traits(ElementType element = ElementType::f32);
/// work-group size, local memory (the centroids'), POINTS (a work-item's),
/// BLOCK (centroids compared at a time), and COLUMNS (the layout; unset,
/// rule kmeans.layout) and ATOMIC (unset, rule kmeans.combine).
const TuningSpace& kmeans_tunables();

/// The plans of a k-means run on n points of d coordinates (of `element`)
/// and k clusters.
/// The helpers (update, relayout, seeding) share the assignment's macros,
/// so one program holds every kernel; `helper(items)` is a plan of one
/// work-item per item.
struct KmeansLaunch {
  KmeansShape shape;
  LaunchPlan assign;
  LaunchPlan helper(std::size_t items) const;
};
KmeansLaunch plan_kmeans(const Planner& planner, std::size_t n, std::size_t d, std::size_t k,
                         ElementType element = ElementType::f32);

}  // namespace portacl
