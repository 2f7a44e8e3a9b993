// SPDX-License-Identifier: Apache-2.0
#include "kernels/sparse/row_partition.hpp"

#include <algorithm>

namespace portacl {

namespace {

// The member whose rows hold `column`.
std::size_t owner_of(const std::vector<std::size_t>& offsets, std::size_t column) {
  return std::size_t(std::upper_bound(offsets.begin(), offsets.end(), column) - offsets.begin()) - 1;
}

template <class T>
RowBlock<T> cut_block(const HostCsr<T>& a, const std::vector<std::size_t>& offsets, std::size_t member) {
  RowBlock<T> b;
  b.first_row = offsets[member];
  b.rows = offsets[member + 1] - b.first_row;
  const std::size_t end = b.first_row + b.rows;
  for (std::size_t r = b.first_row; r < end; ++r)
    for (std::uint64_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      if (a.col[k] < b.first_row || a.col[k] >= end) b.halo_columns.push_back(a.col[k]);
  std::sort(b.halo_columns.begin(), b.halo_columns.end());
  b.halo_columns.erase(std::unique(b.halo_columns.begin(), b.halo_columns.end()), b.halo_columns.end());

  b.local.rows = b.local.cols = b.rows;
  b.halo.rows = b.rows;
  b.halo.cols = b.halo_columns.size();
  b.local.row_ptr.assign(1, 0);
  b.halo.row_ptr.assign(1, 0);
  for (std::size_t r = b.first_row; r < end; ++r) {
    // Columns stay ascending in both: the halo's numbering keeps their order.
    for (std::uint64_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const std::uint32_t c = a.col[k];
      if (c >= b.first_row && c < end) {
        b.local.col.push_back(std::uint32_t(c - b.first_row));
        b.local.value.push_back(a.value[k]);
      } else {
        const auto at = std::lower_bound(b.halo_columns.begin(), b.halo_columns.end(), c);
        b.halo.col.push_back(std::uint32_t(at - b.halo_columns.begin()));
        b.halo.value.push_back(a.value[k]);
      }
    }
    b.local.row_ptr.push_back(b.local.col.size());
    b.halo.row_ptr.push_back(b.halo.col.size());
  }
  const std::size_t members = offsets.size() - 1;
  b.halo_from.assign(members + 1, 0);
  for (std::uint32_t c : b.halo_columns) ++b.halo_from[owner_of(offsets, c) + 1];
  for (std::size_t m = 0; m < members; ++m) b.halo_from[m + 1] += b.halo_from[m];
  return b;
}

}  // namespace

template <class T>
RowPartition<T> partition_rows(const HostCsr<T>& a, const std::vector<std::size_t>& offsets) {
  const std::size_t members = offsets.size() - 1;
  RowPartition<T> p;
  for (std::size_t m = 0; m < members; ++m) p.blocks.push_back(cut_block(a, offsets, m));
  p.send_index.resize(members);
  p.send_to.assign(members, std::vector<std::size_t>(members + 1, 0));
  for (std::size_t owner = 0; owner < members; ++owner)
    for (std::size_t to = 0; to < members; ++to) {
      const RowBlock<T>& b = p.blocks[to];
      for (std::size_t h = b.halo_from[owner]; h < b.halo_from[owner + 1]; ++h)
        p.send_index[owner].push_back(std::uint32_t(b.halo_columns[h] - offsets[owner]));
      p.send_to[owner][to + 1] = p.send_index[owner].size();
    }
  return p;
}

template <class T>
std::vector<T> block_diagonal(const RowBlock<T>& b) {
  std::vector<T> diagonal(b.rows, T(0));
  for (std::size_t r = 0; r < b.rows; ++r)
    for (std::uint64_t k = b.local.row_ptr[r]; k < b.local.row_ptr[r + 1]; ++k)
      if (b.local.col[k] == r) diagonal[r] += b.local.value[k];
  return diagonal;
}

template RowPartition<float> partition_rows(const HostCsr<float>&, const std::vector<std::size_t>&);
template RowPartition<double> partition_rows(const HostCsr<double>&, const std::vector<std::size_t>&);
template std::vector<float> block_diagonal(const RowBlock<float>&);
template std::vector<double> block_diagonal(const RowBlock<double>&);

}  // namespace portacl
