// SPDX-License-Identifier: Apache-2.0
/// \file
/// Conjugate gradients across the ranks of an MPI communicator, one device
/// a rank (its own Context). Every rank passes the whole matrix (or reads
/// the same file) and keeps the contiguous rows of its share (an equal
/// split by rows); it derives the whole partition itself, so no rank needs
/// another's structure. Each product posts the halo entries as
/// non-blocking messages (MPI_Isend / MPI_Irecv) from pinned host memory
/// while the interior rows multiply, then adds the halo's terms; the dots
/// of an iteration are one MPI_Allreduce. Device data is staged through pinned host
/// memory: OpenCL has no GPU-direct transfer.
///
/// Part of libportacl_mpi, built when Open MPI is found (PORTACL_WITH_MPI).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "portacl/kernels/sparse/host_csr.hpp"
#include "portacl/kernels/sparse/krylov.hpp"
#include "portacl/mpi/rank.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl::mpi {

template <class T>
class DistributedMatrix {
 public:
  /// `whole` (square, well formed, the same on every rank) split over the
  /// ranks of `comm`. Throws portacl::Error naming the rank and the defect.
  DistributedMatrix(Context& ctx, MPI_Comm comm, const HostCsr<T>& whole);
  ~DistributedMatrix();
  DistributedMatrix(const DistributedMatrix&) = delete;
  DistributedMatrix& operator=(const DistributedMatrix&) = delete;

  std::size_t rows() const;        ///< the whole matrix's
  std::size_t first_row() const;   ///< this rank's rows: first_row() ..
  std::size_t local_rows() const;  ///< .. first_row() + local_rows()
  MPI_Comm comm() const;
  Context& context() const;

  /// y_local = A x (the rows of this rank), x and y this rank's parts.
  void multiply(const Buffer<T>& x_local, Buffer<T>& y_local) const;

  /// Seconds this rank spent in the halo exchange, from its interior
  /// product enqueued to its halo entries received (the interior multiplies
  /// meanwhile), summed over products.
  double exchange_seconds() const;

  struct State;
  State& state() const { return *state_; }

 private:
  std::unique_ptr<State> state_;
};

/// CG with SolverOptions' tolerance (relative residual: another criterion
/// is refused), iteration limit, plan and Jacobi preconditioning (a zero
/// diagonal entry is refused on every rank, naming its row); every rank
/// calls it with its parts of b and x and gets the same result. An
/// iteration is one product, two passes over the rank's vectors and one
/// MPI_Allreduce of three sums.
template <class T>
SolverResult distributed_cg(const DistributedMatrix<T>& a, const Buffer<T>& b_local, Buffer<T>& x_local,
                            const SolverOptions& options = {});

}  // namespace portacl::mpi
