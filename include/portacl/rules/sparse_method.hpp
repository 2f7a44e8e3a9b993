// SPDX-License-Identifier: Apache-2.0
/// \file
/// The ways a sparse matrix-vector product can be done: storage formats,
/// CSR variants, the statistics of a matrix the choice reads, and the
/// choice itself with its reasons. The rules that choose are internal
/// (src/rules/sparse_rules.hpp); spmv_choice (portacl/kernels/sparse/matrix.hpp)
/// asks them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "portacl/rules/launch_plan.hpp"

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
  merge,     ///< equal shares of the merged rows' ends and entries (merge path)
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

/// Every method.
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

/// The method chosen for a matrix on a device, with the decisions that
/// explain it (rule ids from the rule book).
struct SpmvChoice {
  SpmvMethod method;
  std::vector<Decision> decisions;
  /// The plan of the choice itself (traits spmv_method_traits): its
  /// provenance says whether the rules or a tuning record decided.
  LaunchPlan plan;
};

}  // namespace portacl
