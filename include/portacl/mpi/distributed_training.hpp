// SPDX-License-Identifier: Apache-2.0
/// \file
/// Data-parallel training of a SmallCnn across the ranks of an MPI
/// communicator: a replica a rank (built with the same shape and seed
/// everywhere), each rank's share of the batch on its own device, the
/// gradients averaged by one MPI_Allreduce (each share weighted by its
/// images: the seed's sum without an average is fixed), and the same SGD
/// step on every replica.
///
/// Results: those of one device's train_step on the whole batch, within
/// float rounding (the average is taken in double).
#pragma once

#include <mpi.h>

#include <cstddef>

#include "portacl/kernels/ml/small_cnn.hpp"
#include "portacl/mpi/rank.hpp"

namespace portacl::mpi {

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
