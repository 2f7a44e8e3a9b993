// SPDX-License-Identifier: Apache-2.0
#include "rules/binary_gemm_rules.hpp"

#include <algorithm>
#include <string>

namespace portacl {

namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace

BinaryGemmShape choose_binary_gemm(LaunchPlan& plan, const TuningSpace& space, std::size_t m, std::size_t n) {
  BinaryGemmShape s;
  const auto knob = [&](const char* name) { return static_cast<std::size_t>(space.value_in(plan, name)); };
  if (plan.barrier_free_variant || !plan.use_local_memory) {
    s.columns = knob("COLUMNS");
    const std::size_t items = m * ceil_div(n, s.columns), wg = plan.local[0];
    plan.work_groups = ceil_div(std::max<std::size_t>(items, 1), wg);
    plan.global = {{plan.work_groups * wg, 1, 1}};
    plan.items_per_work_item = s.columns;
    plan.macros["TILES"] = "0";
    plan.macros["COLUMNS"] = std::to_string(s.columns);
    plan.decide("variant", "rows", "binary-gemm.rows",
                "a row of C and " + std::to_string(s.columns) + " columns a work-item, " +
                    std::to_string(plan.vector_width) + " words at a time: no local memory, no barriers");
    return s;
  }
  s.tiles = true;
  s.rm = knob("RM");
  s.rn = knob("RN");
  s.slice = knob("SLICE");
  const std::size_t wg_x = 16, wg_y = std::clamp<std::size_t>(plan.local[0] / wg_x, 1, 16);
  plan.dimensions = 2;
  plan.local = {{wg_x, wg_y, 1}};
  const std::size_t groups_x = ceil_div(std::max<std::size_t>(n, 1), wg_x * s.rn);
  const std::size_t groups_y = ceil_div(std::max<std::size_t>(m, 1), wg_y * s.rm);
  plan.global = {{groups_x * wg_x, groups_y * wg_y, 1}};
  plan.work_groups = groups_x * groups_y;
  plan.items_per_work_item = s.rm * s.rn;
  plan.macros["TILES"] = "1";
  plan.macros["WG_X"] = std::to_string(wg_x);
  plan.macros["WG_Y"] = std::to_string(wg_y);
  plan.macros["WG_SIZE"] = std::to_string(wg_x * wg_y);
  plan.macros["RM"] = std::to_string(s.rm);
  plan.macros["RN"] = std::to_string(s.rn);
  plan.macros["SLICE"] = std::to_string(s.slice);
  plan.decide("variant", "tiles", "binary-gemm.tiles",
              std::to_string(wg_x) + " x " + std::to_string(wg_y) + " work-items of " + std::to_string(s.rm) + " x " +
                  std::to_string(s.rn) + " outputs, " + std::to_string(s.slice) +
                  " words of K a slice in local memory, each word read there by a tile's row or column of "
                  "work-items");
  return s;
}

}  // namespace portacl
