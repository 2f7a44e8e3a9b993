// SPDX-License-Identifier: Apache-2.0
// How the triangular solve and the packed symmetric product are laid out on
// a device (src/kernels/trsv.cpp and packed_symv.cpp carry them out). Each
// choice records its decision and rule in the plan.
#pragma once

#include <cstddef>
#include <string>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// TRSV's launches, whole: a block of BLOCK unknowns solved by one
/// work-group (`solve`), then the rows below it updated by teams of TPR
/// work-items a row (`update`, at most `update.work_groups` groups:
/// trsv_update_grid gives each launch's). Under a barrier-free plan (CPUs)
/// the CPU form instead: one launch of `solve` ("trsv_chain"), a work-item
/// per block of rule cpu.trsv-blocks, no tiles, no teams.
struct TrsvLaunches {
  LaunchPlan solve;
  LaunchPlan update;
  std::size_t block = 0;
  std::size_t tpr = 0;
  /// The CPU form: `blocks` blocks chained in one launch, their unknowns
  /// `solved_stride` elements apart in the solved scratch (whole lines).
  bool chained = false;
  std::size_t blocks = 0;
  std::size_t solved_stride = 0;
  std::string solve_kernel = "trsv_block", update_kernel = "trsv_update";
};

/// The solve of order n > 0 under `plan` (tuned knobs from `space`): BLOCK
/// tuned, else (CPU form) rule cpu.trsv-blocks, else the sub-group width of
/// `rules_device` (rule sub_group_width), halved until its work-group fits `limits_device` and
/// its tile (block (block + 2) elements of `element_bytes`) its local
/// memory; TPR tuned, else rule update_row_team for rows `row_stride`
/// elements apart. A tuned TPR that is not a power of two dividing the
/// work-group is refused.
TrsvLaunches plan_trsv_launches(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& rules_device,
                                const DeviceInfo& limits_device, std::size_t n, std::size_t element_bytes,
                                std::size_t row_stride);

/// The update after a block, `rows_left` rows below it: just enough of
/// `l.update`'s work-groups to give each row its team.
LaunchPlan trsv_update_grid(const TrsvLaunches& l, std::size_t rows_left);

/// The packed symmetric product's launches, whole: blocks of the stored
/// triangle (`blocks`) and the combination of their partial sums
/// (`combine`). Under a barrier-free plan (CPUs) `blocks` is the rows
/// form instead: `slices` work-items, each a slice of whole rows and a
/// vector of n partial sums.
struct PackedSymvLaunches {
  LaunchPlan blocks;
  LaunchPlan combine;
  std::size_t block = 0;
  std::size_t block_rows = 0;  ///< ceil(n / block)
  std::size_t slices = 0;      ///< the rows form's work-items (0: the blocks form)
  /// The kernels the two launches run (packed_symv.cl's entry points).
  std::string blocks_kernel = "packed_symv_blocks", combine_kernel = "packed_symv_combine";
};

/// The product of order n > 0 under `plan`: BLOCK (tuned or its fallback)
/// halved until it divides the work-group; at most a work-group a block of
/// the triangle (rule general.grid-stride); the combination over the rows.
/// Blocks whose tiles exceed `device`'s local memory are refused. A
/// barrier-free plan (rule cpu.avoid-barriers) takes the rows form: one
/// work-item a work-group, as many as the plan's work-groups, at most one
/// per 8 rows (the partial sums stay a quarter of the stored triangle or less).
PackedSymvLaunches plan_packed_symv_launches(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& device,
                                             std::size_t n, std::size_t element_bytes);

}  // namespace portacl
