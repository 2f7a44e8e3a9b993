// SPDX-License-Identifier: Apache-2.0
// GEMM's device-dependent choices (src/rules/gemm_rules.hpp):
// the register block, the slice depth, packing, the packed loads' width,
// the packing square. gemm.cpp validates, asks these, prepares and launches.
#include "rules/gemm_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/error.hpp"

namespace portacl {

namespace {

// A knob's tuned value, else the rule's (recorded as a decision).
std::size_t knob_or_rule(LaunchPlan& plan, const TuningSpace& space, const char* knob, std::size_t rule_value,
                         const char* rule, const std::string& why) {
  if (auto v = space.chosen(plan, knob)) return static_cast<std::size_t>(*v);
  plan.decide(knob, std::to_string(rule_value), rule, why);
  return rule_value;
}

}  // namespace

GemmShape choose_gemm_shape(LaunchPlan& plan, const DeviceInfo& device, const TuningSpace& space, std::size_t m,
                            std::size_t n, std::size_t k) {
  GemmShape g;
  // GPUs: 8 x 4 blocks over local-memory slices (H100: 64 x 128 tiles on
  // the rules' 32 x 8 groups, 32 accumulators a work-item). CPUs: each
  // work-item owns a block one SIMD register wide (explicit vectors,
  // cpu.vector-types) and 8 rows deep: 8 accumulator registers.
  const bool simd_block = !plan.use_local_memory;
  std::size_t simd = 1;
  while (simd < 8 && simd * 2 <= device.native_vector_width.of(plan.traits.element)) simd *= 2;
  const char* rule = simd_block ? "cpu.vector-types" : "general.cover-problem";
  g.wpt_m = knob_or_rule(plan, space, "WPT_M", 8, rule, "8 rows of accumulators per work-item");
  g.wpt_n = knob_or_rule(
      plan, space, "WPT_N", simd_block ? simd : 4, rule,
      simd_block ? "one SIMD register of columns (" + std::to_string(simd) + " lanes)" : "8 x 4 register block");
  g.tile_m = plan.local[1] * g.wpt_m;
  g.tile_n = plan.local[0] * g.wpt_n;
  // Half the local memory leaves room for a second work-group per compute
  // unit to hide the other's loads.
  std::size_t ts_k = 16;
  if (!simd_block)
    for (std::size_t depth : {32, 16, 8}) {
      ts_k = depth;
      if (!device.local_mem_size ||
          depth * (g.tile_m + g.tile_n + 2) * size_of(plan.traits.element) * 2 <= device.local_mem_size)
        break;
    }
  g.ts_k = knob_or_rule(plan, space, "TS_K", ts_k, rule,
                        simd_block ? "no local memory: the slice only sets the loop's blocking"
                                   : "deepest slice whose tiles fill at most half the local memory");
  plan.macros["WPT_M"] = std::to_string(g.wpt_m);
  plan.macros["WPT_N"] = std::to_string(g.wpt_n);
  plan.macros["TS_K"] = std::to_string(g.ts_k);
  // Packing moves (m + n) k elements twice and costs two launches; from
  // the threshold up it buys aligned, unchecked vector loads worth more.
  const bool cpu_like = plan.device_class == DeviceClass::cpu || plan.device_class == DeviceClass::intel_mic;
  const double side = cpu_like ? 64.0 : 640.0;
  const bool big = double(m) * double(n) * double(k) >= side * side * side;
  g.pack =
      knob_or_rule(plan, space, "PACK", big ? 1 : 0, "general.pack-large-products",
                   std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k) +
                       (big ? " is at least " : " is below ") + std::to_string(int(side)) + "^3 multiply-adds" +
                       (cpu_like ? "" : " (a GPU: below that the two packing launches cost more than they save)")) != 0;
  plan.macros["PACK"] = g.pack ? "1" : "0";
  if (!g.pack) return g;
  const std::size_t vec =
      knob_or_rule(plan, space, "VEC", std::min<std::size_t>({simd_block ? simd : 4, g.wpt_m, g.wpt_n}), rule,
                   simd_block ? "explicit vectors of the SIMD width" : "whole vectors from local-memory slices");
  if (g.wpt_m % vec || g.wpt_n % vec)
    throw Error("gemm: VEC " + std::to_string(vec) + " must divide WPT_M " + std::to_string(g.wpt_m) + " and WPT_N " +
                std::to_string(g.wpt_n));
  plan.macros["VEC"] = std::to_string(vec);
  plan.macros["UNROLL"] = std::to_string(space.value_in(plan, "UNROLL"));
  return g;
}

void decide_gemm_tiles(LaunchPlan& plan, const GemmShape& g) {
  plan.decide("tiles", std::to_string(g.tile_m) + " x " + std::to_string(g.tile_n) + " x " + std::to_string(g.ts_k),
              "general.cover-problem",
              std::to_string(g.wpt_m) + " x " + std::to_string(g.wpt_n) + " elements of C per work-item");
}

void decide_gemm_clblast(LaunchPlan& plan, bool caller_asked) {
  plan.decide("backend", "CLBlast", caller_asked ? "caller.choice" : "tuning.override",
              caller_asked ? "asked for by the caller" : "measured faster here: " + plan.provenance);
}

std::size_t gemm_pack_tile(const DeviceInfo& d, std::size_t element) {
  for (std::size_t t : {16, 8, 4, 2})
    if ((!d.max_work_group_size || t * t <= d.max_work_group_size) &&
        (d.max_work_item_sizes.size() < 2 || (t <= d.max_work_item_sizes[0] && t <= d.max_work_item_sizes[1])) &&
        (!d.local_mem_size || t * (t + 1) * element <= d.local_mem_size))
      return t;
  return 1;
}

}  // namespace portacl
