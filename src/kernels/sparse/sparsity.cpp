// SPDX-License-Identifier: Apache-2.0
#include "portacl/sparse.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "portacl/error.hpp"

namespace portacl {

std::size_t row_length_bin(std::uint64_t length) {
  for (std::size_t b = 0; b < kRowLengthBinTops.size(); ++b)
    if (length <= kRowLengthBinTops[b]) return b;
  return kRowLengthBins - 1;
}

SparsityProfile profile_rows(const std::vector<std::uint64_t>& row_ptr) {
  if (row_ptr.empty() || row_ptr[0] != 0) throw Error("sparsity profile: row pointers must start at 0");
  SparsityProfile p;
  p.rows = row_ptr.size() - 1;
  p.nnz = static_cast<std::size_t>(row_ptr.back());
  if (p.rows == 0) return p;
  p.shortest_row = UINT64_MAX;
  double sum_sq = 0;
  for (std::size_t r = 0; r < p.rows; ++r) {
    if (row_ptr[r + 1] < row_ptr[r]) throw Error("sparsity profile: row pointers decrease at row " + std::to_string(r));
    const std::uint64_t len = row_ptr[r + 1] - row_ptr[r];
    p.shortest_row = std::min(p.shortest_row, len);
    p.longest_row = std::max(p.longest_row, len);
    sum_sq += double(len) * double(len);
    ++p.rows_in_bin[row_length_bin(len)];
  }
  // rows_with_at_least[k] from a histogram of lengths up to 64.
  p.rows_with_at_least.assign(kHybWidthCandidates + 1, 0);
  for (std::size_t r = 0; r < p.rows; ++r)
    ++p.rows_with_at_least[std::min<std::uint64_t>(row_ptr[r + 1] - row_ptr[r], kHybWidthCandidates)];
  for (std::size_t k = kHybWidthCandidates; k-- > 0;) p.rows_with_at_least[k] += p.rows_with_at_least[k + 1];
  p.mean_row = double(p.nnz) / double(p.rows);
  p.row_stddev = std::sqrt(std::max(0.0, sum_sq / double(p.rows) - p.mean_row * p.mean_row));
  return p;
}

std::size_t count_diagonals(std::size_t rows, std::size_t cols, const std::vector<std::uint64_t>& row_ptr,
                            const std::vector<std::uint32_t>& col) {
  if (rows == 0 || cols == 0) return 0;
  std::vector<bool> occupied(rows + cols - 1, false);  // column - row + rows - 1
  std::size_t count = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::uint64_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
      const std::size_t d = col[k] + rows - 1 - r;
      if (!occupied[d]) {
        occupied[d] = true;
        ++count;
      }
    }
  return count;
}

std::vector<std::size_t> equal_nnz_row_blocks(const std::vector<std::uint64_t>& row_ptr, std::uint64_t target_nnz,
                                              std::size_t max_rows) {
  if (row_ptr.empty()) throw Error("row blocks: row pointers must hold rows + 1 offsets");
  const std::size_t rows = row_ptr.size() - 1;
  const std::uint64_t target = std::max<std::uint64_t>(1, target_nnz);
  std::vector<std::size_t> bounds{0};
  std::size_t start = 0;
  while (start < rows) {
    // The last row whose end stays within the target from this block's
    // start; at least one row, however long.
    const std::uint64_t limit = row_ptr[start] + target;
    const auto end_it =
        std::upper_bound(row_ptr.begin() + static_cast<std::ptrdiff_t>(start) + 1, row_ptr.end(), limit);
    std::size_t end = static_cast<std::size_t>(end_it - row_ptr.begin()) - 1;
    if (end <= start) end = start + 1;
    if (end - start > std::max<std::size_t>(max_rows, 1)) end = start + std::max<std::size_t>(max_rows, 1);
    bounds.push_back(end);
    start = end;
  }
  return bounds;
}

std::vector<std::size_t> merge_path_tile_rows(const std::vector<std::uint64_t>& row_ptr, std::uint64_t items) {
  if (row_ptr.empty()) throw Error("merge path: row pointers must hold rows + 1 offsets");
  if (items == 0) throw Error("merge path: a tile must hold at least one item");
  const std::uint64_t rows = row_ptr.size() - 1, nnz = row_ptr.back();
  if (!std::is_sorted(row_ptr.begin(), row_ptr.end()) || row_ptr.front() != 0)
    throw Error("merge path: row pointers must ascend from 0");
  std::vector<std::size_t> tile_rows;
  for (std::uint64_t d = 0; d < rows + nnz; d += items) {
    // The rows that end before item d: row i's end is item row_ptr[i + 1] + i
    // (its entries and the earlier rows' ends come before it).
    std::uint64_t lo = d > nnz ? d - nnz : 0, hi = std::min(d, rows);
    while (lo < hi) {
      const std::uint64_t mid = (lo + hi) / 2;
      if (row_ptr[mid + 1] <= d - mid - 1)
        lo = mid + 1;
      else
        hi = mid;
    }
    tile_rows.push_back(static_cast<std::size_t>(lo));
  }
  tile_rows.push_back(static_cast<std::size_t>(rows));
  return tile_rows;
}

template <class T>
std::string asymmetry(const HostCsr<T>& csr) {
  if (csr.rows != csr.cols)
    return "it is " + std::to_string(csr.rows) + " x " + std::to_string(csr.cols) + ", not square";
  const T eps = std::numeric_limits<T>::epsilon();
  auto show = [](double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  };
  for (std::size_t i = 0; i < csr.rows; ++i)
    for (std::uint64_t k = csr.row_ptr[i]; k < csr.row_ptr[i + 1]; ++k) {
      const std::size_t j = csr.col[k];
      if (j <= i) continue;  // each pair once, from its upper entry; lower entries without a partner below
      const auto first = csr.col.begin() + static_cast<std::ptrdiff_t>(csr.row_ptr[j]);
      const auto last = csr.col.begin() + static_cast<std::ptrdiff_t>(csr.row_ptr[j + 1]);
      const auto at = std::lower_bound(first, last, static_cast<std::uint32_t>(i));
      const std::string pair = "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
      const std::string mirror = "(" + std::to_string(j) + ", " + std::to_string(i) + ")";
      if (at == last || *at != i) {
        if (csr.value[k] != T(0)) return pair + " is " + show(double(csr.value[k])) + " but " + mirror + " is absent";
        continue;
      }
      const T a = csr.value[k], b = csr.value[static_cast<std::size_t>(at - csr.col.begin())];
      if (!(std::fabs(a - b) <= T(16) * eps * std::max(std::fabs(a), std::fabs(b))))
        return pair + " is " + show(double(a)) + " but " + mirror + " is " + show(double(b));
    }
  // Lower entries whose upper partner is absent.
  for (std::size_t i = 0; i < csr.rows; ++i)
    for (std::uint64_t k = csr.row_ptr[i]; k < csr.row_ptr[i + 1] && csr.col[k] < i; ++k) {
      const std::size_t j = csr.col[k];
      const auto first = csr.col.begin() + static_cast<std::ptrdiff_t>(csr.row_ptr[j]);
      const auto last = csr.col.begin() + static_cast<std::ptrdiff_t>(csr.row_ptr[j + 1]);
      if (!std::binary_search(first, last, static_cast<std::uint32_t>(i)) && csr.value[k] != T(0))
        return "(" + std::to_string(i) + ", " + std::to_string(j) + ") is " + show(double(csr.value[k])) + " but (" +
               std::to_string(j) + ", " + std::to_string(i) + ") is absent";
    }
  return "";
}

template std::string asymmetry<float>(const HostCsr<float>&);
template std::string asymmetry<double>(const HostCsr<double>&);

}  // namespace portacl
