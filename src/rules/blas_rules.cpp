// SPDX-License-Identifier: Apache-2.0
// TRSV's and packed SYMV's launches (src/rules/blas_rules.hpp).
#include "rules/blas_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/error.hpp"
#include "rules/coverage_rules.hpp"
#include "rules/row_team.hpp"

namespace portacl {

namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Rule cpu.trsv-blocks: the CPU form's unknowns a block.
constexpr std::size_t kCpuTrsvBlock = 256;

// The CPU form: one work-item solves each block of BLOCK unknowns, then
// the rows below are shared out in slices of whole rows, one slice a
// work-item, as many as the plan's work-groups.
TrsvLaunches plan_trsv_rows(LaunchPlan plan, const TuningSpace& space, std::size_t n) {
  TrsvLaunches l;
  if (auto v = space.chosen(plan, "BLOCK")) {
    l.block = static_cast<std::size_t>(*v);
  } else {
    l.block = kCpuTrsvBlock;
    plan.decide("BLOCK", std::to_string(l.block), "cpu.trsv-blocks",
                "two launches a block: few blocks, while the serial diagonal blocks stay a small share");
  }
  l.tpr = 1;
  l.solve_kernel = "trsv_block_rows";
  l.update_kernel = "trsv_update_rows";
  plan.macros["BLOCK"] = std::to_string(l.block);
  plan.macros["TPR"] = "1";
  plan.decide("form",
              "rows: the diagonal block by one work-item, the rows below in " + std::to_string(plan.work_groups) +
                  " slices of whole rows",
              "cpu.avoid-barriers", "no local-memory tiles and no barriers: each row read once, a vector at a time");
  l.solve = plan;
  l.solve.local = l.solve.global = {{1, 1, 1}};
  l.solve.work_groups = 1;
  plan.local = {{1, 1, 1}};
  plan.global = {{plan.work_groups, 1, 1}};
  plan.items_per_work_item = ceil_div(n * (n + 1) / 2, plan.work_groups * std::max<std::size_t>(1, plan.vector_width));
  plan.decide("items_per_work_item", std::to_string(plan.items_per_work_item), "cpu.avoid-barriers",
              "the triangle's vectors shared out over the slices");
  decide_trsv_launches(plan, 2 * ceil_div(n, l.block) - 1, l.block);
  l.update = std::move(plan);
  return l;
}

}  // namespace

TrsvLaunches plan_trsv_launches(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& rules_device,
                                const DeviceInfo& limits_device, std::size_t n, std::size_t element_bytes,
                                std::size_t row_stride) {
  TrsvLaunches l;
  const std::size_t wg = plan.local[0];
  if (plan.barrier_free_variant) return plan_trsv_rows(std::move(plan), space, n);
  if (auto v = space.chosen(plan, "BLOCK")) {
    l.block = static_cast<std::size_t>(*v);
  } else {
    const RuleChoice rule = sub_group_width(plan, rules_device);
    l.block = rule.value;
    plan.decide("BLOCK", std::to_string(l.block), rule.rule, rule.why);
  }
  // The block's work-group must fit this device, and its tile local memory.
  const std::size_t max_wg = limits_device.max_work_group_size ? limits_device.max_work_group_size : l.block;
  while (l.block > 1 &&
         (l.block > max_wg ||
          (limits_device.local_mem_size && (l.block * (l.block + 2)) * element_bytes > limits_device.local_mem_size)))
    l.block /= 2;
  if (auto v = space.chosen(plan, "TPR")) {
    l.tpr = static_cast<std::size_t>(*v);
  } else {
    const RuleChoice rule = update_row_team(plan, row_stride, wg);
    l.tpr = rule.value;
    plan.decide("TPR", std::to_string(l.tpr), rule.rule, rule.why);
  }
  if (l.tpr == 0 || l.tpr > wg || wg % l.tpr || (l.tpr & (l.tpr - 1)))
    throw Error("trsv: TPR " + std::to_string(l.tpr) + " must be a power of two dividing the work-group size " +
                std::to_string(wg));
  plan.macros["BLOCK"] = std::to_string(l.block);
  plan.macros["TPR"] = std::to_string(l.tpr);
  l.solve = plan;
  l.solve.local = {{l.block, 1, 1}};
  l.solve.global = {{l.block, 1, 1}};
  l.solve.work_groups = 1;
  decide_trsv_launches(plan, 2 * ceil_div(n, l.block) - 1, l.block);
  l.update = std::move(plan);
  return l;
}

LaunchPlan trsv_update_grid(const TrsvLaunches& l, std::size_t rows_left) {
  LaunchPlan p = l.update;  // the CPU form: groups of one work-item, TPR 1, so a slice of rows each
  const std::size_t wg = p.local[0], per_group = wg / l.tpr;
  p.work_groups = std::max<std::size_t>(1, std::min(l.update.work_groups, ceil_div(rows_left, per_group)));
  p.global = {{p.work_groups * wg, 1, 1}};
  return p;
}

namespace {

// The combining launch of either form: `p`'s work-groups, at most enough to
// give each of the n rows a work-item.
LaunchPlan packed_symv_combine_plan(LaunchPlan p, std::size_t n) {
  const std::size_t wg = p.local[0];
  p.work_groups = std::max<std::size_t>(1, std::min(p.work_groups, ceil_div(n, wg)));
  p.global = {{p.work_groups * wg, 1, 1}};
  return p;
}

}  // namespace

PackedSymvLaunches plan_packed_symv_launches(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& device,
                                             std::size_t n, std::size_t element_bytes) {
  PackedSymvLaunches l;
  const std::size_t wg = plan.local[0];
  if (plan.barrier_free_variant) {
    l.slices = std::max<std::size_t>(1, std::min(plan.work_groups, (n + 1) / 8));
    l.blocks_kernel = "packed_symv_rows";
    l.combine_kernel = "packed_symv_rows_combine";
    l.combine = packed_symv_combine_plan(plan, n);
    plan.local = {{1, 1, 1}};
    plan.work_groups = l.slices;
    plan.global = {{l.slices, 1, 1}};
    plan.items_per_work_item = ceil_div(n * (n + 1) / 2, l.slices * plan.vector_width);
    plan.decide("items_per_work_item", std::to_string(plan.items_per_work_item), "cpu.avoid-barriers",
                "the stored triangle's vectors shared out over the slices");
    plan.decide("form",
                "rows: " + std::to_string(l.slices) + " work-items, each whole rows and " + std::to_string(n) +
                    " partial column sums of its own",
                "cpu.avoid-barriers",
                "no local-memory tiles and no barriers: each work-item reads its rows once, a vector at a time");
    l.blocks = std::move(plan);
    return l;
  }
  l.block = static_cast<std::size_t>(space.value_in(plan, "BLOCK"));
  // Each work-item owns one column of the block: BLOCK divides the group.
  while (l.block > 1 && wg % l.block) l.block /= 2;
  plan.macros["BLOCK"] = std::to_string(l.block);
  const std::size_t local_bytes = (l.block * (l.block + 1) + 2 * l.block + 2 * wg) * element_bytes;
  if (device.local_mem_size && local_bytes > device.local_mem_size)
    throw Error("packed_symv: blocks of " + std::to_string(l.block) + " need " + std::to_string(local_bytes) +
                " bytes of local memory; '" + device.name + "' has " + std::to_string(device.local_mem_size));
  l.block_rows = ceil_div(n, l.block);
  const std::size_t blocks = l.block_rows * (l.block_rows + 1) / 2;
  plan.work_groups = std::max<std::size_t>(1, std::min(plan.work_groups, blocks));
  plan.global = {{plan.work_groups * wg, 1, 1}};
  decide_packed_symv_blocks(plan, blocks, l.block);
  l.combine = packed_symv_combine_plan(plan, n);
  l.blocks = std::move(plan);
  return l;
}

}  // namespace portacl
