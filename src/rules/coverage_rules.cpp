// SPDX-License-Identifier: Apache-2.0
#include "rules/coverage_rules.hpp"

#include "portacl/error.hpp"

#include <string>

namespace portacl {

void decide_gemv_chunks(LaunchPlan& plan, std::size_t chunks, std::size_t columns_per_chunk, std::size_t row_groups) {
  plan.decide("chunks", std::to_string(chunks), "general.grid-stride",
              std::to_string(chunks) + " chunks of " + std::to_string(columns_per_chunk) + " columns x " +
                  std::to_string(row_groups) + " groups of rows fill the device");
}

void decide_packed_symv_blocks(LaunchPlan& plan, std::size_t blocks, std::size_t block) {
  plan.decide("blocks", std::to_string(blocks) + " of " + std::to_string(block) + " x " + std::to_string(block),
              "general.grid-stride", "each block of the stored triangle is read once");
}

void decide_trsv_launches(LaunchPlan& plan, std::size_t launches, std::size_t block) {
  plan.decide("launches", std::to_string(launches), "general.cover-problem",
              "a solve and a flow-down per block of " + std::to_string(block) + " unknowns");
}

void decide_single_pass_scan(LaunchPlan& plan, std::size_t per_work_item, std::size_t tile) {
  plan.decide("scan", "single pass, decoupled look-back", "general.single-pass-combine",
              std::to_string(per_work_item) + " elements per work-item, tiles of " + std::to_string(tile));
}

void cover_items(LaunchPlan& plan, std::size_t items, std::size_t per_work_item, const std::string& what) {
  const std::size_t per = per_work_item ? per_work_item : 1, local = plan.local[0] ? plan.local[0] : 1;
  const std::size_t work_items = (items + per - 1) / per;
  plan.items_per_work_item = per;
  plan.work_groups = (work_items + local - 1) / local;
  plan.global = {{plan.work_groups * local, 1, 1}};
  plan.decide("grid", std::to_string(plan.work_groups) + " work-groups of " + std::to_string(local),
              "general.cover-problem",
              std::to_string(items) + " " + what + ", " + std::to_string(per) +
                  " a work-item: just enough work-groups to cover each once");
}

LaunchPlan one_per_item(const LaunchPlan& like, std::size_t items) {
  LaunchPlan p = like;
  const std::size_t local = p.local[0] ? p.local[0] : 1;
  p.work_groups = ((items == 0 ? 1 : items) + local - 1) / local;
  p.global = {{p.work_groups * local, 1, 1}};
  p.items_per_work_item = 1;
  return p;
}

void cover_2d(LaunchPlan& plan, std::size_t x, std::size_t y) {
  const std::size_t lx = plan.local[0] ? plan.local[0] : 1, ly = plan.local[1] ? plan.local[1] : 1;
  plan.global = {
      {checked_product((x + lx - 1) / lx, lx, "padding"), checked_product((y + ly - 1) / ly, ly, "padding"), 1}};
  plan.work_groups = (plan.global[0] / lx) * (plan.global[1] / ly);
}

void grid_of_groups(LaunchPlan& plan, std::size_t groups) {
  plan.work_groups = groups ? groups : 1;
  plan.global = {{plan.work_groups * (plan.local[0] ? plan.local[0] : 1), 1, 1}};
}

void groups_of_one(LaunchPlan& plan) {
  plan.local = {{1, 1, 1}};
  plan.macros["WG_SIZE"] = plan.macros["WG_X"] = plan.macros["WG_Y"] = plan.macros["WG_Z"] = "1";
}

void share_build(LaunchPlan& plan, const LaunchPlan& from) {
  plan.macros.insert(from.macros.begin(), from.macros.end());
}

void over_batch(LaunchPlan& plan, std::size_t batch) {
  plan.dimensions = 3;
  plan.global[2] = batch;
  plan.local[2] = 1;
  plan.work_groups *= batch;
}

}  // namespace portacl
