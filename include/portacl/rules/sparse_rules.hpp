// SPDX-License-Identifier: Apache-2.0
/// \file
/// How a sparse matrix-vector product is done on a device: the storage
/// formats and CSR variants there are, and the named rules that pick one
/// from a matrix's structure (its row-length statistics and diagonals) and
/// the device class. Each choice names its rule, as a launch plan does.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "portacl/device/device_class.hpp"
#include "portacl/rules/launch_plan.hpp"
#include "portacl/rules/row_team.hpp"
#include "portacl/rules/tuning_space.hpp"

namespace portacl {

enum class SparseFormat {
  csr,    ///< compressed sparse rows
  coo,    ///< coordinates, sorted by row
  ell,    ///< every row padded to the longest, column index -1 in padding
  ell_r,  ///< ELL with each row's length (ELLPACK-R): no padding is read
  hyb,    ///< ELL for each row's first K entries, coordinates for the rest
  dia,    ///< the occupied diagonals, for banded matrices
};

enum class CsrVariant {
  scalar,    ///< one work-item per row
  vector,    ///< a team (warp, wavefront or slice) per row
  block,     ///< a work-group per block of rows, staged in local memory
  adaptive,  ///< rows binned by length, one kernel per bin on its own queue
  cpu,       ///< a work-item per chunk of rows of equal entries, vector loads
};

/// A format and, for CSR, its variant: "csr-vector", "ell", "dia", ...
struct SpmvMethod {
  SparseFormat format = SparseFormat::csr;
  CsrVariant variant = CsrVariant::scalar;
  std::string name() const;
  bool operator==(const SpmvMethod& o) const {
    return format == o.format && (format != SparseFormat::csr || variant == o.variant);
  }
};

/// Every method, in a fixed order (the tuner's METHOD knob indexes it).
const std::vector<SpmvMethod>& spmv_methods();
/// "csr-adaptive" and the like; throws portacl::Error listing the names.
SpmvMethod spmv_method_from_string(const std::string& name);

/// The row-length bins of the adaptive variant: empty rows, 1-7, 8-31,
/// 32-128 and more than 128 entries.
constexpr std::size_t kRowLengthBins = 5;
/// The largest row length of each bin but the last.
constexpr std::array<std::uint64_t, kRowLengthBins - 1> kRowLengthBinTops{{0, 7, 31, 128}};

/// The HYB widths the rule considers: 0 to 64.
constexpr std::size_t kHybWidthCandidates = 64;

/// What the rules read of a matrix: computed once per structure.
struct SparseShape {
  std::size_t rows = 0, cols = 0, nnz = 0;
  std::uint64_t shortest_row = 0, longest_row = 0;
  double mean_row = 0, row_stddev = 0;                    ///< entries per row
  std::array<std::size_t, kRowLengthBins> rows_in_bin{};  ///< how many rows each bin holds
  /// rows_with_at_least[k]: rows of k or more entries, k = 0 to
  /// kHybWidthCandidates (the HYB width is chosen among these).
  std::vector<std::size_t> rows_with_at_least;
  std::size_t diagonals = 0;  ///< occupied diagonals
};

/// HYB's ELL width K: rule sparse.hyb-width.
std::size_t hyb_ell_width(const SparseShape& shape);

/// ELL's layout: column-major (entry k of every row together) on GPUs and
/// MIC, row-major on CPUs. Rule sparse.ell-layout.
bool ell_column_major(DeviceClass device_class);

/// The method the rules pick for `shape` on a device of `device_class`,
/// with the decisions that explain it (rule ids from the rule book).
struct SpmvChoice {
  SpmvMethod method;
  std::vector<Decision> decisions;
  /// The plan of the choice itself (traits spmv_method_traits): its
  /// provenance says whether the rules or a tuning record decided.
  LaunchPlan plan;
};
SpmvChoice choose_spmv_method(const SparseShape& shape, DeviceClass device_class);

/// The class of matrix statistics a tuned method is stored for:
/// "banded", else "short" (mean row of 16 or fewer entries) or "long",
/// then "-regular" or "-irregular" (row lengths' standard deviation above
/// half their mean). With the size bucket of the entries, it is the
/// tuning key's bucket of matrix statistics.
std::string spmv_statistics_class(const SparseShape& shape);
/// The SpMV choice as a tunable kernel: name "spmv_method.<class>", one
/// knob, METHOD (an index into spmv_methods()); the problem size is the
/// number of entries.
KernelTraits spmv_method_traits(const SparseShape& shape, ElementType element);
const TuningSpace& spmv_method_tunables();

/// Work-items per row team for the vector variant: the next power of two
/// at or above the mean row length, from 2 up to `sub_group` (warp 32,
/// wavefront 64). Rule sparse.vector-team.
std::size_t vector_team(double mean_row, std::size_t sub_group);

/// How often an iterative solver reads its residual back to decide whether
/// to stop: every iteration on CPUs (a read costs little there), every 8th
/// elsewhere (a read drains the queue). Rule solver.check-interval.
RuleChoice solver_check_interval(DeviceClass device_class);

}  // namespace portacl
