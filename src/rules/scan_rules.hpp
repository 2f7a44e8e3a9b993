// SPDX-License-Identifier: Apache-2.0
/// \file
/// The single-pass scan's tile: how many elements each work-item takes, in
/// vectors of how many, and whether it holds them in registers between
/// reading and writing (rule nvidia.scan-tiles on NVIDIA GPUs; elsewhere
/// the tuning space's fallbacks). A tuned knob replaces the rule.
#pragma once

#include <cstddef>

#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The look-back tile of a plan: bytes of input per work-item and whether
/// the tile stays in registers.
struct ScanTile {
  std::size_t bytes = 0;
  bool keep = false;
};

/// Chooses the tile for the single pass under `plan` (from `tunables`'
/// knobs where tuned): on NVIDIA GPUs 2-element vectors and 128 bytes per
/// work-item held in registers, which may lower the plan's vector width;
/// elsewhere the fallbacks. Sets the macros VW, SCAN_BYTES and SCAN_KEEP.
ScanTile choose_scan_tile(LaunchPlan& plan, const TuningSpace& tunables);

/// The CPU single pass (scan_chunks): elements per chunk, each chunk a
/// work-group of one work-item (rule general.scan-chunks). The chunk is
/// SCAN_CHUNK_KIB of input (tuned, else its fallback), smaller where `n`
/// would otherwise make fewer chunks than the plan's `plan.work_groups`
/// (what balances the load); always whole vectors of the plan's width. Sets the plan's
/// one-work-item groups and their macros.
std::size_t choose_scan_chunk(LaunchPlan& plan, const TuningSpace& tunables, std::size_t n, std::size_t element_bytes);

/// The barrier-free (per work-item) scan's vectors: at most 8 lanes unless
/// tuned (rule general.per-item-scan-vectors). Sets the plan's vector width and VW.
void limit_per_item_scan_vectors(LaunchPlan& plan);

enum class ScanVariant {
  none,              ///< nothing to scan (n = 0): the plan alone
  lookback,          ///< single pass over tiles of a work-group, decoupled look-back (scan_lookback)
  chunks,            ///< single pass over chunks of one work-item (scan_chunks, CPUs)
  reduce_then_scan,  ///< a block's total, then each block scanned from its prefix (scan_totals, scan_blocks)
};

/// A scan's launch, whole: the variant, its plan (macros, grid, grain) and
/// how many tiles, chunks or blocks it covers n with (the status words or
/// totals it needs) of `span` elements each.
struct ScanLaunch {
  ScanVariant variant = ScanVariant::none;
  LaunchPlan plan;
  std::size_t units = 0;
  std::size_t span = 0;
};

/// The scan of n > 0 elements of `element_bytes` whose sums are
/// `sum_bytes` wide, under `plan` (its class's rules, `tunables`' knobs):
/// a single pass where the plan asks one, tiled with look-back where the
/// work-group shares local memory (choose_scan_tile, rule
/// general.single-pass-combine), in chunks where it is barrier-free
/// (choose_scan_chunk); else reduce-then-scan over at most one block a
/// unit the plan offers, in whole tiles. Sets every macro (SCAN_VECTORS,
/// STATUS_PACKED, the tile's) and the grid.
ScanLaunch plan_scan_launch(LaunchPlan plan, const TuningSpace& tunables, std::size_t n, std::size_t element_bytes,
                            std::size_t sum_bytes);

}  // namespace portacl
