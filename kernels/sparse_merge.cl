// SPDX-License-Identifier: Apache-2.0
// y = alpha * A x + beta * y for A in compressed sparse rows, balanced along
// the merge path (the idea of Merrill and Garland, SC 2016): the rows' ends
// and the entries, merged in order, are one list of rows + entries items,
// and every work-item takes IPT consecutive items of it, whatever the row
// lengths. A work-group's tile of ITEMS = WG_SIZE * IPT items starts at
// (tile_row[t] rows ended, t * ITEMS - tile_row[t] entries), found on the
// host once per matrix. The group stages the tile's products val * x and
// row ends in local memory (one coalesced pass), each work-item finds its
// own start by a binary search there and walks its items: an entry adds to
// the running sum, a row end closes a row. A row that began in an earlier
// work-item of the group gets their carries added (a walk back to the
// work-item where it began).
//
// A row cut between tiles (a run: the tiles that end inside it, then the
// tile that closes it) is finished by whichever of its tiles finishes last
// (an atomic count per run, SINGLE_PASS), else by a second launch: each
// tile publishes its part (carry_value, and the closing tile's
// closing_value), and the finisher adds them in tile order. The host
// defines ROW_T (the row pointers' type), IPT and SINGLE_PASS; beta == 0
// never reads y; an empty row gives beta * y. Every sum is added in a
// fixed order: the result does not depend on timing.
#include "portacl_common.cl"

#ifndef IPT
#define IPT 7
#endif
#define ITEMS (WG_SIZE * IPT)
#ifndef SINGLE_PASS
#define SINGLE_PASS 0
#endif

#define MERGE_STORE(i, sum) y[i] = beta == (T)0 ? alpha * (sum) : alpha * (sum) + beta * y[i]

// Finishes the run that starts at tile `first` (run_tiles[first] tiles:
// those ending inside row tile_row[first + 1], then the one closing it): its
// parts in tile order, read around the first-level caches (other work-groups
// wrote them).
inline void finish_run(const uint first, __global const ulong* tile_row, __global const uint* run_tiles,
                       volatile __global const T* carry_value, volatile __global const T* closing_value, const T alpha,
                       const T beta, __global T* y) {
  const uint last = first + run_tiles[first] - 1;
  T sum = (T)0;
  for (uint u = first; u < last; ++u) sum += carry_value[u];
  sum += closing_value[last];
  MERGE_STORE(tile_row[first + 1], sum);
}

__kernel void csr_merge(const ulong rows, const ulong entries, const ulong tiles, __global const ulong* tile_row,
                        __global const uint* run_first, __global const uint* run_tiles,
                        __global const ROW_T* restrict row_ptr, __global const uint* restrict col,
                        __global const T* restrict val, __global const T* restrict x, const T alpha, const T beta,
                        __global T* y, __global T* carry_value, __global T* closing_value, __global uint* run_done) {
  __local T products[ITEMS];
  __local uint ends[ITEMS + 1];   // the tile's row ends, relative to its first entry, at most ITEMS
  __local T carry[WG_SIZE];       // each work-item's sum of the row it stopped in
  __local uchar closed[WG_SIZE];  // whether the work-item closed a row
#if SINGLE_PASS
  __local uint finisher[2];  // the runs this tile finishes, or ~0u
#endif
  const uint lid = get_local_id(0);
  for (size_t t = get_group_id(0); t < tiles; t += get_num_groups(0)) {
    const size_t row0 = tile_row[t], row1 = tile_row[t + 1];
    const size_t end = min((size_t)(t + 1) * ITEMS, (size_t)(rows + entries));
    const ROW_T first = (ROW_T)(t * ITEMS - row0), last = (ROW_T)(end - row1);
    const uint tile_rows = (uint)(row1 - row0), tile_entries = (uint)(last - first);
    // Row row0 + r ends at ends[r]; the row still open at the tile's end
    // (row1, if it is a row) ends past it.
    for (uint r = lid; r <= tile_rows; r += WG_SIZE)
      ends[r] = row0 + r < rows ? (uint)min(row_ptr[row0 + r + 1] - first, (ROW_T)ITEMS) : (uint)ITEMS;
      // A fixed count per work-item, unrolled: its gathers are in flight at once.
#pragma unroll
    for (uint j = 0; j < IPT; ++j) {
      const uint k = lid + j * WG_SIZE;
      if (k < tile_entries) products[k] = val[first + k] * x[col[first + k]];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // This work-item's items [d, stop) of the tile: the row ends before d
    // are those ends[i] <= the entries before them.
    const uint length = tile_rows + tile_entries;
    const uint d = min(lid * (uint)IPT, length), stop = min(d + (uint)IPT, length);
    uint lo = d > tile_entries ? d - tile_entries : 0, hi = min(d, tile_rows);
    while (lo < hi) {
      const uint mid = (lo + hi) / 2;
      if (ends[mid] <= d - mid - 1)
        lo = mid + 1;
      else
        hi = mid;
    }
    uint i = lo, k = d - lo;
    T sum = (T)0, first_sum = (T)0;
    size_t first_row = 0;
    bool closes = false;
    for (uint item = 0; item < IPT && i + k < stop; ++item) {
      if (k < ends[i]) {
        sum += products[k++];
      } else {  // row row0 + i ends here
        if (closes)
          MERGE_STORE(row0 + i, sum);
        else {
          closes = true;
          first_row = row0 + i;
          first_sum = sum;
        }
        sum = (T)0;
        ++i;
      }
    }
    carry[lid] = sum;
    closed[lid] = closes;
    barrier(CLK_LOCAL_MEM_FENCE);
    // What earlier work-items of the tile added to the row this one began
    // in: back to the work-item that opened it (the one that closed a row
    // before it), or to the tile's start.
    T before = (T)0;
    if (closes || lid == WG_SIZE - 1)
      for (uint w = lid; w-- > 0;) {
        before += carry[w];
        if (closed[w]) break;
      }
    // The tile's first row began in an earlier tile: its part is published
    // for the run's finisher. Any other row is whole here.
    bool published = false;
    if (closes) {
      published = t > 0 && first_row == row0;
      if (published)
        closing_value[t] = first_sum + before;
      else
        MERGE_STORE(first_row, first_sum + before);
    }
    if (lid == WG_SIZE - 1 && row0 + i < rows) {  // the part of the row open at the tile's end (row1)
      carry_value[t] = closes ? sum : sum + before;
      published = true;
    }
#if SINGLE_PASS
    // The work-items that published a part make it visible beyond the
    // work-group; then the tile counts itself in its runs (the one its
    // first row closes, the one its last row opens or continues), and
    // finishes any in which it came last.
    if (published) {
      publish_partial();
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid < 2) {
      // Work-item 0: the run the tile closes; 1: the one it carries into.
      const bool in_run = lid == 0 ? t > 0 && row1 > row0 : row1 < rows;
      const uint first_tile = in_run ? run_first[lid == 0 ? t - 1 : t] : 0u;
      finisher[lid] = in_run && atomic_inc(&run_done[first_tile]) == run_tiles[first_tile] - 1 ? first_tile : ~0u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 2 && finisher[lid] != ~0u) {
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      finish_run(finisher[lid], tile_row, run_tiles, carry_value, closing_value, alpha, beta, y);
      run_done[finisher[lid]] = 0u;  // ready for the next product
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);  // products[], ends[] and carry[] are reused by the next tile
  }
}

// The second launch, where the device has no global atomics (or a plan
// asks for two passes): work-item u finishes run u of `runs` (run_starts:
// each run's first tile).
__kernel void csr_merge_runs(const ulong runs, __global const uint* run_starts, __global const ulong* tile_row,
                             __global const uint* run_tiles, __global const T* carry_value,
                             __global const T* closing_value, const T alpha, const T beta, __global T* y) {
  for (size_t u = get_global_id(0); u < runs; u += get_global_size(0))
    finish_run(run_starts[u], tile_row, run_tiles, carry_value, closing_value, alpha, beta, y);
}
