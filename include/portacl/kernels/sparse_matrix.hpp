// SPDX-License-Identifier: Apache-2.0
/// \file
/// A sparse matrix on the device, owned by a Context, and its product with
/// a vector: y = alpha * A x + beta * y (SpMV). The matrix is stored in
/// compressed sparse rows: row pointers (32-bit, or 64-bit from 2^31
/// entries), 32-bit column indices and values, float or double. It is
/// built from host CSR, coordinate entries (duplicates added) or a Matrix
/// Market file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "portacl/kernels/element.hpp"
#include "portacl/kernels/host_csr.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/rules/tuning_space.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

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
  /// The matrix back on the host (a round trip is exact).
  HostCsr<T> download() const;

 private:
  Context* ctx_;
  std::size_t rows_ = 0, cols_ = 0, nnz_ = 0;
  bool wide_ = false;
  cl::Buffer row_ptr_, col_, val_;  ///< null where empty
};

KernelTraits csr_spmv_traits(ElementType element);
/// work-group size, groups per compute unit.
const TuningSpace& csr_spmv_tunables();

/// y = alpha * A x + beta * y. x has A.cols() elements, y A.rows(). An empty
/// row gives beta * y; beta = 0 never reads y; alpha = 0 reads neither A
/// nor x (BLAS). Errors, before any launch: sizes that do not match, buffers
/// of another context.
template <class T, class = only_for<T, float, double>>
LaunchPlan spmv(Context& ctx, T alpha, const SparseMatrix<T>& a, const Buffer<T>& x, T beta, Buffer<T>& y,
                const PlanOptions& options = {});

}  // namespace portacl
