// SPDX-License-Identifier: Apache-2.0
// CG's vector work on one row block of a matrix split by rows, for the
// solvers whose scalars the host holds: a device group's members
// (group_cg) and MPI ranks (distributed_cg). Per iteration, in the
// single-reduction form of Chronopoulos and Gear:
//   update(alpha, beta)  p = u + beta p, s = w + beta s, x += alpha p,
//                        r -= alpha s, u = M^-1 r; sums r . u and r . r
//   (the caller's product w = A u, halos and all)
//   close(w, u)          sums w . u, and queues the read of the three sums
//   sums()               waits for that read: the block's r . u, w . u, r . r
// Two launches and one small read an iteration; the caller adds the blocks'
// sums (member order, or MPI_Allreduce) and computes alpha and beta.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"

namespace portacl {

template <class T>
class SplitCgBlock {
 public:
  /// `rows` of the block; `diagonal` (its rows' diagonal entries of A) for
  /// Jacobi, or null. A zero diagonal entry is refused, named by its row
  /// `first_row` + i, with `op` leading the message.
  SplitCgBlock(Context& ctx, std::size_t rows, const std::vector<T>* diagonal, std::size_t first_row,
               const PlanOptions& plan, const char* op);

  /// u = M^-1 r and the sums of r, before the first update.
  void start(Buffer<T>& r, Buffer<T>& u);
  /// The iteration's vector work before the product (see above).
  void update(T alpha, T beta, Buffer<T>& x, Buffer<T>& r, Buffer<T>& u, Buffer<T>& p, Buffer<T>& s,
              const Buffer<T>& w);
  /// w . u, then the read of the sums, without waiting.
  void close(const Buffer<T>& w, const Buffer<T>& u);
  /// r . u, w . u and r . r of this block, summed in double; waits for close's read.
  std::array<double, 3> sums();

  bool jacobi() const { return jacobi_; }

 private:
  Context* ctx_;
  std::size_t rows_;
  bool jacobi_;
  std::size_t groups_ = 0;
  PreparedKernel update_, close_;
  cl::Buffer inv_diag_, partials_;
  HostBuffer<T> host_sums_;
  cl::Event read_;
};

}  // namespace portacl
