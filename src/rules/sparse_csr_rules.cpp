// SPDX-License-Identifier: Apache-2.0
// The sparse kernels' device-dependent choices (sparse family): the CSR
// team and how it adds up, csr-block's staged entries, the CPU variant's
// vectors and chunks, the adaptive bins, and the records of the format
// kernels (ELL, HYB, COO, DIA) and of a forced or tuned method. The host
// code in src/kernels/sparse validates, asks these, prepares and launches.
#include <algorithm>
#include <string>

#include "portacl/plan.hpp"
#include "rules/sparse_rules.hpp"
#include "rules/quirks.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

namespace {

// The largest power of two at most `team` that divides the work-group.
std::size_t team_within(std::size_t team, std::size_t work_group) {
  while (team > 1 && (team > work_group || work_group % team)) team /= 2;
  return team;
}

CsrTeam team_of(LaunchPlan& plan, const DeviceInfo& device, std::size_t wanted, const char* rule,
                const std::string& why) {
  const std::size_t wg = plan.local[0];
  CsrTeam t;
  t.team = team_within(wanted, wg);
  plan.decide("row_team", std::to_string(t.team), rule, why);
  // NVIDIA's own compiler: the team adds up in registers (warp shuffles).
  t.shuffle = (sub_group_ops_of(device) & warp_shuffle) && wg % 32 == 0 && t.team <= 32;
  if (t.shuffle)
    plan.decide("team_sum", "warp shuffle", "nvidia.warp-shuffle", "the team's partial sums meet in registers");
  return t;
}

}  // namespace

CsrTeam csr_vector_team(LaunchPlan& plan, const DeviceInfo& device, double mean_row, std::size_t sub_group) {
  return team_of(plan, device, vector_team(mean_row, sub_group), "sparse.vector-team",
                 "the next power of two at or above the mean row length, within a sub-group");
}

CsrTeam csr_bin_team(LaunchPlan& plan, const DeviceInfo& device, std::size_t bin, std::size_t rows,
                     std::size_t sub_group) {
  const std::size_t wanted = bin == 2 ? 8 : bin == 3 ? sub_group : std::size_t{1} << 20;
  return team_of(plan, device, wanted, "sparse.adaptive-bins",
                 "bin " + std::to_string(bin) + ": " + std::to_string(rows) + " rows");
}

void decide_csr_row_bins(LaunchPlan& plan, const std::string& shares) {
  plan.decide("row_bins", shares, "sparse.adaptive-bins",
              "rows per non-empty bin (0, 1-7, 8-31, 32-128, >128 entries), each bin on its own queue");
}

std::size_t csr_block_entries(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device,
                              std::size_t element_bytes) {
  const std::size_t wg = plan.local[0];
  std::size_t entries = static_cast<std::size_t>(space.chosen(plan, "BLOCK_PER_ITEM").value_or(4)) * wg;
  const std::size_t local = device.local_mem_size;
  while (local && entries > wg && (entries + wg) * element_bytes > local) entries /= 2;
  if (local && (entries + wg) * element_bytes > local) return 0;
  plan.decide("block_entries", std::to_string(entries), "sparse.block-entries",
              std::to_string(entries * element_bytes + wg * element_bytes) + " bytes of local memory per work-group");
  return entries;
}

void decide_csr_block_barriers(LaunchPlan& plan, const DeviceInfo& device) {
  const bool uniform = quirk("pocl.barrier-loop-in-branch").applies(device);
  plan.macros["UNIFORM_BARRIERS"] = uniform ? "1" : "0";
  if (uniform)
    plan.decide("uniform_barriers", "1", "sparse.block-uniform-barriers",
                "PoCL (quirk pocl.barrier-loop-in-branch): every work-group runs every barrier of a unit");
}

void csr_block_work_group(LaunchPlan& plan) {
  // Measured on the H100 (tools/gpu/spmv_shapes.cpp, web-like graph, two draws):
  // 128 work-items 0.085-0.089 ms against 0.093-0.099 with 256; circuit-
  // and power-law matrices within 1-2% either way.
  if (plan.device_class != DeviceClass::nvidia_gpu || decided_by_tuning(plan, "work_group_size") ||
      plan.local[0] <= 128)
    return;
  plan.local = {{128, 1, 1}};
  plan.macros["WG_SIZE"] = "128";
  plan.macros["WG_X"] = "128";
  plan.decide("work_group_size", "128", "nvidia.csr-block-groups",
              "128 work-items: more work-groups resident per SM to wait on the gathers of x");
}

std::size_t long_row_piece(const LaunchPlan& plan, const TuningSpace& space, std::size_t block_entries,
                           std::uint64_t long_row_entries, std::size_t compute_units) {
  if (const auto tuned = space.chosen(plan, "SEGMENT_UNITS")) return static_cast<std::size_t>(*tuned) * block_entries;
  // A piece's gathers queue at one compute unit: long rows cut into fewer
  // pieces than compute units leave most of the device idle while a few
  // work through them (H100, 16 rows of 62505 entries: 0.061 ms in 64
  // pieces, 0.044 in 128, 0.037 in 256).
  std::size_t units = 8;
  while (units > 2 && long_row_entries / (units * block_entries) < 2 * compute_units) units /= 2;
  return units * block_entries;
}

void decide_long_row_segments(LaunchPlan& plan, std::size_t rows, std::size_t segments, std::size_t entries,
                              std::size_t piece) {
  if (rows == 0) return;
  plan.decide("long_rows", std::to_string(rows) + " in " + std::to_string(segments) + " segments",
              "sparse.long-row-segments",
              "rows of more than " + std::to_string(entries) + " entries are cut into pieces of " +
                  std::to_string(piece) + " (8 units, fewer where that leaves under 2 pieces per compute unit), " +
                  "each a work-group's; their sums are added up in order");
}

std::size_t csr_merge_local_bytes(std::size_t work_group, std::size_t items, std::size_t element_bytes) {
  // Products and row ends of the tile, a carry and a flag per work-item,
  // and the runs a tile finishes.
  const std::size_t tile = work_group * items;
  return tile * element_bytes + (tile + 1) * 4 + work_group * (element_bytes + 1) + 8;
}

std::size_t csr_merge_items(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device,
                            std::size_t element_bytes) {
  const std::size_t wg = plan.local[0], local = device.local_mem_size;
  const auto fits = [&](std::size_t items) {
    return !local || csr_merge_local_bytes(wg, items, element_bytes) <= local;
  };
  if (const auto tuned = space.chosen(plan, "IPT")) {
    const auto items = static_cast<std::size_t>(*tuned);
    return fits(items) ? items : 0;
  }
  // Enough items that the binary searches and the carries are a small part
  // of a work-item's work, few enough that a tile's staged products fit
  // the local memory of several resident work-groups.
  std::size_t items = element_bytes <= 4 ? 7 : 5;
  while (items > 1 && !fits(items)) --items;
  if (!fits(items)) return 0;
  plan.macros["IPT"] = std::to_string(items);
  plan.decide(
      "IPT", std::to_string(items), "sparse.merge-path-tiles",
      std::to_string(csr_merge_local_bytes(wg, items, element_bytes)) + " bytes of local memory per work-group");
  return items;
}

void decide_merge_tiles(LaunchPlan& plan, std::size_t tiles, std::size_t items, bool single_pass) {
  plan.decide("merge_tiles", std::to_string(tiles) + " of " + std::to_string(items) + " items",
              "sparse.merge-path-tiles",
              std::string("rows' ends and entries in equal shares whatever the row lengths; rows cut between tiles ") +
                  (single_pass ? "finished by the last of their tiles to finish" : "finished by a second launch"));
}

std::size_t csr_chunks_vector_width(LaunchPlan& plan, std::size_t planned, double mean_row) {
  // Vectors pay only on rows of several vectors: a short row's head and
  // tail loops and its gathers cost more than they save (PoCL on 2 cores:
  // 0.19 against 0.46 ms at 5 entries per row, VW 1 against 4).
  std::size_t vw = std::min<std::size_t>(8, planned);  // gathers written for 2 to 8 lanes
  if (mean_row < 4.0 * double(vw)) vw = 1;
  plan.decide("vector_width", std::to_string(vw), "sparse.csr-cpu-chunks",
              vw == 1 ? "rows average fewer than 4 vectors: scalar walks" : "rows average 4 vectors or more");
  return vw;
}

void decide_csr_chunks(LaunchPlan& plan, std::size_t chunks, std::size_t nnz) {
  plan.decide(
      "row_chunks", std::to_string(chunks), "sparse.csr-cpu-chunks",
      "about " + std::to_string((nnz + chunks - 1) / std::max<std::size_t>(chunks, 1)) + " entries per work-item");
}

void decide_ell(LaunchPlan& plan, bool column_major, std::size_t width, bool row_lengths, bool hyb) {
  plan.decide("ell_layout", column_major ? "column-major" : "row-major", "sparse.ell-layout",
              std::to_string(width) + " slots per row" + (row_lengths ? ", row lengths read" : ""));
  if (hyb) plan.decide("ell_width", std::to_string(width), "sparse.hyb-width", "HYB's ELL part");
}

void decide_coo_ranges(LaunchPlan& plan, std::size_t ranges, std::size_t per) {
  plan.decide("coo_ranges", std::to_string(ranges) + " of " + std::to_string(per) + " entries", "general.grid-stride",
              "staged a work-group at a time; each range adds its inner rows, rows shared between ranges are added "
              "once afterwards");
}

void decide_dia(LaunchPlan& plan, std::size_t diagonals) {
  plan.decide("diagonals", std::to_string(diagonals), "sparse.dia-banded",
              "one value per row and diagonal, no column indices");
}

void decide_forced_spmv_method(LaunchPlan& plan, const std::string& method) {
  plan.decide("spmv_method", method, "caller.choice", "forced by the caller");
}

Decision tuned_spmv_method(const std::string& method, const LaunchPlan& choice_plan) {
  return {"spmv_method", method, "tuning.override", choice_plan.provenance + " for " + choice_plan.traits.name};
}

}  // namespace portacl
