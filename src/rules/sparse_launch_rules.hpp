// SPDX-License-Identifier: Apache-2.0
/// \file
/// The sparse family's launches made whole from the choices of
/// sparse_rules.hpp: a CSR kernel's macros and grid, csr-block's and
/// csr-merge's passes, COO's ranges and the Krylov solvers' vector passes.
/// What a launch needs from the matrix (its blocks, long rows, merge
/// tiles) comes in as counts or as a function of the chosen unit; the
/// kernels' host code builds those arrays and launches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "rules/sparse_rules.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The team kernel over `rows` rows with `chosen`'s team (TEAM,
/// TEAM_SHUFFLE): a grid-stride over at most the plan's work-groups times
/// the team, no more than the rows' teams need.
void csr_team_launch(LaunchPlan& plan, const CsrTeam& chosen, std::size_t rows);

/// The CPU variant's vector width (csr_chunks_vector_width, VW) in `plan`;
/// returns the work-items its chunks are cut for (the plan's grid).
std::size_t csr_chunks_width(LaunchPlan& plan, double mean_row);
/// Its grid over `chunks` chunks of rows of a matrix of `nnz` entries: a
/// work-item a chunk (recorded).
void csr_chunks_launch(LaunchPlan& plan, std::size_t chunks, std::size_t nnz);

/// What csr-block's launches need from the matrix for a unit of `entries`
/// entries (a work-group's block) cut into pieces of `piece`: its blocks
/// of short rows, and its long rows with their segments.
struct CsrBlockCounts {
  std::size_t blocks = 0, long_rows = 0, segments = 0;
};
struct CsrBlockMatrix {
  std::function<std::uint64_t(std::size_t entries)> long_row_entries;  ///< entries in rows longer than a unit
  std::function<CsrBlockCounts(std::size_t entries, std::size_t piece)> counts;
};
/// csr-block's launches, made whole by one chooser: the work-group (rule
/// nvidia.csr-block-groups), the entries it stages (sparse.block-entries,
/// BLOCK_ENTRIES), the long rows' pieces (sparse.long-row-segments,
/// SEGMENT_ENTRIES), a grid-stride over the blocks and segments, how long
/// rows are finished (one pass where `plan.passes` is 1, else
/// `long_rows`, a work-item a long row; LONG_ROWS_SINGLE_PASS) and the
/// barriers `device` compiles (sparse.block-uniform-barriers). `device`:
/// the device it runs on; `planned_for`: the one whose class plans it.
/// Throws portacl::Error where even one entry a work-item does not fit
/// the local memory.
struct CsrBlockLaunches {
  LaunchPlan block, long_rows;
  bool second_pass = false;  ///< long_rows is launched
  std::size_t entries = 0, piece = 0;
};
CsrBlockLaunches csr_block_launches(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& device,
                                    const DeviceInfo& planned_for, std::size_t element_bytes,
                                    const CsrBlockMatrix& matrix);

/// csr-merge's launches: items per work-item (sparse.merge-path-tiles),
/// the matrix's `tiles_for(items a tile)` tiles and runs (rows cut between
/// tiles), a grid-stride over the tiles, and the runs finished in one pass
/// (`plan.passes` 1: SINGLE_PASS) or by `runs`, a work-item a run.
struct MergeCounts {
  std::size_t tiles = 0, runs = 0;
};
struct CsrMergeLaunches {
  LaunchPlan merge, runs;
  bool second_pass = false;
  std::size_t tile_items = 0;  ///< merge-path items a tile (a work-group's)
};
CsrMergeLaunches csr_merge_launches(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& device,
                                    std::size_t element_bytes,
                                    const std::function<MergeCounts(std::size_t tile_items)>& tiles_for);

/// COO's ranges of kCooPerWorkItem entries a work-item over `ranges`
/// ranges (COO_PER), staged a work-group at a time within `device`'s local
/// memory (else portacl::Error): at most the plan's work-groups.
constexpr std::size_t kCooPerWorkItem = 8;
void coo_ranges_launch(LaunchPlan& plan, const DeviceInfo& device, std::size_t ranges, std::size_t element_bytes);

/// The Krylov solvers' vector passes (one device's solver and a row
/// block's split passes alike): at most kMaxKrylovGroups work-groups,
/// since each leaves a partial sum that one work-group (or the host) adds
/// up; Jacobi preconditioning compiled in where asked (JACOBI).
constexpr std::size_t kMaxKrylovGroups = 1024;
void krylov_passes_launch(LaunchPlan& plan, bool jacobi);
/// The one-device solver's build: its stopping norm (MAX_NORM: the largest
/// |r_i|, else ||r||_2) and method (BICGSTAB, else CG).
void krylov_solver_build(LaunchPlan& plan, bool max_norm, bool bicgstab);
/// CG's fused product and dot over a row format's arrays: DIA's diagonals
/// (FUSED_DIA) or ELL's, column-major (ELL_COLUMN_MAJOR) and with row
/// lengths (ELL_R) as the format stores them.
void krylov_fused_product_build(LaunchPlan& plan, bool dia, bool column_major, bool row_lengths);

}  // namespace portacl
