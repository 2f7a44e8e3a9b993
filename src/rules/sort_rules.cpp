// SPDX-License-Identifier: Apache-2.0
#include "rules/sort_rules.hpp"

#include "portacl/plan.hpp"

#include <algorithm>
#include <string>

namespace portacl {

namespace {

// Keys a chunk takes at least: below that, clearing and writing its 2^bits
// counters costs more than counting the keys.
constexpr std::size_t kChunkKeys = 4096;
// Work-groups of the one-sweep digit count per compute unit.
constexpr std::size_t kHistogramGroupsPerUnit = 4;

}  // namespace

std::size_t sort_tile_local_bytes(std::size_t work_group, std::size_t items, unsigned digit_bits,
                                  std::size_t moved_bytes) {
  const std::size_t digits = std::size_t{1} << digit_bits, counters = digits * work_group;
  return 4 * (counters + counters / 32) + work_group * items * moved_bytes + 4 * digits + 4 * work_group;
}

SortShape choose_radix_sort(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device, std::size_t n,
                            unsigned key_bits, std::size_t moved_bytes) {
  SortShape s;
  const auto tuned_bits = space.chosen(plan, "RADIX_BITS");
  if (plan.barrier_free_variant || !plan.use_local_memory) {
    s.variant = SortVariant::work_item_chunks;
    s.digit_bits = tuned_bits ? static_cast<unsigned>(*tuned_bits) : 8;
    s.units = std::clamp<std::size_t>(n / kChunkKeys, 1, std::max<std::size_t>(plan.global[0], 1));
    s.chunk = (n + s.units - 1) / s.units;
    s.units = (n + s.chunk - 1) / s.chunk;
    plan.decide("variant", "work-item chunks", "sort.work-item-chunks",
                std::to_string(s.units) + " chunks of " + std::to_string(s.chunk) +
                    " keys, each counted and moved by one work-item with private counters: no local memory, no "
                    "barriers, and stable because every chunk is walked in order");
  } else {
    s.variant = SortVariant::work_group_tiles;
    // Measured on the H100 (portacl-tune, 2^24 keys, 30 shapes): 128
    // work-items of 12 keys with 5-bit digits took 1.06 ms, the earlier
    // 256 x 8 keys with 4-bit digits 1.53; 5 bits is 7 passes, not 8, and
    // a tile of 1536 keys spreads each digit's run over more of a line.
    if (!decided_by_tuning(plan, "work_group_size") && plan.local[0] > 128) {
      plan.local = {{128, 1, 1}};
      plan.macros["WG_SIZE"] = "128";
      plan.macros["WG_X"] = "128";
      plan.decide("work_group_size", "128", "sort.work-group-tiles", "tiles of 128 work-items");
    }
    s.items = static_cast<std::size_t>(space.chosen(plan, "ITEMS").value_or(12));
    s.digit_bits = tuned_bits ? static_cast<unsigned>(*tuned_bits) : 5;
    const std::size_t wg = plan.local[0];
    const std::size_t budget = device.local_mem_size ? device.local_mem_size / 2 : 0;
    const auto bytes = [&] { return sort_tile_local_bytes(wg, s.items, s.digit_bits, moved_bytes); };
    if (!tuned_bits)
      while (budget && s.digit_bits > 1 && bytes() > budget) --s.digit_bits;
    s.local_bytes = bytes();
    if (device.local_mem_size && s.local_bytes > device.local_mem_size) {
      s.digit_bits = 0;
      return s;
    }
    s.chunk = wg * s.items;
    s.units = (n + s.chunk - 1) / s.chunk;
    plan.decide("variant", "work-group tiles", "sort.work-group-tiles",
                std::to_string(s.units) + " tiles of " + std::to_string(s.chunk) + " keys (" + std::to_string(s.items) +
                    " a work-item) ranked in " + std::to_string(bytes()) +
                    " bytes of local memory, reordered there and written out digit by digit");
  }
  s.passes = (key_bits + s.digit_bits - 1) / s.digit_bits;
  if (s.variant == SortVariant::work_group_tiles) {
    const auto tuned_sweep = space.chosen(plan, "ONE_SWEEP");
    const bool atomics = DeviceLimits::of(device).global_atomics.value_or(true);
    // Measured on the H100 (2^26 keys, tools/gpu/sort_shapes.cpp): one sweep
    // took 4.0-4.4 ms against 3.5 for count + scan + scatter. Each digit's
    // look-back walks back a tile at a time, and 43,690 tiles make long
    // walks (6-bit digits: 5.9 ms). Only a tuning record turns it on.
    s.one_sweep = atomics && tuned_sweep && *tuned_sweep != 0;
    // The all-passes count: a few work-groups a compute unit, each walking
    // the keys by grid stride, so its local counters are merged into the
    // global ones once per group rather than once per tile.
    s.histogram_groups =
        std::min<std::size_t>(s.units, std::max<std::size_t>(device.compute_units, 1) * kHistogramGroupsPerUnit);
    if (!tuned_sweep)
      plan.decide("one_sweep", "no", "sort.one-sweep",
                  "count, scan and scatter each pass: measured faster than one sweep with look-back on the H100");
  }
  if (!tuned_bits)
    plan.decide("digit_bits", std::to_string(s.digit_bits),
                s.variant == SortVariant::work_item_chunks ? "sort.work-item-chunks" : "sort.work-group-tiles",
                std::to_string(s.passes) + " passes over " + std::to_string(key_bits) + " key bits, " +
                    std::to_string(std::size_t{1} << s.digit_bits) + " counters per " +
                    (s.variant == SortVariant::work_item_chunks ? "chunk" : "work-item of a tile"));
  return s;
}

SortLaunches plan_radix_sort(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& device,
                             const SortProblem& problem) {
  SortLaunches l;
  const std::size_t n = problem.n;
  const bool with_values = problem.value_bytes != 0;
  l.shape = choose_radix_sort(plan, space, device, n, problem.key_bits, problem.key_bytes + problem.value_bytes);
  const SortShape& s = l.shape;
  if (s.digit_bits == 0) {
    l.passes = l.histograms = plan;
    return l;
  }
  const bool tiles = s.variant == SortVariant::work_group_tiles;
  plan.macros["RADIX_BITS"] = std::to_string(s.digit_bits);
  plan.macros["KEY_KIND"] = std::to_string(problem.key_kind);
  plan.macros["KEY_BITS"] = std::to_string(8 * problem.key_bytes);
  plan.macros["VALUE_BITS"] = std::to_string(with_values ? 8 * problem.value_bytes : 32);
  plan.macros["DESCENDING"] = problem.descending ? "1" : "0";
  plan.macros["HAS_VALUES"] = with_values ? "1" : "0";
  plan.macros["SORT_TILES"] = tiles ? "1" : "0";
  if (tiles) plan.macros["ITEMS"] = std::to_string(s.items);
  plan.macros["ONE_SWEEP"] = s.one_sweep ? "1" : "0";
  if (s.one_sweep) plan.macros["PASSES"] = std::to_string(s.passes);
  const std::size_t wg = plan.local[0];
  plan.work_groups = tiles ? s.units : (s.units + wg - 1) / wg;
  plan.global = {{plan.work_groups * wg, 1, 1}};
  plan.items_per_work_item = tiles ? s.items : s.chunk;
  l.passes = plan;
  l.histograms = plan;
  if (s.one_sweep) {
    l.histograms.work_groups = s.histogram_groups;
    l.histograms.global = {{s.histogram_groups * wg, 1, 1}};
  }
  return l;
}

}  // namespace portacl
