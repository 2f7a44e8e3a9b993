// SPDX-License-Identifier: Apache-2.0
#include "portacl/sparse.hpp"

#include <algorithm>
#include <numeric>

#include "portacl/error.hpp"

namespace portacl {

template <class T, class>
HostCsr<T> csr_from_entries(const CooEntries& e) {
  if (e.rows > kMaxSparseDimension || e.cols > kMaxSparseDimension)
    throw Error("sparse matrix of " + std::to_string(e.rows) + " x " + std::to_string(e.cols) +
                " exceeds the largest dimension, " + std::to_string(kMaxSparseDimension) + " (32-bit indices)");
  if (e.row.size() != e.value.size() || e.col.size() != e.value.size())
    throw Error("sparse entries: " + std::to_string(e.row.size()) + " rows, " + std::to_string(e.col.size()) +
                " columns and " + std::to_string(e.value.size()) + " values do not match");
  const std::size_t n = e.value.size();
  for (std::size_t k = 0; k < n; ++k)
    if (e.row[k] >= e.rows || e.col[k] >= e.cols)
      throw Error("sparse entry " + std::to_string(k) + " at (" + std::to_string(e.row[k]) + ", " +
                  std::to_string(e.col[k]) + ") lies outside the " + std::to_string(e.rows) + " x " +
                  std::to_string(e.cols) + " matrix");
  // Counting sort by row (stable), then each row sorted by column and its
  // duplicates added.
  std::vector<std::uint64_t> start(e.rows + 1, 0);
  for (std::size_t k = 0; k < n; ++k) ++start[e.row[k] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::size_t> order(n);
  std::vector<std::uint64_t> next(start.begin(), start.end() - 1);
  for (std::size_t k = 0; k < n; ++k) order[next[e.row[k]]++] = k;

  HostCsr<T> csr;
  csr.rows = e.rows;
  csr.cols = e.cols;
  csr.row_ptr.assign(e.rows + 1, 0);
  csr.col.reserve(n);
  csr.value.reserve(n);
  for (std::size_t r = 0; r < e.rows; ++r) {
    auto first = order.begin() + static_cast<std::ptrdiff_t>(start[r]);
    auto last = order.begin() + static_cast<std::ptrdiff_t>(start[r + 1]);
    std::stable_sort(first, last, [&](std::size_t a, std::size_t b) { return e.col[a] < e.col[b]; });
    for (auto it = first; it != last;) {
      const std::uint32_t c = e.col[*it];
      double sum = 0;
      for (; it != last && e.col[*it] == c; ++it) sum += e.value[*it];
      csr.col.push_back(c);
      csr.value.push_back(static_cast<T>(sum));
    }
    csr.row_ptr[r + 1] = csr.value.size();
  }
  return csr;
}

template <class T, class>
CooEntries entries_of(const HostCsr<T>& csr) {
  CooEntries e;
  e.rows = csr.rows;
  e.cols = csr.cols;
  e.row.reserve(csr.nnz());
  e.col = csr.col;
  e.value.assign(csr.value.begin(), csr.value.end());
  for (std::size_t r = 0; r < csr.rows; ++r)
    for (std::uint64_t k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) e.row.push_back(static_cast<std::uint32_t>(r));
  return e;
}

template <class T, class>
std::string csr_problem(const HostCsr<T>& csr) {
  if (csr.rows > kMaxSparseDimension || csr.cols > kMaxSparseDimension)
    return std::to_string(csr.rows) + " x " + std::to_string(csr.cols) + " exceeds the largest dimension, " +
           std::to_string(kMaxSparseDimension) + " (32-bit indices)";
  if (csr.row_ptr.size() != csr.rows + 1)
    return "row_ptr has " + std::to_string(csr.row_ptr.size()) +
           " offsets, rows + 1 = " + std::to_string(csr.rows + 1) + " are needed";
  if (csr.col.size() != csr.value.size())
    return std::to_string(csr.col.size()) + " column indices but " + std::to_string(csr.value.size()) + " values";
  if (csr.row_ptr[0] != 0) return "row_ptr[0] is " + std::to_string(csr.row_ptr[0]) + ", not 0";
  if (csr.row_ptr[csr.rows] != csr.value.size())
    return "row_ptr[rows] is " + std::to_string(csr.row_ptr[csr.rows]) + " but there are " +
           std::to_string(csr.value.size()) + " entries";
  for (std::size_t r = 0; r < csr.rows; ++r) {
    if (csr.row_ptr[r + 1] < csr.row_ptr[r]) return "row_ptr decreases at row " + std::to_string(r);
    if (csr.row_ptr[r + 1] > csr.value.size())
      return "row_ptr[" + std::to_string(r + 1) + "] = " + std::to_string(csr.row_ptr[r + 1]) + " lies beyond the " +
             std::to_string(csr.value.size()) + " entries";
    for (std::uint64_t k = csr.row_ptr[r]; k < csr.row_ptr[r + 1]; ++k) {
      if (csr.col[k] >= csr.cols)
        return "row " + std::to_string(r) + " has column " + std::to_string(csr.col[k]) + ", outside the " +
               std::to_string(csr.cols) + " columns";
      if (k > csr.row_ptr[r] && csr.col[k] <= csr.col[k - 1])
        return "row " + std::to_string(r) + "'s columns are not strictly ascending at entry " + std::to_string(k);
    }
  }
  return "";
}

#define PORTACL_HOST_CSR_INSTANTIATE(T)                       \
  template HostCsr<T> csr_from_entries<T>(const CooEntries&); \
  template CooEntries entries_of<T>(const HostCsr<T>&);       \
  template std::string csr_problem<T>(const HostCsr<T>&);
PORTACL_HOST_CSR_INSTANTIATE(float)
PORTACL_HOST_CSR_INSTANTIATE(double)

}  // namespace portacl
