// SPDX-License-Identifier: Apache-2.0
// The SpMV tests' matrices and check: rows of every awkward length, and a
// product against the double-precision host product.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <catch2/catch.hpp>

#include "portacl/sparse.hpp"
#include "test_support.hpp"

namespace test {
using namespace portacl;

// Rows of 0, 1, 7, 8, 31, 32, 33, 128, 129 entries in turn (every bin
// edge), and when `long_row` two rows longer than a csr-block unit (of
// 20000 and 3073 entries: pieces and a remainder) and one of 1000 (a block
// of its own, summed by a team; each at most `cols`), on
// distinct random columns, with random values.
template <class T>
inline HostCsr<T> awkward_matrix(std::size_t rows, std::size_t cols, bool long_row) {
  static const std::size_t lengths[] = {0, 1, 7, 8, 31, 32, 33, 128, 129};
  CooEntries e;
  e.rows = rows;
  e.cols = cols;
  std::vector<std::uint32_t> columns(cols);
  for (std::size_t c = 0; c < cols; ++c) columns[c] = static_cast<std::uint32_t>(c);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t wanted = long_row && r == rows / 2 ? 20000 : long_row && r == rows / 3 ? 3073 : lengths[r % 9];
    const std::size_t len = std::min(cols, wanted);
    std::shuffle(columns.begin(), columns.end(), rng());
    const std::vector<T> v = random_vector<T>(len);
    for (std::size_t k = 0; k < len; ++k) {
      e.row.push_back(static_cast<std::uint32_t>(r));
      e.col.push_back(columns[k]);
      e.value.push_back(v[k]);
    }
  }
  return csr_from_entries<T>(e);
}

// y = alpha A x + beta y by `method` (none: the automatic choice) against
// the double-precision host product; y is poisoned with NaN where beta = 0.
template <class T>
inline void check_spmv(Context& ctx, const SparseMatrix<T>& a, const HostCsr<T>& csr, T alpha, T beta,
                       const PlanOptions& opt, std::optional<SpmvMethod> method = std::nullopt, bool nan_in_x = false) {
  INFO(csr.rows << " x " << csr.cols << ", " << csr.nnz() << " entries, alpha " << alpha << " beta " << beta
                << ", method " << (method ? method->name() : "automatic"));
  std::vector<T> x = random_vector<T>(csr.cols), y0 = random_vector<T>(csr.rows);
  if (nan_in_x)
    for (auto& v : x) v = std::numeric_limits<T>::quiet_NaN();
  if (beta == T(0))
    for (auto& v : y0) v = std::numeric_limits<T>::quiet_NaN();  // never read
  Buffer<T> dx(ctx, x), dy(ctx, y0);
  const LaunchPlan plan =
      method ? spmv(ctx, alpha, a, dx, beta, dy, *method, opt) : spmv(ctx, alpha, a, dx, beta, dy, opt);
  INFO(plan.explain());
  std::vector<reference::Exact> product(csr.rows);
  std::size_t longest = 0;
  for (std::size_t r = 0; r < csr.rows; ++r) {
    const std::size_t first = csr.row_ptr[r], len = csr.row_ptr[r + 1] - first;
    longest = std::max(longest, len);
    product[r] = alpha == T(0) ? reference::Exact{} : reference::sum_of(len, [&](std::size_t k) {
      return double(csr.value[first + k]) * double(x[csr.col[first + k]]);
    });
  }
  CHECK(reference::compare_update(
            dy.download(), y0, [](std::size_t i) { return i; }, alpha, beta, longest, product) == "");
}

template <class T>
inline void check_spmv(Context& ctx, const HostCsr<T>& csr, T alpha, T beta, const PlanOptions& opt,
                       std::optional<SpmvMethod> method = std::nullopt, bool nan_in_x = false) {
  check_spmv(ctx, SparseMatrix<T>(ctx, csr), csr, alpha, beta, opt, method, nan_in_x);
}

}  // namespace test
