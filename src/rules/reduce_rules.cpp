// SPDX-License-Identifier: Apache-2.0
// A reduction's later passes (src/rules/reduce_rules.hpp).
#include "rules/reduce_rules.hpp"

namespace portacl {

std::size_t reduce_partials(const LaunchPlan& plan) {
  const bool per_item = plan.barrier_free_variant || !plan.use_local_memory;
  return per_item ? plan.global[0] : plan.work_groups;
}

LaunchPlan reduce_combine_plan(const LaunchPlan& first) {
  LaunchPlan second = first;
  const bool per_item = first.barrier_free_variant || !first.use_local_memory;
  const std::size_t threads = per_item ? 1 : first.work_group_size();
  second.local = {{threads, 1, 1}};
  second.global = {{threads, 1, 1}};
  second.work_groups = 1;
  return second;
}

LaunchPlan single_work_item(const LaunchPlan& like) {
  LaunchPlan p = like;
  p.local = {{1, 1, 1}};
  p.global = {{1, 1, 1}};
  p.work_groups = 1;
  return p;
}

}  // namespace portacl
