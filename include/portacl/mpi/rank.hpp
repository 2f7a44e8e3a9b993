// SPDX-License-Identifier: Apache-2.0
/// \file
/// What every part of the MPI layer shares: errors that name their rank,
/// the equal split of rows or bodies over the ranks, and a device a rank.
///
/// Part of libportacl_mpi, built when Open MPI is found (PORTACL_WITH_MPI).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

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
