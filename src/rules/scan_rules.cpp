// SPDX-License-Identifier: Apache-2.0
// The single-pass scan's tile (src/rules/scan_rules.hpp).
#include "rules/scan_rules.hpp"

#include <string>

namespace portacl {

ScanTile choose_scan_tile(LaunchPlan& plan, const TuningSpace& space) {
  ScanTile tile;
  tile.bytes = static_cast<std::size_t>(space.value_in(plan, "SCAN_BYTES"));
  tile.keep = space.value_in(plan, "SCAN_KEEP") != 0;
  if (plan.device_class != DeviceClass::nvidia_gpu) return tile;
  // Measured on the H100 (2^26 floats, .ci/scan_shapes.cpp): 2-element
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

}  // namespace portacl
