// SPDX-License-Identifier: Apache-2.0
#include "rules/particles_neighbour_rules.hpp"

#include "rules/coverage_rules.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "portacl/device.hpp"

namespace portacl {

namespace {

// Below this many particles testing every pair costs less than a cell
// list's sort and its bounds.
constexpr std::size_t kCellParticles = 1000;

}  // namespace

NeighbourShape choose_neighbour_search(LaunchPlan& plan, std::size_t n, const std::array<float, 3>& box, float reach,
                                       int forced) {
  NeighbourShape s;
  int fewest = 1 << 30;
  for (int d = 0; d < 3; ++d) {
    s.grid[d] = std::max(1, static_cast<int>(std::floor(box[d] / reach)));
    fewest = std::min(fewest, s.grid[d]);
  }
  const std::string side = std::to_string(s.grid[0]) + " x " + std::to_string(s.grid[1]) + " x " +
                           std::to_string(s.grid[2]) + " cells of at least " + std::to_string(reach);
  s.cells = fewest >= 3 && (forced == 1 || (forced == 0 && n >= kCellParticles));
  if (s.cells)
    plan.decide("search", "cells", "particles.neighbour-cells",
                side + ": particles sorted by cell, each testing its 27 neighbouring cells");
  else
    plan.decide("search", "all pairs", "particles.neighbour-cells",
                fewest < 3 ? side + ": fewer than 3 a side, so neighbouring cells would repeat; every pair tested"
                           : std::to_string(n) + " particles" +
                                 (forced == 2 ? " (every pair asked for)" : ": below 1000, every pair costs less"));
  s.slots_by_k = plan.device_class != DeviceClass::cpu && plan.device_class != DeviceClass::intel_mic;
  plan.decide("list_slots", s.slots_by_k ? "k n + i" : "i capacity + k", "particles.list-slots",
              s.slots_by_k ? "neighbour k of every particle side by side: neighbouring work-items write and read "
                             "neighbouring words"
                           : "a particle's neighbours side by side: one work-item walks them through one cache line");
  return s;
}

std::size_t first_list_capacity(LaunchPlan& plan, std::size_t n, const std::array<float, 3>& box, float reach,
                                bool half) {
  const double volume = double(box[0]) * box[1] * box[2];
  const double expected = double(n) / volume * 4.0 / 3.0 * M_PI * double(reach) * reach * reach * (half ? 0.5 : 1.0);
  const double wanted = std::min(1.25 * expected + 8, double(n));
  const std::size_t capacity = (static_cast<std::size_t>(std::ceil(wanted)) + 7) / 8 * 8;
  plan.decide("capacity", std::to_string(capacity), "particles.list-capacity",
              "1.25 x the " + std::to_string(static_cast<long>(expected)) +
                  " neighbours a uniform density gives, + 8; a fuller particle makes the build grow it and run again");
  return capacity;
}

std::size_t grown_list_capacity(LaunchPlan& plan, std::size_t fullest) {
  const std::size_t capacity = (fullest * 5 / 4 + 8 + 7) / 8 * 8;
  plan.decide("capacity", std::to_string(capacity), "particles.list-capacity",
              "a particle had " + std::to_string(fullest) + " neighbours: grown to 1.25 x that + 8 and built again");
  return capacity;
}

bool choose_md_half_list(LaunchPlan& plan, std::optional<bool> asked, bool double_precision) {
  const char* rule = "particles.md-list";
  if (asked) {
    plan.decide("list", *asked ? "half" : "full", rule, "the caller's choice (MdOptions::half_list)");
    return *asked;
  }
  if (double_precision) {
    plan.decide("list", "full", rule, "double: each particle sums its own pairs (the atomic shares are float)");
    return false;
  }
  const bool cpu_like = plan.device_class == DeviceClass::cpu || plan.device_class == DeviceClass::intel_mic;
  // Measured (32,000 atoms on PoCL, 2 cores: half 14.9 ms a step, full
  // 19.4; 1M atoms on the H100: half lists 5x slower than full).
  plan.decide("list", cpu_like ? "half" : "full", rule,
              cpu_like ? "half lists: each pair once, the few threads' atomic shares rarely collide"
                       : "full lists: each pair twice, but no atomic shares, which contend across thousands of "
                         "work-items");
  return cpu_like;
}

bool decide_pair_scatter(LaunchPlan& plan, bool half_list) {
  if (half_list)
    plan.decide("scatter", "atomic shares", "particles.lj-scatter",
                "a half list: each pair computed once, the other particle's share added by atomic compare-and-swap");
  else
    plan.decide("scatter", "own sums", "particles.lj-scatter",
                "a full list: each particle sums its own pairs, no atomics, every pair computed twice");
  return half_list;
}

LaunchPlan neighbour_search_plan(LaunchPlan plan, std::size_t n, bool half, bool slots_by_k) {
  plan.macros["HALF"] = half ? "1" : "0";
  plan.macros["SLOTS_BY_K"] = slots_by_k ? "1" : "0";
  cover_items(plan, n, 1, "particles");
  return plan;
}

LaunchPlan neighbour_helper_plan(LaunchPlan plan) {
  plan.macros["HALF"] = "0";
  return plan;
}

bool lj_forces_plan(LaunchPlan& plan, std::size_t n, std::size_t types, bool slots_by_k, bool half_list) {
  plan.macros["TYPES"] = std::to_string(types);
  plan.macros["SLOTS_BY_K"] = slots_by_k ? "1" : "0";
  cover_items(plan, n, 1, "particles");
  const bool atomic_shares = decide_pair_scatter(plan, half_list);
  plan.macros["HALF_LIST"] = atomic_shares ? "1" : "0";
  return atomic_shares;
}

LaunchPlan bond_plans(LaunchPlan& plan, std::size_t atoms, std::size_t bonds, std::size_t max_per_atom) {
  plan.macros["MAX_BONDS"] = std::to_string(max_per_atom);
  LaunchPlan per_bond = plan;
  if (bonds == 0 || atoms == 0) return per_bond;
  cover_items(per_bond, bonds, 1, "bonds");
  cover_items(plan, atoms, 1, "atoms");
  return per_bond;
}

}  // namespace portacl
