// SPDX-License-Identifier: Apache-2.0
// CSR to the other formats, on the device (kernels/sparse_convert.cl), and
// the row lists and groups of the CSR variants, each made once per matrix.
#include <algorithm>
#include <limits>

#include "portacl/error.hpp"

#include "portacl/sparse.hpp"
#include "../kernel_call.hpp"
#include "device_arrays.hpp"
#include "sparse_kernels.hpp"
#include "sparse_storage.hpp"
#include "kernels/sparse/tunables.hpp"
#include "rules/sparse_rules.hpp"

namespace portacl {
namespace {

template <class T>
KernelRef convert_kernel(const SparseMatrix<T>& a, const std::string& entry, bool column_major = true) {
  return sparse_kernels::kernel(
      "sparse_convert.cl", entry,
      {{"ROW_T", sparse_kernels::row_type(a.wide_row_pointers())}, {"ELL_COLUMN_MAJOR", column_major ? "1" : "0"}});
}

template <class T>
KernelTraits convert_traits() {
  return sparse_kernel_traits("sparse_convert", element_of<T>::value);
}

// Column-major slots start each slot column on a 128-byte boundary.
std::size_t column_pitch(std::size_t rows) { return kernel_call::round_up(std::max<std::size_t>(rows, 1), 32); }

RowGroups upload_groups(Context& ctx, const std::vector<std::size_t>& bounds, const char* what) {
  RowGroups g;
  g.groups = bounds.size() - 1;
  g.bounds = device_arrays::copy_of(ctx, std::vector<cl_ulong>(bounds.begin(), bounds.end()), what);
  return g;
}

template <class T>
EllArrays make_ell(const SparseMatrix<T>& a, std::size_t width, bool with_lengths, bool column_major,
                   const cl::Buffer& overflow_at, CooArrays* overflow, const std::string& what) {
  Context& ctx = a.context();
  EllArrays e;
  e.width = width;
  e.column_major = column_major;
  e.pitch = column_major ? column_pitch(a.rows()) : a.rows();
  const std::size_t slots = checked_product(e.pitch, width, what.c_str());
  e.col = device_arrays::make<std::uint32_t>(ctx, slots, what + " column indices");
  e.val = device_arrays::make<T>(ctx, slots, what + " values");
  if (with_lengths) e.row_length = device_arrays::make<std::uint32_t>(ctx, a.rows(), what + " row lengths");
  const cl::Buffer none;
  kernel_call::launch_1d(ctx, convert_kernel(a, "csr_to_ell", column_major), convert_traits<T>(), a.rows(), {},
                         static_cast<cl_uint>(width), static_cast<cl_ulong>(e.pitch), a.row_pointers(), a.columns(),
                         a.values(), e.col, e.val, with_lengths ? e.row_length : none, overflow_at,
                         overflow ? overflow->row : none, overflow ? overflow->col : none,
                         overflow ? overflow->val : none);
  return e;
}

}  // namespace

template <class T>
const CooArrays& coo_of(const SparseMatrix<T>& a, SparseStorage<T>& s) {
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.coo) {
    auto c = std::make_unique<CooArrays>();
    c->entries = a.nnz();
    c->row = device_arrays::make<std::uint32_t>(a.context(), a.nnz(), "COO row numbers");
    c->col = a.columns();
    c->val = a.values();
    kernel_call::launch_1d(a.context(), convert_kernel(a, "csr_row_numbers"), convert_traits<T>(), a.rows(), {},
                           a.row_pointers(), c->row);
    s.coo = std::move(c);
  }
  return *s.coo;
}

template <class T>
const EllArrays& ell_of(const SparseMatrix<T>& a, SparseStorage<T>& s, bool with_lengths, bool column_major) {
  std::lock_guard<std::mutex> lock(s.mutex);
  const auto key = std::make_pair(with_lengths, column_major);
  auto found = s.ell.find(key);
  if (found == s.ell.end()) {
    const std::size_t width = static_cast<std::size_t>(a.shape().longest_row);
    found = s.ell
                .emplace(key, make_ell(a, width, with_lengths, column_major, cl::Buffer(), nullptr,
                                       with_lengths ? "ELLPACK-R" : "ELL"))
                .first;
  }
  return found->second;
}

template <class T>
std::pair<const EllArrays*, const CooArrays*> hyb_of(const SparseMatrix<T>& a, SparseStorage<T>& s, bool column_major) {
  std::lock_guard<std::mutex> lock(s.mutex);
  auto found = s.hyb.find(column_major);
  if (found == s.hyb.end()) {
    Context& ctx = a.context();
    const std::size_t width = hyb_ell_width(a.shape());
    // Where each row's entries past the first `width` go in the coordinates.
    std::vector<cl_ulong> overflow_at(std::max<std::size_t>(a.rows(), 1), 0);
    std::size_t rest = 0;
    for (std::size_t r = 0; r < a.rows(); ++r) {
      overflow_at[r] = rest;
      rest += static_cast<std::size_t>(std::max<std::uint64_t>(s.row_ptr[r + 1] - s.row_ptr[r], width) - width);
    }
    CooArrays coo;
    coo.entries = rest;
    coo.row = device_arrays::make<std::uint32_t>(ctx, rest, "HYB coordinate rows");
    coo.col = device_arrays::make<std::uint32_t>(ctx, rest, "HYB coordinate columns");
    coo.val = device_arrays::make<T>(ctx, rest, "HYB coordinate values");
    const cl::Buffer at = device_arrays::copy_of(ctx, overflow_at, "HYB overflow offsets");
    EllArrays ell = make_ell(a, width, false, column_major, at, &coo, "HYB's ELL part");
    found = s.hyb.emplace(column_major, std::make_pair(std::move(ell), std::move(coo))).first;
  }
  return {&found->second.first, &found->second.second};
}

template <class T>
const DiaArrays& dia_of(const SparseMatrix<T>& a, SparseStorage<T>& s) {
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.dia) {
    Context& ctx = a.context();
    auto d = std::make_unique<DiaArrays>();
    d->pitch = column_pitch(a.rows());
    const std::size_t positions = a.rows() + a.cols() > 0 ? a.rows() + a.cols() - 1 : 0;
    const cl::Buffer occupied = device_arrays::make<std::uint32_t>(ctx, positions, "DIA diagonal marks");
    device_arrays::zero<std::uint32_t>(ctx, occupied, positions, "DIA diagonal marks");
    kernel_call::launch_1d(ctx, convert_kernel(a, "csr_mark_diagonals"), convert_traits<T>(), a.rows(), {},
                           a.row_pointers(), a.columns(), occupied);
    std::vector<std::uint32_t> slot = device_arrays::read<std::uint32_t>(ctx, occupied, positions, "DIA marks");
    for (std::size_t p = 0; p < positions; ++p)
      if (slot[p]) {
        slot[p] = static_cast<std::uint32_t>(d->offsets.size());
        d->offsets.push_back(static_cast<std::int64_t>(p) - static_cast<std::int64_t>(a.rows()) + 1);
      }
    const std::size_t values = checked_product(d->offsets.size(), d->pitch, "DIA data");
    d->data = device_arrays::make<T>(ctx, values, "DIA data (" + std::to_string(d->offsets.size()) + " diagonals)");
    device_arrays::zero<T>(ctx, d->data, values, "DIA data");
    d->offset =
        device_arrays::copy_of(ctx, std::vector<cl_long>(d->offsets.begin(), d->offsets.end()), "DIA diagonal offsets");
    const cl::Buffer diagonal_of = device_arrays::copy_of(ctx, slot, "DIA diagonal slots");
    kernel_call::launch_1d(ctx, convert_kernel(a, "csr_to_dia"), convert_traits<T>(), a.rows(), {},
                           static_cast<cl_ulong>(d->pitch), a.row_pointers(), a.columns(), a.values(), diagonal_of,
                           d->data);
    s.dia = std::move(d);
  }
  return *s.dia;
}

template <class T>
const cl::Buffer& inverse_diagonal_of(const SparseMatrix<T>& a, SparseStorage<T>& s, const char* op) {
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.inverse_diagonal()) {
    Context& ctx = a.context();
    cl::Buffer inv = device_arrays::make<T>(ctx, a.rows(), "inverse diagonal");
    const cl::Buffer bad = device_arrays::copy_of(ctx, std::vector<cl_uint>{0xffffffffu}, "diagonal check");
    kernel_call::launch_1d(ctx, convert_kernel(a, "csr_inverse_diagonal"), convert_traits<T>(), a.rows(), {},
                           a.row_pointers(), a.columns(), a.values(), inv, bad);
    const cl_uint row = device_arrays::read<cl_uint>(ctx, bad, 1, "diagonal check")[0];
    if (row != 0xffffffffu)
      throw Error(std::string(op) + ": Jacobi preconditioning needs a non-zero diagonal, but row " +
                  std::to_string(row) + " has none");
    s.inverse_diagonal = inv;
  }
  return s.inverse_diagonal;
}

template <class T>
const RowBins& bins_of(const SparseMatrix<T>& a, SparseStorage<T>& s) {
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.bins) {
    std::array<std::vector<std::uint32_t>, kRowLengthBins> lists;
    for (std::size_t r = 0; r < a.rows(); ++r)
      lists[row_length_bin(s.row_ptr[r + 1] - s.row_ptr[r])].push_back(static_cast<std::uint32_t>(r));
    auto b = std::make_unique<RowBins>();
    for (std::size_t k = 0; k < kRowLengthBins; ++k) {
      b->rows[k] = lists[k].size();
      b->list[k] = device_arrays::copy_of(a.context(), lists[k], "adaptive SpMV row list");
    }
    s.bins = std::move(b);
  }
  return *s.bins;
}

template <class T>
const RowGroups& blocks_of(const SparseMatrix<T>& a, SparseStorage<T>& s, std::size_t most) {
  std::lock_guard<std::mutex> lock(s.mutex);
  auto found = s.blocks.find(most);
  if (found == s.blocks.end())
    found =
        s.blocks
            .emplace(most, upload_groups(a.context(), equal_nnz_row_blocks(s.row_ptr, most, most), "SpMV row blocks"))
            .first;
  return found->second;
}

template <class T>
std::uint64_t long_row_entries_of(const SparseMatrix<T>&, SparseStorage<T>& s, std::size_t most) {
  std::lock_guard<std::mutex> lock(s.mutex);
  auto found = s.long_row_entries.find(most);
  if (found != s.long_row_entries.end()) return found->second;
  std::uint64_t entries = 0;
  for (std::size_t r = 0; r + 1 < s.row_ptr.size(); ++r)
    if (s.row_ptr[r + 1] - s.row_ptr[r] > most) entries += s.row_ptr[r + 1] - s.row_ptr[r];
  return s.long_row_entries.emplace(most, entries).first->second;
}

template <class T>
const LongRowSegments& long_rows_of(const SparseMatrix<T>& a, SparseStorage<T>& s, std::size_t most,
                                    std::size_t piece) {
  std::lock_guard<std::mutex> lock(s.mutex);
  auto found = s.long_rows.find({most, piece});
  if (found != s.long_rows.end()) return found->second;
  std::vector<cl_uint> segment_long, long_row, first_segment{0};
  std::vector<cl_ulong> segment_first;
  for (std::size_t r = 0; r + 1 < s.row_ptr.size(); ++r) {
    if (s.row_ptr[r + 1] - s.row_ptr[r] <= most) continue;
    long_row.push_back(static_cast<cl_uint>(r));
    for (std::uint64_t k = s.row_ptr[r]; k < s.row_ptr[r + 1]; k += piece) {
      segment_long.push_back(static_cast<cl_uint>(long_row.size() - 1));
      segment_first.push_back(k);
    }
    first_segment.push_back(static_cast<cl_uint>(segment_long.size()));
  }
  LongRowSegments l;
  l.segments = segment_long.size();
  l.rows = long_row.size();
  if (l.segments) {
    Context& ctx = a.context();
    l.segment_first = device_arrays::copy_of(ctx, segment_first, "SpMV long-row segments");
    l.long_row = device_arrays::copy_of(ctx, long_row, "SpMV long rows");
    l.first_segment = device_arrays::copy_of(ctx, first_segment, "SpMV long rows");
    l.segment_long = device_arrays::copy_of(ctx, segment_long, "SpMV long-row segments");
    l.partial = device_arrays::make<T>(ctx, l.segments, "SpMV long-row partial sums");
    l.pieces_done = device_arrays::make<cl_uint>(ctx, l.rows, "SpMV long-row piece counts");
    device_arrays::zero<cl_uint>(ctx, l.pieces_done, l.rows, "SpMV long-row piece counts");
  }
  return s.long_rows.emplace(std::make_pair(most, piece), std::move(l)).first->second;
}

template <class T>
const MergeTiles& merge_tiles_of(const SparseMatrix<T>& a, SparseStorage<T>& s, std::size_t items) {
  std::lock_guard<std::mutex> lock(s.mutex);
  auto found = s.merge_tiles.find(items);
  if (found != s.merge_tiles.end()) return found->second;
  const std::vector<std::size_t> tile_row = merge_path_tile_rows(s.row_ptr, items);
  const std::size_t tiles = tile_row.size() - 1, rows = a.rows();
  if (tiles >= std::numeric_limits<cl_uint>::max())
    throw Error("spmv csr-merge: " + std::to_string(tiles) + " tiles of " + std::to_string(items) +
                " items are more than 32-bit tile numbers can count");
  // Tile t ends inside row tile_row[t + 1]; consecutive tiles ending inside
  // the same row share its run, which the next tile closes.
  std::vector<cl_uint> run_first(std::max<std::size_t>(tiles, 1), 0), run_tiles(run_first.size(), 0), run_starts;
  for (std::size_t t = 0; t < tiles; ++t) {
    if (tile_row[t + 1] >= rows) continue;
    const bool continues = t > 0 && tile_row[t] == tile_row[t + 1];
    run_first[t] = continues ? run_first[t - 1] : static_cast<cl_uint>(t);
    if (!continues) {
      run_starts.push_back(static_cast<cl_uint>(t));
      run_tiles[t] = 1;  // the closing tile
    }
    ++run_tiles[run_first[t]];
  }
  Context& ctx = a.context();
  MergeTiles m;
  m.tiles = tiles;
  m.runs = run_starts.size();
  m.tile_row =
      device_arrays::copy_of(ctx, std::vector<cl_ulong>(tile_row.begin(), tile_row.end()), "SpMV merge-path tiles");
  m.run_first = device_arrays::copy_of(ctx, run_first, "SpMV merge-path runs");
  m.run_tiles = device_arrays::copy_of(ctx, run_tiles, "SpMV merge-path runs");
  m.run_starts = device_arrays::copy_of(ctx, run_starts, "SpMV merge-path runs");
  m.carry_value = device_arrays::make<T>(ctx, tiles, "SpMV merge-path carries");
  m.closing_value = device_arrays::make<T>(ctx, tiles, "SpMV merge-path carries");
  m.run_done = device_arrays::make<cl_uint>(ctx, tiles, "SpMV merge-path run counts");
  device_arrays::zero<cl_uint>(ctx, m.run_done, tiles, "SpMV merge-path run counts");
  return s.merge_tiles.emplace(items, std::move(m)).first->second;
}

template <class T>
const RowGroups& chunks_of(const SparseMatrix<T>& a, SparseStorage<T>& s, std::size_t count) {
  std::lock_guard<std::mutex> lock(s.mutex);
  auto found = s.chunks.find(count);
  if (found == s.chunks.end()) {
    const std::uint64_t target =
        kernel_call::ceil_div(std::max<std::size_t>(a.nnz(), 1), std::max<std::size_t>(count, 1));
    found =
        s.chunks.emplace(count, upload_groups(a.context(), equal_nnz_row_blocks(s.row_ptr, target), "SpMV row chunks"))
            .first;
  }
  return found->second;
}

#define PORTACL_SPARSE_CONVERSIONS(T)                                                                                \
  template const CooArrays& coo_of<T>(const SparseMatrix<T>&, SparseStorage<T>&);                                    \
  template const EllArrays& ell_of<T>(const SparseMatrix<T>&, SparseStorage<T>&, bool, bool);                        \
  template std::pair<const EllArrays*, const CooArrays*> hyb_of<T>(const SparseMatrix<T>&, SparseStorage<T>&, bool); \
  template const DiaArrays& dia_of<T>(const SparseMatrix<T>&, SparseStorage<T>&);                                    \
  template const RowBins& bins_of<T>(const SparseMatrix<T>&, SparseStorage<T>&);                                     \
  template const cl::Buffer& inverse_diagonal_of<T>(const SparseMatrix<T>&, SparseStorage<T>&, const char*);         \
  template const RowGroups& blocks_of<T>(const SparseMatrix<T>&, SparseStorage<T>&, std::size_t);                    \
  template const RowGroups& chunks_of<T>(const SparseMatrix<T>&, SparseStorage<T>&, std::size_t);                    \
  template const MergeTiles& merge_tiles_of<T>(const SparseMatrix<T>&, SparseStorage<T>&, std::size_t);              \
  template std::uint64_t long_row_entries_of<T>(const SparseMatrix<T>&, SparseStorage<T>&, std::size_t);             \
  template const LongRowSegments& long_rows_of<T>(const SparseMatrix<T>&, SparseStorage<T>&, std::size_t, std::size_t);
PORTACL_SPARSE_CONVERSIONS(float)
PORTACL_SPARSE_CONVERSIONS(double)

}  // namespace portacl
