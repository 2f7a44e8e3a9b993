// SPDX-License-Identifier: Apache-2.0
/// \file
/// The single-pass scan's tile: how many elements each work-item takes, in
/// vectors of how many, and whether it holds them in registers between
/// reading and writing (rule nvidia.scan-tiles on NVIDIA GPUs; elsewhere
/// the tuning space's fallbacks). A tuned knob replaces the rule.
#pragma once

#include <cstddef>

#include "portacl/rules/launch_plan.hpp"
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

/// The barrier-free (per work-item) scan's vectors: at most 8 lanes unless
/// tuned (rule general.per-item-scan-vectors). Sets the plan's vector width and VW.
void limit_per_item_scan_vectors(LaunchPlan& plan);

}  // namespace portacl
