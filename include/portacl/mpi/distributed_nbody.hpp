// SPDX-License-Identifier: Apache-2.0
/// \file
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
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "portacl/kernels/particles/nbody.hpp"
#include "portacl/mpi/rank.hpp"

namespace portacl::mpi {

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
  std::vector<float> velocities() const;
  /// This rank's bodies: first() .. + count().
  std::size_t first() const;
  std::size_t count() const;
  /// Seconds this rank spent in the ring, from its slice drifted to every
  /// block written to its device.
  double exchange_seconds() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl::mpi
