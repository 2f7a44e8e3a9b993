// SPDX-License-Identifier: Apache-2.0
#include "portacl/sparse.hpp"

#include <limits>

#include "portacl/error.hpp"
#include "device_arrays.hpp"
#include "sparse_storage.hpp"
#include "rules/sparse_rules.hpp"

namespace portacl {

template <class T>
SparseMatrix<T>::SparseMatrix(Context& ctx, const HostCsr<T>& csr)
    : ctx_(&ctx), storage_(std::make_shared<SparseStorage<T>>()) {
  if (const std::string problem = csr_problem(csr); !problem.empty()) throw Error("SparseMatrix from CSR: " + problem);
  rows_ = csr.rows;
  cols_ = csr.cols;
  nnz_ = csr.nnz();
  // 32-bit row pointers while every offset fits a signed 32-bit index.
  wide_ = nnz_ > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());
  if (wide_) {
    row_ptr_ = device_arrays::copy_of(ctx, csr.row_ptr, "sparse matrix row pointers");
  } else {
    const std::vector<std::uint32_t> narrow(csr.row_ptr.begin(), csr.row_ptr.end());
    row_ptr_ = device_arrays::copy_of(ctx, narrow, "sparse matrix row pointers");
  }
  col_ = device_arrays::copy_of(ctx, csr.col, "sparse matrix column indices");
  val_ = device_arrays::copy_of(ctx, csr.value, "sparse matrix values");
  // The analysis, once per structure: what the SpMV rules read.
  shape_ = profile_rows(csr.row_ptr);
  shape_.cols = cols_;
  shape_.diagonals = count_diagonals(rows_, cols_, csr.row_ptr, csr.col);
  asymmetry_ = portacl::asymmetry(csr);
  storage_->row_ptr = csr.row_ptr;
}

template <class T>
SparseMatrix<T> SparseMatrix<T>::from_entries(Context& ctx, const CooEntries& entries) {
  return SparseMatrix(ctx, csr_from_entries<T>(entries));
}

template <class T>
SparseMatrix<T> SparseMatrix<T>::from_file(Context& ctx, const std::string& path) {
  return from_entries(ctx, general_entries(read_matrix_market(path)));
}

template <class T>
HostCsr<T> SparseMatrix<T>::download() const {
  HostCsr<T> csr;
  csr.rows = rows_;
  csr.cols = cols_;
  if (wide_) {
    csr.row_ptr = device_arrays::read<std::uint64_t>(*ctx_, row_ptr_, rows_ + 1, "sparse matrix row pointers");
  } else {
    const auto narrow = device_arrays::read<std::uint32_t>(*ctx_, row_ptr_, rows_ + 1, "sparse matrix row pointers");
    csr.row_ptr.assign(narrow.begin(), narrow.end());
  }
  csr.col = device_arrays::read<std::uint32_t>(*ctx_, col_, nnz_, "sparse matrix column indices");
  csr.value = device_arrays::read<T>(*ctx_, val_, nnz_, "sparse matrix values");
  return csr;
}

template class SparseMatrix<float>;
template class SparseMatrix<double>;

}  // namespace portacl
