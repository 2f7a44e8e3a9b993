// SPDX-License-Identifier: Apache-2.0
// Where a family's planning runs: on a live context (its device, its tuned
// plans, the compiled kernel's work-group limit) or offline on a device
// description (portacl-query --explain --from-clinfo: the rules and tuning
// records, the limit unknown). A family's plan function takes a Planner, so
// the call and the explanation of a device that is not attached make the
// same decisions by the same code.
#pragma once

#include <cstddef>
#include <functional>

#include "portacl/context.hpp"

namespace portacl {

struct Planner {
  const DeviceInfo& device;
  /// The plan of one kernel for `size`: Context::plan live, make_plan offline.
  std::function<LaunchPlan(const KernelTraits&, const ProblemSize&)> plan;
  /// The compiled kernel's CL_KERNEL_WORK_GROUP_SIZE for `plan`; 0: unknown.
  std::function<std::size_t(const KernelRef&, const LaunchPlan&)> compiled_limit;
};

/// For the span of one call: it refers to `options` (the call's), so that a
/// call copies no options and allocates nothing to plan.
inline Planner live_planner(Context& ctx, const PlanOptions& options) {
  return {ctx.info(), [&ctx, &options](const KernelTraits& t, const ProblemSize& s) { return ctx.plan(t, s, options); },
          [&ctx](const KernelRef& ref, const LaunchPlan& p) { return ctx.compiled_work_group_limit(ref, p); }};
}

/// The device a plan's shapes are sized for: another class's (`options.plan_as`,
/// its local memory never beyond what `live`, the device it runs on, has),
/// else `live`.
inline DeviceInfo sizing_device(const DeviceInfo& live, const PlanOptions& options) {
  if (!options.plan_as) return live;
  DeviceInfo d = *options.plan_as;
  if (live.local_mem_size && (!d.local_mem_size || live.local_mem_size < d.local_mem_size))
    d.local_mem_size = live.local_mem_size;
  return d;
}

inline Planner offline_planner(const DeviceInfo& device, const PlanOptions& options) {
  return {device,
          [&device, options](const KernelTraits& t, const ProblemSize& s) { return make_plan(device, t, s, options); },
          [](const KernelRef&, const LaunchPlan&) { return std::size_t{0}; }};
}

}  // namespace portacl
