// SPDX-License-Identifier: Apache-2.0
/// The named rules that pick how a sparse matrix-vector product is done
/// on a device (portacl/rules/sparse_method.hpp lists the ways) from a
/// matrix's structure (its row-length statistics and diagonals) and the
/// device class. Each choice names its rule, as a launch plan does.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "rules/row_team.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The method whose METHOD knob value is `value` (spmv_method_tunables:
/// each method's value is fixed, and records store its name); throws
/// portacl::Error for a value no method has.
SpmvMethod spmv_method_of_value(long value);
/// HYB's ELL width K: rule sparse.hyb-width.
std::size_t hyb_ell_width(const SparseShape& shape);

/// ELL's layout: column-major (entry k of every row together) on GPUs and
/// MIC, row-major on CPUs. Rule sparse.ell-layout.
bool ell_column_major(DeviceClass device_class);

/// The method the rules pick for `shape` on a device of `device_class`.
SpmvChoice choose_spmv_method(const SparseShape& shape, DeviceClass device_class);

/// The class of matrix statistics a tuned method is stored for:
/// "banded", else "short" (mean row of 16 or fewer entries) or "long",
/// then "-regular" or "-irregular" (row lengths' standard deviation above
/// half their mean). With the size bucket of the entries, it is the
/// tuning key's bucket of matrix statistics.
std::string spmv_statistics_class(const SparseShape& shape);
/// The SpMV choice as a tunable kernel: name "spmv_method.<class>", one
/// knob, METHOD (stored by the method's name); the problem size is the
/// number of entries.
KernelTraits spmv_method_traits(const SparseShape& shape, ElementType element);
const TuningSpace& spmv_method_tunables();

/// Work-items per row team for the vector variant: the next power of two
/// at or above the mean row length, from 2 up to `sub_group` (warp 32,
/// wavefront 64). Rule sparse.vector-team.
std::size_t vector_team(double mean_row, std::size_t sub_group);

/// The CSR kernels' device-dependent choices (src/rules/sparse_csr_rules.cpp);
/// each records its decision in `plan`.
/// Work-items per row of the team kernel and how their partial sums meet.
struct CsrTeam {
  std::size_t team = 1;
  bool shuffle = false;  ///< NVIDIA's warp shuffles add the team up in registers
};
/// The vector variant's team: vector_team(mean_row, sub_group) within the
/// work-group (rule sparse.vector-team), with shuffles where they apply
/// (rule nvidia.warp-shuffle: the device has them, the work-group is a
/// multiple of 32, the team fits a warp).
CsrTeam csr_vector_team(LaunchPlan& plan, const DeviceInfo& device, double mean_row, std::size_t sub_group);
/// The adaptive variant's team for length bin `bin` (2: 8 work-items, 3: a
/// sub-group, 4: the work-group) of `rows` rows (rule sparse.adaptive-bins).
CsrTeam csr_bin_team(LaunchPlan& plan, const DeviceInfo& device, std::size_t bin, std::size_t rows,
                     std::size_t sub_group);
/// Records the adaptive variant's rows per non-empty bin ("row_bins").
void decide_csr_row_bins(LaunchPlan& plan, const std::string& shares);
/// Entries a csr-block work-group stages in local memory: 4 per work-item
/// (a tuned BLOCK_PER_ITEM where the plan has one), halved until they and
/// the work-group's sums fit the device's local memory (rule
/// sparse.block-entries). 0 when even one per work-item does not fit.
/// `space` is the kernel's tuning declaration (csr_block_tunables()).
std::size_t csr_block_entries(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device,
                              std::size_t element_bytes);
/// csr-block's work-group on NVIDIA GPUs: 128 work-items, unless tuned or
/// already smaller (rule nvidia.csr-block-groups); recorded in `plan`.
void csr_block_work_group(LaunchPlan& plan);
/// UNIFORM_BARRIERS for csr_block on the device it runs on (rule
/// sparse.block-uniform-barriers, after quirk pocl.barrier-loop-in-branch).
void decide_csr_block_barriers(LaunchPlan& plan, const DeviceInfo& device);
/// The entries of a piece of a row longer than the block variant's unit of
/// `block_entries` (nothing is staged, so the whole group's reduction is
/// paid once per piece): 8 units, halved down to 2 while the rows'
/// `long_row_entries` would make fewer than 2 pieces per compute unit; a
/// tuned SEGMENT_UNITS wins. Rule sparse.long-row-segments.
std::size_t long_row_piece(const LaunchPlan& plan, const TuningSpace& space, std::size_t block_entries,
                           std::uint64_t long_row_entries, std::size_t compute_units);
/// Records how the block variant takes rows longer than a unit of
/// `entries`: cut into `segments` pieces of `piece` summed by whole
/// work-groups, and a second pass adding each row's pieces in order (rule
/// sparse.long-row-segments).
void decide_long_row_segments(LaunchPlan& plan, std::size_t rows, std::size_t segments, std::size_t entries,
                              std::size_t piece);
/// csr-merge's merge-path items (entries and row ends) per work-item: a
/// tuned IPT where the plan has one, else 7 for 4-byte values and 5 for
/// 8-byte ones; fewer until the tile's products, row ends and carries fit
/// the device's local memory (rule sparse.merge-path-tiles). 0 when even
/// one item per work-item does not fit.
std::size_t csr_merge_items(LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device,
                            std::size_t element_bytes);
/// Local memory a csr-merge work-group of `work_group` work-items with
/// `items` items each takes.
std::size_t csr_merge_local_bytes(std::size_t work_group, std::size_t items, std::size_t element_bytes);
/// Records csr-merge's tiles and how the rows cut between tiles are
/// finished: by the last work-group (one pass) or a second launch.
void decide_merge_tiles(LaunchPlan& plan, std::size_t tiles, std::size_t items, bool single_pass);
/// The CPU variant's vector width: the plan's (at most 8, the widths its
/// gathers are written for), 1 where rows average fewer than 4 vectors
/// (rule sparse.csr-cpu-chunks).
std::size_t csr_chunks_vector_width(LaunchPlan& plan, std::size_t planned, double mean_row);
/// Records the CPU variant's chunks of rows ("row_chunks").
void decide_csr_chunks(LaunchPlan& plan, std::size_t chunks, std::size_t nnz);
/// ELL's layout and, for HYB, its width, recorded (rules sparse.ell-layout,
/// sparse.hyb-width).
void decide_ell(LaunchPlan& plan, bool column_major, std::size_t width, bool row_lengths, bool hyb);
/// Records COO's ranges of `per` entries (rule general.grid-stride).
void decide_coo_ranges(LaunchPlan& plan, std::size_t ranges, std::size_t per);
/// Records DIA's diagonals (rule sparse.dia-banded).
void decide_dia(LaunchPlan& plan, std::size_t diagonals);
/// Records the SpMV method a caller forced, or a tuning record chose.
void decide_forced_spmv_method(LaunchPlan& plan, const std::string& method);
Decision tuned_spmv_method(const std::string& method, const LaunchPlan& choice_plan);

/// Whether CG computes its product q = A p and p . q in one launch (the
/// last work-group computes alpha): with DIA, ELL or ELLPACK-R, whose
/// kernels give a work-item a row, so the dot product rides along. Saves a
/// launch and a read of p and q per iteration. Rule
/// solver.fused-product-dot; recorded in `plan` when it applies.
bool cg_fuses_product_dot(LaunchPlan& plan, const SpmvMethod& method);

/// Whether CG takes the single-reduction form of Chronopoulos and Gear
/// where its product is fused with a dot (`fused`): the product w = A z
/// with z . w, then one pass that updates p, s = A p (by recurrence), x, r
/// and z and sums the next rho: two launches an iteration instead of three,
/// and p and r read once less. Rule solver.single-reduction-cg; recorded
/// in `plan` when it applies.
bool cg_single_reduction(LaunchPlan& plan, bool fused);

/// How often an iterative solver reads its residual back to decide whether
/// to stop: every iteration on CPUs (a read costs little there), every 8th
/// elsewhere. Each check is read without waiting and taken while the next
/// window runs. Rule solver.check-interval.
RuleChoice solver_check_interval(DeviceClass device_class);

}  // namespace portacl
