// SPDX-License-Identifier: Apache-2.0
// GEMV's launches (src/rules/gemv_rules.hpp).
#include "rules/gemv_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/error.hpp"
#include "rules/coverage_rules.hpp"
#include "rules/row_team.hpp"

namespace portacl {

namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace

GemvLaunches plan_gemv_launches(LaunchPlan plan, GemvPath path, const TuningSpace& space, const DeviceInfo& device,
                                std::size_t m, std::size_t n) {
  GemvLaunches l;
  l.path = path;
  const std::size_t wg = plan.local[0];
  if (path == GemvPath::rows) {
    if (auto v = space.chosen(plan, "TEAM")) {
      l.team = static_cast<std::size_t>(*v);
    } else {
      const RuleChoice rule = row_team(plan, device);
      l.team = std::min(rule.value, wg);
      plan.decide("TEAM", std::to_string(l.team), rule.rule, rule.why);
    }
    if (l.team == 0 || l.team > wg || wg % l.team || (l.team & (l.team - 1)))
      throw Error("gemv: TEAM " + std::to_string(l.team) + " must be a power of two dividing the work-group size " +
                  std::to_string(wg));
    plan.macros["TEAM"] = std::to_string(l.team);
    const std::size_t blocks = ceil_div(m, wg / l.team);
    plan.work_groups = std::max<std::size_t>(1, std::min(plan.work_groups, blocks));
    plan.global = {{plan.work_groups * wg, 1, 1}};
    l.product = std::move(plan);
    return l;
  }
  // As many chunks of columns as it takes to reach the plan's work-group
  // count, each chunk at least 64 columns long.
  l.row_groups = ceil_div(m, wg * plan.vector_width);
  const std::size_t chunks = std::max<std::size_t>(
      1, std::min(ceil_div(plan.work_groups, l.row_groups), ceil_div(std::max<std::size_t>(n, 1), 64)));
  const std::size_t chunk = std::max<std::size_t>(1, ceil_div(n, chunks));
  l.chunks = n == 0 ? 1 : ceil_div(n, chunk);
  l.chunk = l.chunks > 1 ? chunk : std::max<std::size_t>(n, 1);
  plan.work_groups = l.row_groups * l.chunks;
  plan.global = {{plan.work_groups * wg, 1, 1}};
  decide_gemv_chunks(plan, l.chunks, chunk, l.row_groups);
  l.combine = plan;
  l.combine.work_groups = std::max<std::size_t>(1, std::min(plan.work_groups, l.row_groups));
  l.combine.global = {{l.combine.work_groups * wg, 1, 1}};
  l.product = std::move(plan);
  return l;
}

}  // namespace portacl
