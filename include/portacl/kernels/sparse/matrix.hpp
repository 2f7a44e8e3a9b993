// SPDX-License-Identifier: Apache-2.0
/// \file
/// A sparse matrix on the device, owned by a Context, and its product with
/// a vector: y = alpha * A x + beta * y (SpMV). The matrix is kept in
/// compressed sparse rows: row pointers (32-bit, or 64-bit from 2^31
/// entries), 32-bit column indices and values, float or double. It is
/// built from host CSR, coordinate entries (duplicates added) or a Matrix
/// Market file. Its structure is analysed once, when it is built (row
/// lengths, length bins, diagonals); the other formats (COO, ELL,
/// ELLPACK-R, HYB, DIA) are converted on the device the first time a
/// product uses them, and kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/sparse/host_csr.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/rules/sparse_method.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

template <class T>
struct SparseStorage;

template <class T>
class SparseMatrix {
  using built = only_for<T, float, double>;  ///< another element type stops here, at compile time

 public:
  /// Throws portacl::Error naming the defect of a malformed `csr`
  /// (csr_problem) before anything is allocated.
  SparseMatrix(Context& ctx, const HostCsr<T>& csr);
  static SparseMatrix from_entries(Context& ctx, const CooEntries& entries);
  /// A Matrix Market file: symmetric storage expanded, duplicates added.
  static SparseMatrix from_file(Context& ctx, const std::string& path);

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  std::size_t nnz() const { return nnz_; }
  bool wide_row_pointers() const { return wide_; }  ///< 64-bit row pointers
  Context& context() const { return *ctx_; }
  const cl::Buffer& row_pointers() const { return row_ptr_; }
  const cl::Buffer& columns() const { return col_; }
  const cl::Buffer& values() const { return val_; }
  /// The structure's statistics the SpMV rules read (computed once).
  const SparseShape& shape() const { return shape_; }
  /// "" when A equals its transpose to a few roundings (what CG requires,
  /// with positive definiteness), else the first pair that differs
  /// (computed once, with the structure's statistics).
  const std::string& asymmetry() const { return asymmetry_; }
  /// The matrix back on the host (a round trip is exact).
  HostCsr<T> download() const;
  /// The matrix as stored in `format` on the device (converted there on
  /// first use), read back and returned as CSR: the same matrix, exactly,
  /// except that DIA keeps no explicit zeros (it stores every slot of its
  /// diagonals, so a stored zero and an absent entry look alike).
  HostCsr<T> download(SparseFormat format) const;
  /// The derived formats and row groups, for the library's kernels.
  SparseStorage<T>& storage() const { return *storage_; }

 private:
  Context* ctx_;
  std::size_t rows_ = 0, cols_ = 0, nnz_ = 0;
  bool wide_ = false;
  cl::Buffer row_ptr_, col_, val_;  ///< null where empty
  SparseShape shape_;
  std::string asymmetry_;
  std::shared_ptr<SparseStorage<T>> storage_;
};

/// The method the rules (or a tuning record for this device and the
/// matrix's statistics) pick for `a`, with the decisions that explain it.
template <class T, class = only_for<T, float, double>>
SpmvChoice spmv_choice(Context& ctx, const SparseMatrix<T>& a, const PlanOptions& options = {});

/// y = alpha * A x + beta * y by the method spmv_choice picks. x has
/// A.cols() elements, y A.rows(). An empty row gives beta * y; beta = 0
/// never reads y; alpha = 0 reads neither A nor x (BLAS). The plan returned
/// explains the choice (the rules' ids) and the launch. x and y must not
/// share memory (the same buffer, a handle to it or an overlapping
/// sub-buffer): every y element reads many of x. Errors, before any launch:
/// sizes that do not match, buffers of another context, x and y sharing memory.
template <class T, class = only_for<T, float, double>>
LaunchPlan spmv(Context& ctx, T alpha, const SparseMatrix<T>& a, const Buffer<T>& x, T beta, Buffer<T>& y,
                const PlanOptions& options = {});
/// The same by a method the caller forces.
template <class T, class = only_for<T, float, double>>
LaunchPlan spmv(Context& ctx, T alpha, const SparseMatrix<T>& a, const Buffer<T>& x, T beta, Buffer<T>& y,
                const SpmvMethod& method, const PlanOptions& options = {});

}  // namespace portacl
