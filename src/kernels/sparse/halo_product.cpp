// SPDX-License-Identifier: Apache-2.0
// The halo term over the rows that hold halo entries (see the header).
#include "kernels/sparse/halo_product.hpp"

#include <algorithm>

#include "runtime/sub_buffer.hpp"

namespace portacl {

template <class T>
std::vector<RowRun> entry_runs(const HostCsr<T>& a, std::size_t gap, std::size_t align) {
  std::vector<RowRun> runs;
  std::size_t end = 0;  // one past the last row with entries of the current run
  for (std::size_t r = 0; r < a.rows; ++r) {
    if (a.row_ptr[r + 1] == a.row_ptr[r]) continue;
    if (!runs.empty() && r - end <= gap) {
      end = r + 1;
      continue;
    }
    if (!runs.empty()) runs.back().rows = end - runs.back().first;
    const std::size_t first = r / align * align;
    if (!runs.empty() && first < end) {  // aligned back into the last run: extend it
      end = r + 1;
      continue;
    }
    runs.push_back({first, 0});
    end = r + 1;
  }
  if (!runs.empty()) runs.back().rows = end - runs.back().first;
  return runs;
}

template <class T>
HaloProduct<T>::HaloProduct(Context& ctx, const HostCsr<T>& halo, std::size_t gap) : ctx_(&ctx) {
  for (const RowRun& run : entry_runs(halo, gap, sub_buffer_alignment(ctx, sizeof(T)))) {
    HostCsr<T> part;
    part.rows = run.rows;
    part.cols = halo.cols;
    const std::uint64_t from = halo.row_ptr[run.first], to = halo.row_ptr[run.first + run.rows];
    for (std::size_t r = 0; r <= run.rows; ++r) part.row_ptr.push_back(halo.row_ptr[run.first + r] - from);
    part.col.assign(halo.col.begin() + std::ptrdiff_t(from), halo.col.begin() + std::ptrdiff_t(to));
    part.value.assign(halo.value.begin() + std::ptrdiff_t(from), halo.value.begin() + std::ptrdiff_t(to));
    runs_.push_back({run, std::make_unique<SparseMatrix<T>>(ctx, part)});
  }
}

template <class T>
void HaloProduct<T>::add(T alpha, const Buffer<T>& halo_x, Buffer<T>& y) const {
  for (const Run& run : runs_) {
    if (run.rows.first == 0 && run.rows.rows == y.size()) {
      spmv(*ctx_, alpha, *run.matrix, halo_x, T(1), y);
      continue;
    }
    Buffer<T> rows = sub_buffer(*ctx_, y, run.rows.first, run.rows.rows, "the rows of a halo product");
    spmv(*ctx_, alpha, *run.matrix, halo_x, T(1), rows);
  }
}

template <class T>
std::size_t HaloProduct<T>::rows_touched() const {
  std::size_t n = 0;
  for (const Run& run : runs_) n += run.rows.rows;
  return n;
}

template std::vector<RowRun> entry_runs<float>(const HostCsr<float>&, std::size_t, std::size_t);
template std::vector<RowRun> entry_runs<double>(const HostCsr<double>&, std::size_t, std::size_t);
template class HaloProduct<float>;
template class HaloProduct<double>;

}  // namespace portacl
