// SPDX-License-Identifier: Apache-2.0
// The sparse kernels' device-dependent choices (sparse family): the CSR
// team and how it adds up, csr-block's staged entries, the CPU variant's
// vectors and chunks, the adaptive bins, and the records of the format
// kernels (ELL, HYB, COO, DIA) and of a forced or tuned method. The host
// code in src/kernels/sparse validates, asks these, prepares and launches.
#include <algorithm>
#include <string>

#include "portacl/rules/mapping_rules.hpp"
#include "rules/sparse_rules.hpp"

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

std::size_t csr_block_entries(LaunchPlan& plan, const DeviceInfo& device, std::size_t element_bytes) {
  const std::size_t wg = plan.local[0];
  std::size_t entries = 4 * wg;
  const std::size_t local = device.local_mem_size;
  while (local && entries > wg && (entries + wg) * element_bytes > local) entries /= 2;
  if (local && (entries + wg) * element_bytes > local) return 0;
  plan.decide("block_entries", std::to_string(entries), "sparse.block-entries",
              std::to_string(entries * element_bytes + wg * element_bytes) + " bytes of local memory per work-group");
  return entries;
}

std::size_t long_row_piece(std::size_t block_entries) { return 8 * block_entries; }

void decide_long_row_segments(LaunchPlan& plan, std::size_t rows, std::size_t segments, std::size_t entries,
                              std::size_t piece) {
  if (rows == 0) return;
  plan.decide("long_rows", std::to_string(rows) + " in " + std::to_string(segments) + " segments",
              "sparse.long-row-segments",
              "rows of more than " + std::to_string(entries) + " entries are cut into pieces of " +
                  std::to_string(piece) + ", each a work-group's, and a second pass adds them up");
}

bool publish_needs_nv_membar(const DeviceInfo& device) { return (sub_group_ops_of(device) & warp_shuffle) != 0; }

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
