// SPDX-License-Identifier: Apache-2.0
#include "kernels/sparse/split_cg.hpp"

#include <string>

#include "portacl/error.hpp"
#include "../kernel_call.hpp"
#include "device_arrays.hpp"
#include "kernels/sparse/tunables.hpp"

namespace portacl {

template <class T>
SplitCgBlock<T>::SplitCgBlock(Context& ctx, std::size_t rows, const std::vector<T>* diagonal, std::size_t first_row,
                              const PlanOptions& options, const char* op)
    : ctx_(&ctx), rows_(rows), jacobi_(diagonal != nullptr), host_sums_(ctx, 0) {
  if (rows_ == 0) return;
  if (jacobi_) {
    std::vector<T> inverse(rows_);
    for (std::size_t i = 0; i < rows_; ++i) {
      if ((*diagonal)[i] == T(0))
        throw Error(std::string(op) + ": Jacobi preconditioning needs a non-zero diagonal; row " +
                    std::to_string(first_row + i) + " has none");
      inverse[i] = T(1) / (*diagonal)[i];
    }
    inv_diag_ = device_arrays::copy_of(ctx, inverse, std::string(op) + " inverse diagonal");
  }
  // The single-device solver's passes' plan: the same kind of launch
  // (streams of a few vectors ending in a work-group sum).
  const LaunchPlan plan = krylov_pass_plan(ctx, element_of<T>::value, rows_, options, jacobi_);
  groups_ = plan.work_groups;
  update_ = ctx.prepare(KernelRef{"sparse_split_cg.cl", "split_cg_update", "", ""}, plan);
  close_ = ctx.prepare(KernelRef{"sparse_split_cg.cl", "split_cg_close", "", ""}, plan);
  partials_ = device_arrays::make<T>(ctx, 3 * groups_, std::string(op) + " partial sums");
  host_sums_ = HostBuffer<T>(ctx, 3 * groups_);
}

template <class T>
void SplitCgBlock<T>::start(Buffer<T>& r, Buffer<T>& u) {
  if (rows_ == 0) return;
  const cl::Buffer none;  // x, p, s and w: not touched with start = 1
  kernel_call::launch(*ctx_, update_, cl_ulong(rows_), T(0), T(0), cl_uint(1), none, r, u, none, none, none, inv_diag_,
                      partials_);
}

template <class T>
void SplitCgBlock<T>::update(T alpha, T beta, Buffer<T>& x, Buffer<T>& r, Buffer<T>& u, Buffer<T>& p, Buffer<T>& s,
                             const Buffer<T>& w) {
  if (rows_ == 0) return;
  kernel_call::launch(*ctx_, update_, cl_ulong(rows_), alpha, beta, cl_uint(0), x, r, u, p, s, w, inv_diag_, partials_);
}

template <class T>
void SplitCgBlock<T>::close(const Buffer<T>& w, const Buffer<T>& u) {
  if (rows_ == 0) return;
  kernel_call::launch(*ctx_, close_, cl_ulong(rows_), w, u, partials_);
  // Into pinned memory without blocking: a blocking read (or one into
  // pageable memory) holds the host until the queue drains on NVIDIA's
  // OpenCL; here the host waits only in sums().
  check_cl(ctx_->queue().enqueueReadBuffer(partials_, CL_FALSE, 0, 3 * groups_ * sizeof(T), host_sums_.data(), nullptr,
                                           &read_),
           "clEnqueueReadBuffer(CG partial sums)");
  ctx_->record(read_);
}

template <class T>
std::array<double, 3> SplitCgBlock<T>::sums() {
  std::array<double, 3> total{};
  if (rows_ == 0) return total;
  check_cl(read_.wait(), "waiting for CG's partial sums");
  for (std::size_t g = 0; g < groups_; ++g) {
    total[0] += double(host_sums_[3 * g]);
    total[1] += double(host_sums_[3 * g + 2]);
    total[2] += double(host_sums_[3 * g + 1]);
  }
  return total;
}

template class SplitCgBlock<float>;
template class SplitCgBlock<double>;

}  // namespace portacl
