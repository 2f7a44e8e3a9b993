// SPDX-License-Identifier: Apache-2.0
// What a SparseMatrix keeps beside its CSR arrays, made on first need and
// reused while only x and y change: the other formats, converted on the
// device, and the row lists and blocks of the CSR variants.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "portacl/sparse.hpp"
#include "portacl/buffer.hpp"
#include "rules/plan_provider.hpp"

namespace portacl {

struct EllArrays {
  std::size_t width = 0, pitch = 0;  // slots per row; distance between slot columns (column-major)
  bool column_major = true;
  cl::Buffer col, val, row_length;  // row_length: ELL-R only
};

struct CooArrays {
  std::size_t entries = 0;
  cl::Buffer row, col, val;  // col and val: CSR's own arrays for the COO format
};

struct DiaArrays {
  std::size_t pitch = 0;
  std::vector<std::int64_t> offsets;  // column - row of each stored diagonal, ascending
  cl::Buffer offset, data;
};

// Consecutive groups of whole rows: group g is rows [bounds[g], bounds[g + 1]).
struct RowGroups {
  std::size_t groups = 0;
  cl::Buffer bounds;  // ulong
};

// Rows longer than a csr-block unit of `most` entries, cut into segments:
// segment s is of long row segment_long[s] (row number long_row[that]) and
// sums its entries from segment_first[s] (at most a piece of them); long
// row l has the segments [first_segment[l], first_segment[l + 1]); partial
// holds a sum per segment; pieces_done counts, per long row, the pieces a
// product has finished (back to 0 after it).
struct LongRowSegments {
  std::size_t segments = 0, rows = 0;
  cl::Buffer segment_first, segment_long, long_row, first_segment, partial, pieces_done;
};

// csr-merge's tiles of `items` merge-path items (merge_path_tile_rows):
// tile t starts at row tile_row[t] (ulong, tiles + 1 of them). A run is a
// row cut between tiles: the tiles that end inside it, then the one that
// closes it. run_first[t] is the first tile of the run tile t ends inside
// (tiles ending after the last row: unused); run_tiles[f], for a run's
// first tile f, counts its tiles; run_starts lists the runs' first tiles.
// carry_value and closing_value hold each tile's parts of its runs;
// run_done counts, per run, the tiles a product has finished (back to 0
// after it).
struct MergeTiles {
  std::size_t tiles = 0, runs = 0;
  cl::Buffer tile_row, run_first, run_tiles, run_starts, carry_value, closing_value, run_done;
};

// Pinned host memory a solver reads its checks into, two windows' worth
// (state: 3 words a window; history: `window` residuals a window). Made
// once per thread and window: making pinned memory maps it, which costs
// about a millisecond and waits for the queue.
template <class T>
struct SolverCheckSlots {
  SolverCheckSlots(Context& ctx, std::size_t w) : window(w), state(ctx, 6), history(ctx, 2 * w) {}
  std::size_t window;
  HostBuffer<cl_uint> state;
  HostBuffer<T> history;
};

// The adaptive variant's rows of each length bin.
struct RowBins {
  std::array<std::size_t, kRowLengthBins> rows{};
  std::array<cl::Buffer, kRowLengthBins> list;  // uint row numbers
};

// A method's kernels and plan for this matrix, made on a thread's first
// call and kept while plan_generation() stays what it was: a repeated
// product then costs argument setting and the enqueue, not planning.
// `sizes` holds what the launch needs to find its arrays again (csr-block:
// its unit and piece of entries; csr-merge: its items per tile).
struct PreparedSpmv {
  std::uint64_t generation = 0;
  LaunchPlan plan;
  std::vector<PreparedKernel> kernels;
  std::array<std::size_t, 2> sizes{};
};

// Whose preparation it is: the thread's and the method's (no string built
// on a repeated call's path).
using PreparedSpmvKey = std::tuple<std::thread::id, SparseFormat, CsrVariant>;

template <class T>
struct SparseStorage {
  std::mutex mutex;                    // conversions happen once, whichever thread asks first
  std::vector<std::uint64_t> row_ptr;  // host copy: blocks, bins and HYB offsets come from it
  std::unique_ptr<CooArrays> coo;
  // By layout (and, for ELL, with or without row lengths): a plan made for
  // another device class may ask for the other one.
  std::map<std::pair<bool, bool>, EllArrays> ell;       // (with lengths, column-major)
  std::map<bool, std::pair<EllArrays, CooArrays>> hyb;  // by column-major
  std::unique_ptr<DiaArrays> dia;
  std::unique_ptr<RowBins> bins;
  cl::Buffer inverse_diagonal;  // Jacobi's, once asked for
  // The automatic choice for calls that leave the plan to the device, valid
  // while plan_generation() stays what it was (a tuning database rewritten
  // may change it): a repeated product costs no planning.
  std::shared_ptr<const SpmvChoice> choice;
  std::uint64_t choice_generation = 0;
  std::map<std::size_t, RowGroups> blocks;                                   // by the most entries per block
  std::map<std::size_t, RowGroups> chunks;                                   // by the number of chunks
  std::map<std::pair<std::size_t, std::size_t>, LongRowSegments> long_rows;  // by (most, piece)
  std::map<std::size_t, std::uint64_t> long_row_entries;                     // by most
  std::map<std::size_t, MergeTiles> merge_tiles;                             // by items per tile
  // By thread (a kernel's arguments are set per call) and method.
  std::map<PreparedSpmvKey, std::shared_ptr<const PreparedSpmv>> prepared;
  // By thread and window.
  std::map<std::pair<std::thread::id, std::size_t>, std::shared_ptr<SolverCheckSlots<T>>> check_slots;
};

// Conversions on the device (sparse_convert.cpp); each is made once.
template <class T>
const CooArrays& coo_of(const SparseMatrix<T>& a, SparseStorage<T>& s);
template <class T>
const EllArrays& ell_of(const SparseMatrix<T>& a, SparseStorage<T>& s, bool with_lengths, bool column_major);
template <class T>
std::pair<const EllArrays*, const CooArrays*> hyb_of(const SparseMatrix<T>& a, SparseStorage<T>& s, bool column_major);
template <class T>
const DiaArrays& dia_of(const SparseMatrix<T>& a, SparseStorage<T>& s);
template <class T>
const RowBins& bins_of(const SparseMatrix<T>& a, SparseStorage<T>& s);
// 1 / A[i][i] per row (Jacobi); throws portacl::Error naming the first
// row without a non-zero diagonal entry, `op` first.
template <class T>
const cl::Buffer& inverse_diagonal_of(const SparseMatrix<T>& a, SparseStorage<T>& s, const char* op);
// Groups of whole rows of at most `most` entries (a longer row alone).
template <class T>
const RowGroups& blocks_of(const SparseMatrix<T>& a, SparseStorage<T>& s, std::size_t most);
// How many entries the rows of more than `most` entries hold.
template <class T>
std::uint64_t long_row_entries_of(const SparseMatrix<T>& a, SparseStorage<T>& s, std::size_t most);
// The rows of more than `most` entries, cut into segments of `piece`.
template <class T>
const LongRowSegments& long_rows_of(const SparseMatrix<T>& a, SparseStorage<T>& s, std::size_t most, std::size_t piece);
// The merge path cut into tiles of `items` items.
template <class T>
const MergeTiles& merge_tiles_of(const SparseMatrix<T>& a, SparseStorage<T>& s, std::size_t items);
// About `count` groups of whole rows with equal entries.
template <class T>
const RowGroups& chunks_of(const SparseMatrix<T>& a, SparseStorage<T>& s, std::size_t count);

}  // namespace portacl
