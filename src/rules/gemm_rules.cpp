// SPDX-License-Identifier: Apache-2.0
// GEMM's device-dependent choices (src/rules/gemm_rules.hpp):
// the register block, the slice depth, packing, the packed loads' width,
// the packing square. gemm.cpp validates, asks these, prepares and launches.
#include "rules/gemm_rules.hpp"
#include "rules/coverage_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/error.hpp"

namespace portacl {

namespace {

// A knob's tuned value, else the rule's (recorded as a decision).
std::size_t knob_or_rule(LaunchPlan& plan, const TuningSpace& space, const char* knob, std::size_t rule_value,
                         const std::string& rule, const std::string& why) {
  if (auto v = space.chosen(plan, knob)) return static_cast<std::size_t>(*v);
  plan.decide(knob, std::to_string(rule_value), rule, why);
  return rule_value;
}

// Packing moves (m + n) k elements twice and costs two launches; from the
// threshold up it buys aligned, unchecked vector loads worth more.
bool decide_packing(LaunchPlan& plan, const TuningSpace& space, bool cpu_like, std::size_t m, std::size_t n,
                    std::size_t k) {
  const double side = cpu_like ? 64.0 : 640.0;
  const bool big = double(m) * double(n) * double(k) >= side * side * side;
  return knob_or_rule(plan, space, "PACK", big ? 1 : 0, "general.pack-large-products",
                      std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k) +
                          (big ? " is at least " : " is below ") + std::to_string(int(side)) + "^3 multiply-adds" +
                          (cpu_like ? "" : " (a GPU: below that the two packing launches cost more than they save)")) !=
         0;
}

// general.gemm-register-tiles: the packed product on local memory runs
// square work-groups (square tiles of C read the fewest slice elements per
// FMA), unless a tuned shape says otherwise.
void square_work_group(LaunchPlan& plan) {
  if (decided_by_tuning(plan, "local_shape")) return;
  const std::size_t size = plan.local[0] * plan.local[1];
  std::size_t x = 1;
  while (x * x < size) x *= 2;
  if (x * (size / x) != size || x == plan.local[0]) return;
  plan.local[0] = x;
  plan.local[1] = size / x;
  plan.macros["WG_X"] = std::to_string(plan.local[0]);
  plan.macros["WG_Y"] = std::to_string(plan.local[1]);
  plan.decide("local_shape", std::to_string(plan.local[0]) + "x" + std::to_string(plan.local[1]),
              "general.gemm-register-tiles", "square tiles of C read the fewest slice elements per multiply-add");
}

// The CPU register block's groups are one work-item (rule
// cpu.gemm-register-block): its panels of A and B are then its own,
// contiguous, and stream through the caches without 4 KiB-strided lines.
void cpu_block_work_group(LaunchPlan& plan) {
  if (decided_by_tuning(plan, "local_shape") || decided_by_tuning(plan, "work_group_size")) return;
  groups_of_one(plan);
  plan.decide("local_shape", "1x1", "cpu.gemm-register-block",
              "a work-item a group: its panels of A and B are contiguous, its own");
}

}  // namespace

GemmShape choose_gemm_shape(LaunchPlan& plan, const DeviceInfo& device, const TuningSpace& space, std::size_t m,
                            std::size_t n, std::size_t k) {
  GemmShape g;
  const bool cpu_like = plan.device_class == DeviceClass::cpu || plan.device_class == DeviceClass::intel_mic;
  g.pack = decide_packing(plan, space, cpu_like, m, n, k);
  plan.macros["PACK"] = g.pack ? "1" : "0";
  // CPUs: each work-item owns a block one SIMD register wide (explicit
  // vectors, cpu.vector-types) and 8 rows deep: 8 accumulator registers.
  // GPUs, packed (general.gemm-register-tiles): blocks of 8 rows whose
  // accumulators fill 128 32-bit registers (8 x 16 floats, 8 x 8 doubles)
  // on square groups (H100, float: 128 x 256 tiles on 16 x 16 groups),
  // slices double-buffered. GPUs, strided (small products): 8 x 4 blocks on
  // the group the mapping rules chose.
  const bool simd_block = !plan.use_local_memory;
  const bool register_tiles = !simd_block && g.pack;
  g.cpu_block = simd_block && g.pack;
  const std::size_t element = size_of(plan.traits.element);
  // The SIMD unit's width in elements, up to 16 lanes (the CPU register
  // block's vectors), and up to 8 for the other CPU blocks.
  std::size_t lanes = 1;
  while (lanes < 16 && lanes * 2 <= device.native_vector_width.of(plan.traits.element)) lanes *= 2;
  const std::size_t simd = std::min<std::size_t>(lanes, 8);
  std::string rule = simd_block       ? "cpu.vector-types"
                     : register_tiles ? "general.gemm-register-tiles"
                                      : "general.cover-problem";
  if (register_tiles) square_work_group(plan);
  // Wide blocks only where the product makes at least half as many tiles
  // as the device has compute units (a register-tiled work-group holds a
  // compute unit): H100, float, 1024^3 makes 32 tiles of 128 x 256.
  std::size_t tile_columns = std::min<std::size_t>(16, 64 / element);
  auto tiles = [&](std::size_t columns) {
    return ((m + plan.local[1] * 8 - 1) / (plan.local[1] * 8)) *
           ((n + plan.local[0] * columns - 1) / (plan.local[0] * columns));
  };
  while (register_tiles && tile_columns > 4 && 2 * tiles(tile_columns) < device.compute_units) tile_columns /= 2;
  if (g.cpu_block) {
    rule = "cpu.gemm-register-block";
    cpu_block_work_group(plan);
    // 16 float lanes: AVX-512 and its 32 vector registers (whatever the element).
    const bool wide_file = device.native_vector_width.of(ElementType::f32) >= 16;
    std::size_t mr = wide_file ? 8 : 4;
    g.wpt_m = knob_or_rule(plan, space, "WPT_M", 8 * mr, rule,
                           std::to_string(8 * mr) + " rows in blocks of " + std::to_string(mr) + " (" +
                               std::to_string(2 * mr) + " accumulator registers" +
                               (wide_file ? " of the 32 AVX-512 has)" : " of the 16 the SIMD unit has)"));
    g.wpt_n = knob_or_rule(plan, space, "WPT_N", 2 * lanes, rule,
                           "two SIMD registers of columns (" + std::to_string(lanes) + " lanes each)");
    mr = std::min(mr, g.wpt_m);
    if (g.wpt_m % mr)
      throw Error("gemm: WPT_M " + std::to_string(g.wpt_m) + " must be a multiple of the register block's " +
                  std::to_string(mr) + " rows");
    plan.macros["MR"] = std::to_string(mr);
  } else {
    g.wpt_m = knob_or_rule(plan, space, "WPT_M", 8, rule, "8 rows of accumulators per work-item");
    g.wpt_n = knob_or_rule(
        plan, space, "WPT_N",
        simd_block       ? simd
        : register_tiles ? tile_columns
                         : 4,
        rule,
        simd_block       ? "one SIMD register of columns (" + std::to_string(simd) + " lanes)"
        : register_tiles ? "8 x " + std::to_string(tile_columns) +
                               " accumulators: at most 128 32-bit registers (the most multiply-adds per load of a "
                               "slice without spilling) in tiles at least half as many as compute units (" +
                               std::to_string(tiles(tile_columns)) + ")"
                         : "8 x 4 register block");
  }
  g.tile_m = plan.local[1] * g.wpt_m;
  g.tile_n = plan.local[0] * g.wpt_n;
  // Double buffering (PREFETCH) keeps two slices in local memory.
  if (simd_block && space.chosen(plan, "PREFETCH").value_or(0))
    throw Error("gemm: PREFETCH 1 double-buffers local-memory slices, and this plan uses no local memory");
  const bool prefetch =
      register_tiles && knob_or_rule(plan, space, "PREFETCH", 1, rule,
                                     "the next slice's loads are issued before the current slice's multiply-adds "
                                     "and land in a second buffer: one barrier a slice") != 0;
  // Strided: slices filling at most half the local memory leave room for a
  // second work-group per compute unit to hide the other's loads. Register
  // tiles run one work-group per compute unit (their registers allow no
  // more), so their two buffers may fill it, up to 16 deep.
  std::size_t ts_k = 16;
  if (!simd_block)
    for (std::size_t depth : {32, 16, 8, 4}) {
      ts_k = depth;
      if (register_tiles && depth > 16) continue;
      const std::size_t bytes = (prefetch ? 2 : 1) * depth * (g.tile_m + g.tile_n + (g.pack ? 0 : 2)) * element;
      if (!device.local_mem_size || bytes * (register_tiles ? 1 : 2) <= device.local_mem_size) break;
    }
  if (g.cpu_block) ts_k = 256;
  g.ts_k = knob_or_rule(plan, space, "TS_K", ts_k, rule,
                        g.cpu_block  ? "256 deep: a work-item's columns of B for a slice fill about 32 KB, the L1 cache"
                        : simd_block ? "no local memory: the slice only sets the loop's blocking"
                        : register_tiles ? "16 deep, or the deepest whose buffers fit the local memory"
                                         : "deepest slice whose tiles fill at most half the local memory");
  g.prefetch = prefetch;
  plan.macros["WPT_M"] = std::to_string(g.wpt_m);
  plan.macros["WPT_N"] = std::to_string(g.wpt_n);
  plan.macros["TS_K"] = std::to_string(g.ts_k);
  if (!g.pack) return g;
  const std::size_t vec = knob_or_rule(
      plan, space, "VEC",
      g.cpu_block ? std::min(lanes, g.wpt_n) : std::min<std::size_t>({simd_block ? simd : 4, g.wpt_m, g.wpt_n}), rule,
      simd_block ? "explicit vectors of the SIMD width" : "whole vectors from local-memory slices");
  // gemm_cpu's rows are whole elements; gemm_tiled reads rows in vectors too.
  if ((!g.cpu_block && g.wpt_m % vec) || g.wpt_n % vec)
    throw Error("gemm: VEC " + std::to_string(vec) + " must divide " +
                (g.cpu_block ? "WPT_N " + std::to_string(g.wpt_n)
                             : "WPT_M " + std::to_string(g.wpt_m) + " and WPT_N " + std::to_string(g.wpt_n)));
  if (g.cpu_block)
    plan.decide("form",
                "register block: " + std::to_string(g.wpt_m) + " x " + std::to_string(g.wpt_n / vec) + " vectors of " +
                    std::to_string(vec) + " accumulators a work-item (gemm_cpu)",
                rule, "each step of the depth loads the block's vectors of B once and broadcasts each row's A");
  plan.macros["VEC"] = std::to_string(vec);
  plan.macros["UNROLL"] = std::to_string(knob_or_rule(
      plan, space, "UNROLL", prefetch ? g.ts_k : 8, rule,
      prefetch ? "the whole slice: its loads are already in flight" : "8 multiply-add steps between loop tests"));
  plan.macros["PREFETCH"] = prefetch ? "1" : "0";
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

GemmPackShape gemm_pack_shape(const DeviceInfo& d, std::size_t element) {
  for (std::size_t t : {32, 16, 8, 4, 2}) {
    const std::size_t rows = std::max<std::size_t>(1, t / 4);
    if ((!d.max_work_group_size || t * rows <= d.max_work_group_size) &&
        (d.max_work_item_sizes.size() < 2 || (t <= d.max_work_item_sizes[0] && rows <= d.max_work_item_sizes[1])) &&
        (!d.local_mem_size || t * (t + 1) * element <= d.local_mem_size))
      return {t, rows};
  }
  return {1, 1};
}

void gemm_launches(GemmPlans& l, const DeviceInfo& device, std::size_t element_bytes, std::size_t m, std::size_t n,
                   std::size_t k) {
  const GemmShape& g = l.g;
  LaunchPlan& plan = l.plan;
  const std::size_t tiles_n = (n + g.tile_n - 1) / g.tile_n, tiles_m = (m + g.tile_m - 1) / g.tile_m;
  plan.global = {{tiles_n * plan.local[0], tiles_m * plan.local[1], 1}};
  plan.work_groups = tiles_n * tiles_m;
  plan.items_per_work_item = g.wpt_m * g.wpt_n;
  decide_gemm_tiles(plan, g);
  if (!g.pack) return;
  const GemmPackShape ps = gemm_pack_shape(device, element_bytes);
  const std::size_t pt = ps.tile;
  plan.macros["PACK_TILE"] = std::to_string(pt);
  plan.macros["PACK_ROWS"] = std::to_string(ps.rows);
  auto round_up = [](std::size_t a, std::size_t b) { return checked_product((a + b - 1) / b, b, "padding"); };
  l.m_pad = round_up(m, g.tile_m);
  l.n_pad = round_up(n, g.tile_n);
  l.k_pad = round_up(k, g.ts_k);
  auto pack_over = [&](std::size_t rows_pad) {
    LaunchPlan pack_plan = plan;  // same macros, so the same program as gemm_tiled
    pack_plan.local = {{pt, ps.rows, 1}};
    cover_2d(pack_plan, rows_pad, round_up(l.k_pad, pt) / pt * ps.rows);
    pack_plan.items_per_work_item = pt / ps.rows;
    return pack_plan;
  };
  l.pack_a_plan = pack_over(l.m_pad);
  l.pack_b_plan = pack_over(l.n_pad);
}

}  // namespace portacl
