// SPDX-License-Identifier: Apache-2.0
#include "portacl/kernels/sparse_matrix.hpp"

#include <limits>

#include "portacl/error.hpp"
#include "portacl/util/checked.hpp"

namespace portacl {
namespace {

// A device copy of `host`'s elements (none when empty: OpenCL has no
// zero-byte buffers).
template <class V>
cl::Buffer device_copy(Context& ctx, const std::vector<V>& host, const char* what) {
  if (host.empty()) return cl::Buffer();
  cl_int err = CL_SUCCESS;
  cl::Buffer b(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes_of<V>(host.size(), what),
               const_cast<V*>(host.data()), &err);
  check_cl(err, std::string("clCreateBuffer(") + what + ", " + std::to_string(host.size() * sizeof(V)) + " bytes)");
  return b;
}

template <class V>
std::vector<V> host_copy(Context& ctx, const cl::Buffer& b, std::size_t n, const char* what) {
  std::vector<V> out(n);
  if (n)
    check_cl(ctx.queue().enqueueReadBuffer(b, CL_TRUE, 0, n * sizeof(V), out.data()),
             std::string("clEnqueueReadBuffer(") + what + ")");
  return out;
}

}  // namespace

template <class T>
SparseMatrix<T>::SparseMatrix(Context& ctx, const HostCsr<T>& csr) : ctx_(&ctx) {
  if (const std::string problem = csr_problem(csr); !problem.empty()) throw Error("SparseMatrix from CSR: " + problem);
  rows_ = csr.rows;
  cols_ = csr.cols;
  nnz_ = csr.nnz();
  // 32-bit row pointers while every offset fits a signed 32-bit index.
  wide_ = nnz_ > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());
  if (wide_) {
    row_ptr_ = device_copy(ctx, csr.row_ptr, "sparse matrix row pointers");
  } else {
    const std::vector<std::uint32_t> narrow(csr.row_ptr.begin(), csr.row_ptr.end());
    row_ptr_ = device_copy(ctx, narrow, "sparse matrix row pointers");
  }
  col_ = device_copy(ctx, csr.col, "sparse matrix column indices");
  val_ = device_copy(ctx, csr.value, "sparse matrix values");
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
    csr.row_ptr = host_copy<std::uint64_t>(*ctx_, row_ptr_, rows_ + 1, "sparse matrix row pointers");
  } else {
    const auto narrow = host_copy<std::uint32_t>(*ctx_, row_ptr_, rows_ + 1, "sparse matrix row pointers");
    csr.row_ptr.assign(narrow.begin(), narrow.end());
  }
  csr.col = host_copy<std::uint32_t>(*ctx_, col_, nnz_, "sparse matrix column indices");
  csr.value = host_copy<T>(*ctx_, val_, nnz_, "sparse matrix values");
  return csr;
}

template class SparseMatrix<float>;
template class SparseMatrix<double>;

}  // namespace portacl
