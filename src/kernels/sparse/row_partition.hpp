// SPDX-License-Identifier: Apache-2.0
// A square CSR matrix cut into contiguous row blocks, one a device-group
// member (the offsets of rule group.split). Each block is kept as two
// matrices, in the way distributed sparse libraries keep theirs:
//   local  the block's columns inside its own rows (renumbered from 0),
//          which need only the member's own part of x;
//   halo   the block's other columns, renumbered into the member's halo:
//          the entries of x it reads from other members, ascending, so
//          that what comes from one owner is one contiguous run.
// The product is local * x_own + halo * x_halo: the local part runs while
// the halo travels. Host only; the devices' side is halo_exchange.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "portacl/sparse.hpp"

namespace portacl {

template <class T>
struct RowBlock {
  std::size_t first_row = 0, rows = 0;
  HostCsr<T> local;                         ///< rows x rows
  HostCsr<T> halo;                          ///< rows x halo_columns.size()
  std::vector<std::uint32_t> halo_columns;  ///< global columns, ascending
  std::vector<std::size_t> halo_from;       ///< members + 1 offsets into halo_columns by owner
};

template <class T>
struct RowPartition {
  std::vector<RowBlock<T>> blocks;
  /// What each owner packs for the others: its local indices, receiver by
  /// receiver (send_to[owner][i] to send_to[owner][i + 1] go to member i).
  std::vector<std::vector<std::uint32_t>> send_index;
  std::vector<std::vector<std::size_t>> send_to;
};

/// `a` (square, well formed) cut at `offsets` (members + 1, from 0 to
/// a.rows, non-decreasing).
template <class T>
RowPartition<T> partition_rows(const HostCsr<T>& a, const std::vector<std::size_t>& offsets);

/// The block's diagonal entries of A (0 where a row has none; duplicates
/// added, as the product adds them), for Jacobi preconditioning.
template <class T>
std::vector<T> block_diagonal(const RowBlock<T>& block);

}  // namespace portacl
