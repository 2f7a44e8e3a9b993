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

// The CPU form: one launch, a work-item (a work-group of one) per block of
// BLOCK unknowns, taken in order; each block's unknowns kept in whole
// 128-byte lines of the solved scratch.
TrsvLaunches plan_trsv_chain(LaunchPlan plan, const TuningSpace& space, std::size_t n, std::size_t element_bytes) {
  TrsvLaunches l;
  if (auto v = space.chosen(plan, "BLOCK")) {
    l.block = static_cast<std::size_t>(*v);
  } else {
    l.block = kCpuTrsvBlock;
    plan.decide("BLOCK", std::to_string(l.block), "cpu.trsv-blocks",
                "one launch: each block takes its products with the blocks above as they are published, so the "
                "serial diagonal solves overlap the other cores' products");
  }
  l.tpr = 1;
  l.chained = true;
  l.blocks = ceil_div(n, l.block);
  const std::size_t line = std::max<std::size_t>(1, 128 / element_bytes);
  l.solved_stride = ceil_div(l.block, line) * line;
  l.solve_kernel = l.update_kernel = "trsv_chain";
  plan.macros["BLOCK"] = std::to_string(l.block);
  plan.macros["TPR"] = "1";
  plan.macros["SOLVED_STRIDE"] = std::to_string(l.solved_stride);
  plan.decide("form", "chain: " + std::to_string(l.blocks) + " blocks, a work-item each, taken in order from a ticket",
              "cpu.avoid-barriers",
              "no local-memory tiles and no barriers: each row read once, a vector at a time; a block waits only "
              "for the blocks above it, whose work-items already run");
  groups_of_one(plan);  // a block waits for other groups' blocks, never for its own work-items
  grid_of_groups(plan, l.blocks);
  plan.items_per_work_item = l.block;
  plan.decide("work_groups", std::to_string(l.blocks), "general.cover-problem", "a work-group of one per block");
  plan.decide("items_per_work_item", std::to_string(l.block), "cpu.trsv-blocks", "a block's rows per work-item");
  plan.decide("launches", "1", "general.cover-problem", "the chained blocks in one launch");
  l.update = l.solve = std::move(plan);
  return l;
}

}  // namespace

TrsvLaunches plan_trsv_launches(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& rules_device,
                                const DeviceInfo& limits_device, std::size_t n, std::size_t element_bytes,
                                std::size_t row_stride) {
  TrsvLaunches l;
  const std::size_t wg = plan.local[0];
  if (plan.barrier_free_variant) return plan_trsv_chain(std::move(plan), space, n, element_bytes);
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
  LaunchPlan p = l.update;
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
