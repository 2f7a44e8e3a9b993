// SPDX-License-Identifier: Apache-2.0
/// \file
/// The 2D heat equation (heat2d.hpp) across the ranks of an MPI
/// communicator, one device a rank: the grid's rows cut into equal slabs
/// (rank_split), each with k ghost rows on each side that has a
/// neighbouring rank (rule group.halo-width), exchanged every k steps by
/// non-blocking messages from pinned host memory. Each rank steps two thin
/// bands around its edge rows first and the edge rows travel while its
/// slab steps (the slabs of GroupHeat2d).
///
/// Results: bit for bit those of heat2d on one device of the same kind.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "portacl/kernels/stencil/heat2d.hpp"
#include "portacl/mpi/rank.hpp"

namespace portacl::mpi {

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
  std::size_t first_row() const;
  std::size_t local_rows() const;
  /// The whole field on every rank (MPI_Allgatherv; every rank calls it).
  std::vector<T> gather() const;
  std::size_t halo_rows() const;
  /// Seconds this rank spent in the ghost exchange, from its bands stepped
  /// to its ghost rows received and enqueued (its slab steps meanwhile).
  double exchange_seconds() const;
  std::string describe() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl::mpi
