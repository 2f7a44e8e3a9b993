// SPDX-License-Identifier: Apache-2.0
/// \file
/// A sparse matrix in compressed sparse rows on the host: what a program
/// hands over (or a Matrix Market file becomes) before the device formats
/// are built from it, and what they convert back to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/sparse/matrix_market.hpp"

namespace portacl {

template <class T>
struct HostCsr {
  std::size_t rows = 0, cols = 0;
  std::vector<std::uint64_t> row_ptr;  ///< rows + 1 offsets into col and value; row_ptr[0] = 0
  std::vector<std::uint32_t> col;      ///< each entry's column, strictly ascending within a row
  std::vector<T> value;
  std::size_t nnz() const { return value.size(); }
};

/// From coordinate entries in any order: sorted by row, then column;
/// duplicates added (in double, rounded once to T); explicit zeros kept.
/// Throws portacl::Error for an entry outside the matrix.
template <class T, class = only_for<T, float, double>>
HostCsr<T> csr_from_entries(const CooEntries& entries);

/// The entries again, row by row, columns ascending.
template <class T, class = only_for<T, float, double>>
CooEntries entries_of(const HostCsr<T>& csr);

/// "" when `csr` is well formed, else the first problem: sizes that do not
/// match, row_ptr not starting at 0 or decreasing, a column out of range or
/// not ascending within its row, dimensions beyond 32-bit indices.
template <class T, class = only_for<T, float, double>>
std::string csr_problem(const HostCsr<T>& csr);

}  // namespace portacl
