// SPDX-License-Identifier: Apache-2.0
// Rank-named errors, the ranks' split and a device a rank (see the header).
#include "portacl/mpi.hpp"

#include <cstdlib>

#include "rules/group_rules.hpp"

namespace portacl::mpi {

std::string rank_prefix(MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  return "rank " + std::to_string(rank) + " of " + std::to_string(size) + ": ";
}

std::vector<std::size_t> rank_split(std::size_t n, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return split_by_weight(n, std::vector<double>(std::size_t(size), 1.0)).first;
}

namespace {
void replace_all(std::string& text, const std::string& what, const std::string& with) {
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
}
}  // namespace

std::string rank_device_selector(MPI_Comm comm, std::string selector) {
  if (selector.empty())
    if (const char* env = std::getenv("PORTACL_DEVICE")) selector = env;
  int rank = 0, local = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  replace_all(selector, "{rank}", std::to_string(rank));
  replace_all(selector, "{local_rank}", std::to_string(local));
  return selector;
}

}  // namespace portacl::mpi
