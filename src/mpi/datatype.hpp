// SPDX-License-Identifier: Apache-2.0
// The MPI datatype of a portacl element type, and counts checked to fit
// MPI's int.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <string>

#include "portacl/error.hpp"
#include "portacl/mpi.hpp"

namespace portacl::mpi {

template <class T>
MPI_Datatype datatype() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
  return sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
}

inline int message_count(std::size_t count, MPI_Comm comm) {
  if (count > std::size_t(INT_MAX))
    throw Error(rank_prefix(comm) + "a message of " + std::to_string(count) +
                " elements is more than MPI's int count can carry");
  return int(count);
}

}  // namespace portacl::mpi
