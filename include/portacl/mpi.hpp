// SPDX-License-Identifier: Apache-2.0
/// \file
/// Across MPI ranks (libportacl_mpi): the rank's device, distributed CG,
/// heat2d, N-body, training and the 3D FFT.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <mpi.h>
#include <optional>
#include <string>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "portacl/fft.hpp"
#include "portacl/ml.hpp"
#include "portacl/particles.hpp"
#include "portacl/sparse.hpp"
#include "portacl/stencil.hpp"

// ---- rank --------------------------------------------------------------------
/// What every part of the MPI layer shares: errors that name their rank,
/// the equal split of rows or bodies over the ranks, and a device a rank.
///
/// Part of libportacl_mpi, built when Open MPI is found (PORTACL_WITH_MPI).
namespace portacl::mpi {

/// "rank 1 of 3: " — how the layer's errors start.
std::string rank_prefix(MPI_Comm comm);

/// The ranks' shares of n items: size + 1 offsets, equal to within one
/// (rule group.split with equal weights), the first ranks taking the extra.
std::vector<std::size_t> rank_split(std::size_t n, MPI_Comm comm);

/// A device selector for this rank: `selector` (PORTACL_DEVICE when empty)
/// with "{rank}" replaced by the rank and "{local_rank}" by the rank among
/// those on the same host, so that `PORTACL_DEVICE='gpu:{local_rank}'`
/// gives each rank of a node its own GPU.
std::string rank_device_selector(MPI_Comm comm, std::string selector = "");

}  // namespace portacl::mpi

// ---- distributed cg ----------------------------------------------------------
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
namespace portacl::mpi {

/// A sparse matrix split by rows over the ranks of a communicator (above),
/// this rank's block on its device.
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
  MPI_Comm comm() const;           ///< the ranks it is split over
  Context& context() const;        ///< this rank's device

  /// y_local = A x (the rows of this rank), x and y this rank's parts.
  void multiply(const Buffer<T>& x_local, Buffer<T>& y_local) const;

  /// Seconds this rank spent in the halo exchange, from its interior
  /// product enqueued to its halo entries received (the interior multiplies
  /// meanwhile), summed over products.
  double exchange_seconds() const;

  /// The rank's block and its exchange plan (internal to the library).
  struct State;
  /// The library's own access to State.
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

/// BiCGStab (A need not be symmetric) with the same options, errors and
/// result as distributed_cg, written over the same loop as group_bicgstab;
/// Jacobi preconditions on the right. An iteration is two products and
/// three MPI_Allreduce calls (of one sum, three, then two), each after this
/// rank's dot products.
template <class T>
SolverResult distributed_bicgstab(const DistributedMatrix<T>& a, const Buffer<T>& b_local, Buffer<T>& x_local,
                                  const SolverOptions& options = {});

}  // namespace portacl::mpi

// ---- distributed heat2d ------------------------------------------------------
/// The 2D heat equation (heat2d.hpp) across the ranks of an MPI
/// communicator, one device a rank: the grid's rows cut into equal slabs
/// (rank_split), each with k ghost rows on each side that has a
/// neighbouring rank (rule group.halo-width), exchanged every k steps by
/// non-blocking messages from pinned host memory. Each rank steps two thin
/// bands around its edge rows first and the edge rows travel while its
/// slab steps (the slabs of GroupHeat2d).
///
/// Results: bit for bit those of heat2d on one device of the same kind.
namespace portacl::mpi {

/// The 2D heat equation split by rows over the ranks (above), this rank's
/// slab and its ghost rows on its device.
template <class T>
class DistributedHeat2d {
  using built = only_for<T, float, double>;

 public:
  /// `field` (rows x cols, by rows; the same on every rank, or at least
  /// this rank's rows and the k rows around them) on this rank's `ctx`.
  /// `halo_rows` as GroupHeat2d's. Errors name the rank.
  DistributedHeat2d(Context& ctx, MPI_Comm comm, const std::vector<T>& field, std::size_t rows, std::size_t cols,
                    std::optional<std::size_t> halo_rows = std::nullopt);
  ~DistributedHeat2d();
  DistributedHeat2d(const DistributedHeat2d&) = delete;
  DistributedHeat2d& operator=(const DistributedHeat2d&) = delete;

  /// options.steps steps, as heat2d; every rank calls it with the same
  /// options. on_output is refused (gather() between calls instead).
  void advance(const HeatOptions<T>& options);
  /// This rank's rows first_row() .. + local_rows(), rows x cols.
  std::vector<T> local_field() const;
  std::size_t first_row() const;   ///< this rank's first row of the field
  std::size_t local_rows() const;  ///< this rank's rows
  /// The whole field on every rank (MPI_Allgatherv; every rank calls it).
  std::vector<T> gather() const;
  std::size_t halo_rows() const;  ///< k: ghost rows a side, exchanged every k steps
  /// Seconds this rank spent in the ghost exchange, from its bands stepped
  /// to its ghost rows received and enqueued (its slab steps meanwhile).
  double exchange_seconds() const;
  /// This rank's rows and neighbours ("rows 512 to 1024, neighbours above 0 and below 2"), then why k.
  std::string describe() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl::mpi

// ---- distributed fft ---------------------------------------------------------
/// A 3D complex transform across the ranks of an MPI communicator, one
/// device a rank, in slabs as the device group's (fft.hpp, "group fft"):
/// rank r holds planes plane_offsets()[r] to plane_offsets()[r + 1] of
/// axis 0 (an equal split, rank_split), each n1 x n2 complex values packed.
/// A transform runs the rank's 2D transforms of its planes, an
/// MPI_Alltoallv that leaves it the columns column_offsets()[r] to
/// column_offsets()[r + 1] of axis 1 (axis 0 contiguous), their 1D
/// transforms, and the all-to-all back: the output has the input's slabs.
/// Device data goes through pinned host copies (OpenCL has no GPU-direct
/// transfer): the slab transposed on the device so that each rank's block
/// is contiguous, one message each way, each received block written into
/// the columns as a rectangle. Besides its slab, a rank keeps its columns,
/// a device copy of its slab and pinned host buffers of its slab's and its
/// columns' size, made once with the plan. Every rank calls forward and
/// inverse (and the columns' forms) together.
///
/// Errors name the rank: a length of 0, double on a device without fp64,
/// a slab (columns) of another context or smaller than the rank's planes
/// (columns), a message past MPI's int count.
namespace portacl::mpi {

/// A 3D complex transform of n0 x n1 x n2 across the ranks of a
/// communicator, in slabs of axis 0 (above), in precision T.
template <class T>
class DistributedFft3d {
  using built = only_for<T, float, double>;

 public:
  /// Plans the transform of n0 x n1 x n2 (`shape`) over the ranks of
  /// `comm`, this rank's transforms on `ctx`.
  DistributedFft3d(Context& ctx, MPI_Comm comm, std::array<std::size_t, 3> shape, const PlanOptions& plan = {});
  ~DistributedFft3d();
  DistributedFft3d(const DistributedFft3d&) = delete;
  DistributedFft3d& operator=(const DistributedFft3d&) = delete;

  /// Forward, in place on this rank's slab (its planes, packed).
  void forward(Buffer<T>& slab) const;
  /// Inverse, unnormalised, likewise.
  void inverse(Buffer<T>& slab) const;
  /// Forward from this rank's slab (overwritten) into its columns (at
  /// least column_elements() values): value (k0, k1, k2) of the spectrum
  /// on the rank whose columns hold k1, complex value ((k1 -
  /// column_offsets()[rank]) n2 + k2) n0 + k0 (FFTW's transposed output):
  /// one all-to-all.
  void forward_to_columns(Buffer<T>& slab, Buffer<T>& columns) const;
  /// Inverse, unnormalised, from that layout (overwritten) into the slab:
  /// one all-to-all.
  void inverse_from_columns(Buffer<T>& columns, Buffer<T>& slab) const;
  /// The values this rank's columns take: 2 n0 n2 a column of axis 1.
  std::size_t column_elements() const;
  /// Axis 0's split over the ranks: size + 1 offsets.
  const std::vector<std::size_t>& plane_offsets() const;
  /// Axis 1's split between the all-to-alls: size + 1 offsets.
  const std::vector<std::size_t>& column_offsets() const;
  /// Seconds this rank spent in the all-to-alls (the device's transpose,
  /// the read into pinned memory, MPI_Alltoallv, the rectangle writes, and
  /// the reverse), summed over calls.
  double exchange_seconds() const;
  /// This rank's planes and columns, then its transforms' plans.
  std::string explain() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl::mpi

// ---- distributed nbody -------------------------------------------------------
/// All-pairs N-body (nbody.hpp) across the ranks of an MPI communicator,
/// one device a rank. Each rank owns an equal slice of the bodies
/// (rank_split) and keeps a copy of every position. A leapfrog step: each
/// rank kicks and drifts its slice; the slices' new positions go round a
/// ring (p - 1 stages, each rank passing on the block it received last to
/// the next rank), every block written to the device as it arrives while
/// the next one travels; then each rank sums the forces on its slice over
/// all bodies and kicks again.
///
/// The force sum waits for the last block, so that each body's sum runs
/// over all bodies in one order: the results are bit for bit nbody_step's
/// on one device of the same kind. The exchange carries n x 16 bytes a
/// rank a step against n^2 / p pair interactions.
namespace portacl::mpi {

/// All-pairs N-body over the ranks (above), this rank's slice on its device.
class DistributedNbody {
 public:
  /// Every body and velocity (4 floats a body; the same on every rank).
  /// Errors as GroupNbody's, naming the rank.
  DistributedNbody(Context& ctx, MPI_Comm comm, const std::vector<float>& bodies, const std::vector<float>& velocities,
                   const NbodyOptions& options);
  ~DistributedNbody();
  DistributedNbody(const DistributedNbody&) = delete;
  DistributedNbody& operator=(const DistributedNbody&) = delete;

  /// One leapfrog step of dt; every rank calls it with the same dt.
  void step(float dt);
  /// The whole state on every rank (MPI_Allgatherv; every rank calls it).
  std::vector<float> bodies() const;
  /// Every velocity on every rank, as bodies().
  std::vector<float> velocities() const;
  /// This rank's bodies: first() .. + count().
  std::size_t first() const;
  /// This rank's bodies' count.
  std::size_t count() const;
  /// Seconds this rank spent in the ring, from its slice drifted to every
  /// block written to its device.
  double exchange_seconds() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl::mpi

// ---- distributed training ----------------------------------------------------
/// Data-parallel training of a SmallCnn across the ranks of an MPI
/// communicator: a replica a rank (built with the same shape and seed
/// everywhere), each rank's share of the batch on its own device, the
/// gradients averaged by one MPI_Allreduce (each share weighted by its
/// images: the seed's sum without an average is fixed), and the same SGD
/// step on every replica.
///
/// Results: those of one device's train_step on the whole batch, within
/// float rounding (the average is taken in double).
namespace portacl::mpi {

/// What one distributed training step did.
struct TrainingStepResult {
  double loss = 0;              ///< the mean loss over the whole batch, before the step
  std::size_t batch = 0;        ///< images over all ranks
  double exchange_seconds = 0;  ///< reading, averaging and writing the gradients
};

/// Every rank calls it with its own images (local_batch x C x H x W, may
/// be 0) and labels. Errors name the rank; a rank that fails aborts the
/// step on every rank (an MPI_Allreduce of the failure), each throwing.
TrainingStepResult distributed_train_step(SmallCnn& replica, MPI_Comm comm, const Buffer<float>& images,
                                          const Buffer<int>& labels, std::size_t local_batch,
                                          const SgdOptions& options);

/// Rank 0's parameters to every replica (MPI_Bcast of the packed form).
void broadcast_parameters(SmallCnn& replica, MPI_Comm comm);

}  // namespace portacl::mpi
