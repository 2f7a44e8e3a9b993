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
#include <vector>

namespace portacl {

/// Row-length bins: empty rows, then 1-7, 8-31, 32-128 and more than 128
/// entries.
constexpr std::size_t kRowLengthBins = 5;
/// The largest row length of each bin but the last.
constexpr std::array<std::uint64_t, kRowLengthBins - 1> kRowLengthBinTops{{0, 7, 31, 128}};

struct SparsityProfile {
  std::size_t rows = 0, nnz = 0;
  std::uint64_t shortest_row = 0, longest_row = 0;
  double mean_row = 0, row_stddev = 0;                    ///< entries per row
  std::array<std::size_t, kRowLengthBins> rows_in_bin{};  ///< how many rows each bin holds
};

/// From a CSR row-pointer array (rows + 1 ascending offsets, starting at 0).
SparsityProfile profile_rows(const std::vector<std::uint64_t>& row_ptr);

/// The bin of a row of `length` entries.
std::size_t row_length_bin(std::uint64_t length);

/// Boundaries of consecutive blocks of whole rows, each holding at most
/// `target_nnz` entries unless it is a single longer row: block b covers
/// rows [bounds[b], bounds[b + 1]). Every row is in exactly one block;
/// no block is empty unless there are no rows. target_nnz 0 counts as 1.
std::vector<std::size_t> equal_nnz_row_blocks(const std::vector<std::uint64_t>& row_ptr, std::uint64_t target_nnz);

}  // namespace portacl
