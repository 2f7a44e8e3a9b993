// SPDX-License-Identifier: Apache-2.0
// The halo term of a row block's product, y += alpha * halo * x_halo, on
// the rows that hold halo entries only. A row block's halo matrix has as
// many rows as the block, but on a banded matrix cut by rows only its first
// and last few rows have entries: a product over the whole of it reads and
// writes all of y (8M rows to add 4096 entries, for half of a 16M-row 2D
// Poisson matrix). The rows with entries are gathered into runs, each a
// matrix of its own applied to a view of y from the run's first row.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "portacl/sparse.hpp"

namespace portacl {

/// Empty rows a run may carry rather than start another: 64Ki rows cost a
/// product about 1.5 MB of row pointers and y, a few microseconds on a GPU,
/// about what one more launch costs.
constexpr std::size_t kHaloRunGap = 65536;

/// Runs of rows holding entries, as [first, first + rows): a gap of more
/// than `gap` empty rows starts a new run; each run starts on a multiple of
/// `align`. No runs for a matrix without entries.
struct RowRun {
  std::size_t first = 0, rows = 0;
};
template <class T>
std::vector<RowRun> entry_runs(const HostCsr<T>& a, std::size_t gap, std::size_t align);

template <class T>
class HaloProduct {
 public:
  /// `halo`: the block's rows x its halo entries, on `ctx`'s device; `gap`
  /// as entry_runs (the tests pass small ones to get many runs).
  HaloProduct(Context& ctx, const HostCsr<T>& halo, std::size_t gap = kHaloRunGap);
  /// y += alpha * halo * halo_x (y: the block's rows).
  void add(T alpha, const Buffer<T>& halo_x, Buffer<T>& y) const;
  bool empty() const { return runs_.empty(); }
  /// The rows the product touches, over the block's rows.
  std::size_t rows_touched() const;

 private:
  struct Run {
    RowRun rows;
    std::unique_ptr<SparseMatrix<T>> matrix;
  };
  Context* ctx_;
  std::vector<Run> runs_;
};

}  // namespace portacl
