// SPDX-License-Identifier: Apache-2.0
// The single-pass scan's tile (src/rules/scan_rules.hpp).
#include "rules/scan_rules.hpp"

#include "rules/coverage_rules.hpp"

#include <algorithm>
#include <string>

namespace portacl {

ScanTile choose_scan_tile(LaunchPlan& plan, const TuningSpace& space) {
  ScanTile tile;
  tile.bytes = static_cast<std::size_t>(space.value_in(plan, "SCAN_BYTES"));
  tile.keep = space.value_in(plan, "SCAN_KEEP") != 0;
  if (plan.device_class != DeviceClass::nvidia_gpu) return tile;
  // Measured on the H100 (2^26 floats, tools/gpu/scan_shapes.cpp): 2-element
  // vectors beat 4-element ones at every tile size (83% of copy against 71%
  // at 128 bytes, 80% against 77% at 64), and 128 bytes a work-item beat
  // 64 and 256; holding the tile and reading it twice differ by under 1%.
  const char* rule = "nvidia.scan-tiles";
  if (!decided_by_tuning(plan, "vector_width") && plan.vector_width > 2) {
    plan.vector_width = 2;
    plan.macros["VW"] = "2";
    plan.decide("vector_width", "2", rule, "2-element vectors: the look-back scan's loads and stores");
  }
  if (!plan.macros.count("SCAN_BYTES")) {
    tile.bytes = 128;
    plan.decide("SCAN_BYTES", "128", rule, "128 bytes of input per work-item: fewer tiles to look back over");
  }
  if (!plan.macros.count("SCAN_KEEP")) {
    tile.keep = true;
    plan.decide("SCAN_KEEP", "1", rule, "the tile held in registers: read once");
  }
  plan.macros["SCAN_BYTES"] = std::to_string(tile.bytes);
  plan.macros["SCAN_KEEP"] = tile.keep ? "1" : "0";
  return tile;
}

std::size_t choose_scan_chunk(LaunchPlan& plan, const TuningSpace& space, std::size_t n, std::size_t element_bytes) {
  const std::size_t vw = std::max<std::size_t>(plan.vector_width, 1);
  const std::size_t kib = static_cast<std::size_t>(space.value_in(plan, "SCAN_CHUNK_KIB"));
  const std::size_t cached = std::max<std::size_t>(kib * 1024 / element_bytes / vw, 1) * vw;
  const std::size_t units = std::max<std::size_t>(plan.work_groups, 1);
  const std::size_t spread = std::max<std::size_t>((n / units + vw - 1) / vw, 1) * vw;
  const std::size_t chunk = std::min(cached, spread);
  // One work-item a work-group: a chunk waits only for chunks whose
  // work-groups took their ticket first and so are running; no work-item
  // ever waits for another of its own group, whose order of execution
  // OpenCL leaves open.
  groups_of_one(plan);
  plan.decide("scan", "single pass, chunks of " + std::to_string(chunk) + " elements", "general.scan-chunks",
              chunk == cached ? std::to_string(kib) +
                                    " KiB of input a chunk: summed from memory, then scanned "
                                    "again from the core's cache"
                              : "n / " + std::to_string(units) +
                                    " elements a chunk: at least as many chunks as the "
                                    "work-groups the plan wants for balance");
  return chunk;
}

void limit_per_item_scan_vectors(LaunchPlan& plan) {
  if (decided_by_tuning(plan, "vector_width") || plan.vector_width <= 8) return;
  // PoCL on AVX-512, 2^22 elements: 16-lane vectors 2.1 ms for int (their
  // in-register prefix sums' shuffles cost more than they save), 8 lanes
  // 1.3 ms; float 1.2-1.3 ms either way.
  plan.vector_width = 8;
  plan.macros["VW"] = "8";
  plan.decide("vector_width", "8", "general.per-item-scan-vectors",
              "8-lane vectors: wider ones' in-register prefix sums cost more in shuffles than they save");
}

ScanLaunch plan_scan_launch(LaunchPlan plan, const TuningSpace& tunables, std::size_t n, std::size_t element_bytes,
                            std::size_t sum_bytes) {
  const auto ceil_div = [](std::size_t a, std::size_t b) { return (a + b - 1) / b; };
  ScanLaunch l;
  const bool per_item = plan.barrier_free_variant || !plan.use_local_memory;
  const std::string packed = sum_bytes == 4 ? "1" : "0";
  if (!per_item && plan.passes == 1) {
    l.variant = ScanVariant::lookback;
    const std::size_t wg = plan.work_group_size();
    const std::size_t bytes = choose_scan_tile(plan, tunables).bytes;
    const std::size_t vectors = std::max<std::size_t>(1, bytes / (plan.vector_width * element_bytes));
    l.span = wg * vectors * plan.vector_width;
    l.units = ceil_div(n, l.span);
    plan.work_groups = l.units;
    plan.global[0] = l.units * wg;
    plan.items_per_work_item = vectors;
    plan.macros["SCAN_VECTORS"] = std::to_string(vectors);
    plan.macros["STATUS_PACKED"] = packed;
    decide_single_pass_scan(plan, vectors * plan.vector_width, l.span);
  } else if (per_item && plan.passes == 1) {
    l.variant = ScanVariant::chunks;
    limit_per_item_scan_vectors(plan);
    l.span = choose_scan_chunk(plan, tunables, n, element_bytes);
    l.units = ceil_div(n, l.span);
    plan.work_groups = l.units;
    plan.global[0] = l.units;
    plan.items_per_work_item = l.span;
    plan.macros["STATUS_PACKED"] = packed;
  } else {
    l.variant = ScanVariant::reduce_then_scan;
    if (per_item) limit_per_item_scan_vectors(plan);
    const std::size_t wg = plan.work_group_size();
    // Blocks: contiguous, whole tiles, at most one per unit the plan offers.
    const std::size_t unit_limit = per_item ? plan.global[0] : plan.work_groups;
    const std::size_t granule = per_item ? 1 : wg * plan.vector_width;
    l.span = ceil_div(ceil_div(n, unit_limit), granule) * granule;
    l.units = ceil_div(n, l.span);
    plan.work_groups = per_item ? ceil_div(l.units, wg) : l.units;
    plan.global[0] = plan.work_groups * wg;
    plan.items_per_work_item = per_item ? l.span : ceil_div(l.span, wg);
  }
  l.plan = std::move(plan);
  return l;
}

}  // namespace portacl
