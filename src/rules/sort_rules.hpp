// SPDX-License-Identifier: Apache-2.0
// How a radix sort is laid out on a device (src/kernels/sort.cpp carries it
// out): who owns a share of the keys (a work-item's chunk or a work-group's
// tile), the digit width and so the passes. Each choice records its
// decision and rule in the plan.
#pragma once

#include <cstddef>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

enum class SortVariant {
  work_item_chunks,  ///< a work-item counts and moves a contiguous chunk, private counters
  work_group_tiles,  ///< a work-group ranks a tile in local memory and writes it out in digit order
};

struct SortShape {
  SortVariant variant = SortVariant::work_item_chunks;
  unsigned digit_bits = 0;           ///< bits sorted per pass
  unsigned passes = 0;               ///< ceil(key_bits / digit_bits)
  std::size_t units = 0;             ///< chunks or tiles: the counts are 2^digit_bits x units
  std::size_t chunk = 0;             ///< keys per unit
  std::size_t items = 0;             ///< tiles: keys per work-item
  std::size_t local_bytes = 0;       ///< tiles: local memory a work-group takes (or would, where digit_bits is 0)
  bool one_sweep = false;            ///< tiles: one launch a pass, digit offsets by look-back (rule sort.one-sweep)
  std::size_t histogram_groups = 0;  ///< one sweep: work-groups of the all-passes digit count
};

/// Local memory a tile work-group of `work_group` work-items, `items` keys
/// each, digits of `digit_bits` and `moved_bytes` per key (the key's 4 or 8,
/// and 4 more with values) takes: a counter per digit and work-item (padded against bank
/// conflicts), the reordered tile, a base per digit, the scan's scratch.
std::size_t sort_tile_local_bytes(std::size_t work_group, std::size_t items, unsigned digit_bits,
                                  std::size_t moved_bytes);

/// The layout of a sort of `n` keys (n >= 2) of which `key_bits` matter,
/// moving `moved_bytes` per key, under `plan` (tuned knobs from `space`):
///   barrier-free plans (CPUs, Xeon Phi): chunks of at least 4096 keys, one
///   per work-item the plan offers, 8-bit digits (rule sort.work-item-chunks);
///   others: tiles of 128 work-items (unless tuned) of 12 keys each and
///   5-bit digits, narrower
///   while the tile's local memory would exceed half the device's (rule
///   sort.work-group-tiles).
/// Tiles on a device with global atomics may sort in one sweep: the digit
/// counts of every pass from one read of the keys, then one launch a pass
/// that finds its tile's places by decoupled look-back. Measured slower
/// on the H100, it runs only where tuned (ONE_SWEEP 1; rule sort.one-sweep).
/// A tuned RADIX_BITS or ITEMS replaces the rule's; digit_bits 0 when even
/// 1-bit digits of a tuned tile do not fit.
SortShape choose_radix_sort(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device, std::size_t n,
                            unsigned key_bits, std::size_t moved_bytes);

/// What a sort call sorts: n keys of `key_bytes` (4 or 8) of which
/// `key_bits` matter, of a kind (0 unsigned, 1 signed, 2 floating point),
/// carrying values of `value_bytes` (0: none, 4 or 8), ascending or
/// descending.
struct SortProblem {
  std::size_t n = 0;
  unsigned key_bits = 32;
  int key_kind = 0;
  std::size_t key_bytes = 4;
  std::size_t value_bytes = 0;
  bool descending = false;
};

/// A sort's launches, whole: `passes` runs sort_count and sort_scatter (or
/// sort_onesweep) each pass; `histograms` the one sweep's all-passes count.
struct SortLaunches {
  SortShape shape;
  LaunchPlan passes;
  LaunchPlan histograms;
};

/// choose_radix_sort, then the plans made whole: the shape's macros
/// (RADIX_BITS, SORT_TILES, ITEMS, ONE_SWEEP, PASSES) and the problem's
/// (KEY_KIND, KEY_BITS and VALUE_BITS: 32 or 64, DESCENDING, HAS_VALUES),
/// a work-group a tile
/// or a work-item a chunk, the keys each work-item takes; the one sweep's
/// count over `shape.histogram_groups` work-groups. n >= 2; where
/// shape.digit_bits is 0 (a tuned tile that does not fit) the plans are
/// left as planned.
SortLaunches plan_radix_sort(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& device,
                             const SortProblem& problem);

}  // namespace portacl
