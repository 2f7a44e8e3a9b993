// SPDX-License-Identifier: Apache-2.0
/// \file
/// What a sparse matrix's structure looks like, computed once per structure
/// on the host: row-length statistics, the rows in each length bin (the
/// bins the adaptive CSR SpMV launches a kernel for), and blocks of whole
/// rows holding about equal numbers of entries (how row-blocked and CPU
/// kernels share out work). The SpMV choice reads it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "portacl/kernels/sparse/host_csr.hpp"

#include "portacl/rules/sparse_method.hpp"

namespace portacl {

/// The statistics the SpMV rules read (rows_with_at_least included;
/// diagonals from count_diagonals).
using SparsityProfile = SparseShape;

/// From a CSR row-pointer array (rows + 1 ascending offsets, starting at 0);
/// cols and diagonals are left 0.
SparsityProfile profile_rows(const std::vector<std::uint64_t>& row_ptr);

/// The bin of a row of `length` entries.
std::size_t row_length_bin(std::uint64_t length);

/// Occupied diagonals of a rows x cols matrix in CSR: the distinct values
/// of column - row.
std::size_t count_diagonals(std::size_t rows, std::size_t cols, const std::vector<std::uint64_t>& row_ptr,
                            const std::vector<std::uint32_t>& col);

/// "" when a square CSR matrix equals its transpose, entry for entry, to a
/// few roundings of T (|a_ij - a_ji| <= 16 eps max(|a_ij|, |a_ji|)); else
/// the first pair that differs ("(3, 7) is 1.5 but (7, 3) is 2", or "(7, 3)
/// is absent"), or why a non-square matrix is not symmetric. Columns must
/// ascend within rows (csr_problem). One binary search per entry.
template <class T>
std::string asymmetry(const HostCsr<T>& csr);

/// Boundaries of consecutive blocks of whole rows, each holding at most
/// `target_nnz` entries unless it is a single longer row: block b covers
/// rows [bounds[b], bounds[b + 1]). Every row is in exactly one block;
/// no block is empty unless there are no rows. target_nnz 0 counts as 1.
/// `max_rows` (0 counts as 1) caps the rows of a block: a kernel that
/// gives a block to one work-group walks its rows, so a run of empty rows
/// (the halo part of a row block, a matrix of mostly empty rows) must not
/// pile into one block.
std::vector<std::size_t> equal_nnz_row_blocks(const std::vector<std::uint64_t>& row_ptr, std::uint64_t target_nnz,
                                              std::size_t max_rows = SIZE_MAX);

/// The merge path's tiles: the rows' ends and the entries merged in order
/// (a row's end after its entries) are rows + nnz items, cut into tiles of
/// `items` (the last one shorter). tile_rows[t] is how many rows end
/// before item t * items, so tile t starts at row tile_rows[t] and entry
/// t * items - tile_rows[t]; the list ends with rows. Throws
/// portacl::Error for items 0 or row pointers that are not rows + 1
/// ascending offsets.
std::vector<std::size_t> merge_path_tile_rows(const std::vector<std::uint64_t>& row_ptr, std::uint64_t items);

}  // namespace portacl
