// SPDX-License-Identifier: Apache-2.0
// The KNN family's declarations for the runtime, the tuner and the tests:
// its kernels' traits, its tuning space and the plans of one search. Tuner
// plumbing, not user API: never installed.
#pragma once

#include <cstddef>

#include "kernels/planner.hpp"
#include "portacl/ml.hpp"
#include "portacl/plan.hpp"
#include "rules/ml_knn_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The selection: a work-item (list) or a work-group (select) per query.
KernelTraits knn_traits(ElementType element = ElementType::f32);
/// work-group size and METHOD (list or select; unset, rule knn.method).
const TuningSpace& knn_tunables();

/// The plans of a search: the selection's, and helpers of one work-item an
/// item (norms, votes) with the same macros, so one program holds them.
struct KnnLaunch {
  KnnShape shape;
  LaunchPlan select;
  LaunchPlan helper(std::size_t items) const;
};
KnnLaunch plan_knn(const Planner& planner, std::size_t queries, std::size_t train, std::size_t d, std::size_t k,
                   Similarity similarity, ElementType element = ElementType::f32);

}  // namespace portacl
