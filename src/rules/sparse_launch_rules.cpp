// SPDX-License-Identifier: Apache-2.0
// The sparse family's launches made whole (src/rules/sparse_launch_rules.hpp).
#include "rules/sparse_launch_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/error.hpp"
#include "rules/coverage_rules.hpp"

namespace portacl {

namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace

void csr_team_launch(LaunchPlan& plan, const CsrTeam& chosen, std::size_t rows) {
  const std::size_t wg = plan.local[0], team = chosen.team;
  plan.macros["TEAM"] = std::to_string(team);
  plan.macros["TEAM_SHUFFLE"] = chosen.shuffle ? "1" : "0";
  const std::size_t teams = wg / team;
  grid_of_groups(plan, std::min(ceil_div(rows, teams), plan.work_groups * team));
}

std::size_t csr_chunks_width(LaunchPlan& plan, double mean_row) {
  const std::size_t vw = csr_chunks_vector_width(plan, std::stoul(plan.macros.at("VW")), mean_row);
  plan.macros["VW"] = std::to_string(vw);
  plan.vector_width = static_cast<unsigned>(vw);
  return plan.work_groups * plan.local[0];
}

void csr_chunks_launch(LaunchPlan& plan, std::size_t chunks, std::size_t nnz) {
  grid_of_groups(plan, ceil_div(chunks, plan.local[0]));
  decide_csr_chunks(plan, chunks, nnz);
}

CsrBlockLaunches csr_block_launches(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& device,
                                    const DeviceInfo& planned_for, std::size_t element_bytes,
                                    const CsrBlockMatrix& matrix) {
  CsrBlockLaunches l;
  csr_block_work_group(plan);
  const std::size_t wg = plan.local[0];
  l.entries = csr_block_entries(plan, space, device, element_bytes);
  if (l.entries == 0)
    throw Error("spmv csr-block: " + std::to_string(wg) + " work-items need more local memory than '" + device.name +
                "' has (" + std::to_string(device.local_mem_size) + " bytes)");
  plan.macros["BLOCK_ENTRIES"] = std::to_string(l.entries);
  l.piece = long_row_piece(plan, space, l.entries, matrix.long_row_entries(l.entries), planned_for.compute_units);
  plan.macros["SEGMENT_ENTRIES"] = std::to_string(l.piece);
  const CsrBlockCounts counts = matrix.counts(l.entries, l.piece);
  decide_long_row_segments(plan, counts.long_rows, counts.segments, l.entries, l.piece);
  grid_of_groups(plan, std::min(counts.blocks + counts.segments, plan.work_groups * 8));
  const bool single_pass = plan.passes == 1;
  plan.macros["LONG_ROWS_SINGLE_PASS"] = single_pass ? "1" : "0";
  decide_csr_block_barriers(plan, device);  // the compiler it meets
  l.second_pass = counts.long_rows && !single_pass;
  if (l.second_pass) {
    l.long_rows = plan;
    grid_of_groups(l.long_rows, ceil_div(counts.long_rows, wg));
  }
  l.block = std::move(plan);
  return l;
}

CsrMergeLaunches csr_merge_launches(LaunchPlan plan, const TuningSpace& space, const DeviceInfo& device,
                                    std::size_t element_bytes,
                                    const std::function<MergeCounts(std::size_t tile_items)>& tiles_for) {
  CsrMergeLaunches l;
  const std::size_t wg = plan.local[0];
  const std::size_t items = csr_merge_items(plan, space, device, element_bytes);
  if (items == 0)
    throw Error("spmv csr-merge: " + std::to_string(wg) + " work-items need more local memory than '" + device.name +
                "' has (" + std::to_string(device.local_mem_size) + " bytes)");
  l.tile_items = wg * items;
  const MergeCounts tiles = tiles_for(l.tile_items);
  grid_of_groups(plan, std::min(tiles.tiles, plan.work_groups * 8));
  const bool single_pass = plan.passes == 1;
  decide_merge_tiles(plan, tiles.tiles, l.tile_items, single_pass);
  plan.macros["SINGLE_PASS"] = single_pass ? "1" : "0";
  l.second_pass = !single_pass && tiles.runs;
  if (l.second_pass) {
    l.runs = plan;
    grid_of_groups(l.runs, ceil_div(tiles.runs, wg));
  }
  l.merge = std::move(plan);
  return l;
}

void coo_ranges_launch(LaunchPlan& plan, const DeviceInfo& device, std::size_t ranges, std::size_t element_bytes) {
  const std::size_t wg = plan.local[0];
  const std::size_t local = device.local_mem_size, stage = wg * kCooPerWorkItem * (element_bytes + 4);
  if (local && stage > local)
    throw Error("spmv coo: " + std::to_string(wg) + " work-items stage " + std::to_string(stage) +
                " bytes of local memory; '" + device.name + "' has " + std::to_string(local));
  plan.macros["COO_PER"] = std::to_string(kCooPerWorkItem);
  grid_of_groups(plan, std::min(plan.work_groups, ceil_div(ranges, wg)));
}

void krylov_passes_launch(LaunchPlan& plan, bool jacobi) {
  grid_of_groups(plan, std::min(plan.work_groups, kMaxKrylovGroups));
  plan.macros["JACOBI"] = jacobi ? "1" : "0";
}

void krylov_solver_build(LaunchPlan& plan, bool max_norm, bool bicgstab) {
  plan.macros["MAX_NORM"] = max_norm ? "1" : "0";
  plan.macros["BICGSTAB"] = bicgstab ? "1" : "0";
}

void krylov_fused_product_build(LaunchPlan& plan, bool dia, bool column_major, bool row_lengths) {
  plan.macros["FUSED_DIA"] = dia ? "1" : "0";
  plan.macros["ELL_COLUMN_MAJOR"] = column_major ? "1" : "0";
  plan.macros["ELL_R"] = row_lengths ? "1" : "0";
}

}  // namespace portacl
