// SPDX-License-Identifier: Apache-2.0
// One explicit step of the 2D heat equation on a rows x cols grid stored by
// rows: u' = u + r (uN + uS + uE + uW - 4u) inside, the edge cells kept
// (copied), so ping-pong buffers both hold the boundary. Work-item (j, i)
// owns cell (i, j); the grid is covered by whole work-groups and the cells
// past its edge do nothing.
#include "portacl_common.cl"

#define HEAT_UPDATE(c, n, s, w, e) fma(r, (n) + (s) + (w) + (e) - (T)4 * (c), (c))

// cached: every neighbour read from global memory (the caches serve the
// re-reads). Work-item (x, i) updates the CELLS_X cells of row i from
// x * CELLS_X: more bytes in flight per work-item, and the middle cells'
// west and east neighbours are registers already read. No barrier, so the
// early return is safe.
#ifndef CELLS_X
#define CELLS_X 1
#endif
__kernel void heat_cached(const ulong rows, const ulong cols, const T r, __global const T* in, __global T* out) {
  const size_t j0 = get_global_id(0) * CELLS_X, i = get_global_id(1);
  if (i >= rows || j0 >= cols) return;
  const size_t row = i * cols;
  if (i == 0 || i + 1 == rows) {
    for (int c = 0; c < CELLS_X && j0 + c < cols; ++c) out[row + j0 + c] = in[row + j0 + c];
    return;
  }
  T v[CELLS_X + 2];  // this row's cells j0 - 1 .. j0 + CELLS_X
#pragma unroll
  for (int c = 0; c < CELLS_X + 2; ++c) {
    const long j = (long)j0 - 1 + c;
    v[c] = j >= 0 && j < (long)cols ? in[row + j] : (T)0;
  }
#pragma unroll
  for (int c = 0; c < CELLS_X; ++c) {
    const size_t j = j0 + c, at = row + j;
    if (j >= cols) break;
    out[at] = j == 0 || j + 1 == cols ? v[c + 1] : HEAT_UPDATE(v[c + 1], in[at - cols], in[at + cols], v[c], v[c + 2]);
  }
}

// vectors: the cache-reliant step where cols is a multiple of CELLS_X (2,
// 4 or 8): a work-item's cells and their north and south neighbours are
// each one aligned vector load, and the west and east neighbours two more
// scalars. The scalar step issues 3 CELLS_X + 2 loads for the same cells;
// on GPUs the load instructions, not the bytes, limited it.
#if defined(ROW_VECTORS) && CELLS_X > 1
#define CV PORTACL_CAT(T, CELLS_X)
__kernel void heat_vectors(const ulong rows, const ulong cols, const T r, __global const T* in, __global T* out) {
  const size_t j0 = get_global_id(0) * CELLS_X, i = get_global_id(1);
  if (i >= rows || j0 >= cols) return;
  const size_t at = i * cols + j0;
  __global const CV* vin = (__global const CV*)in;  // aligned: at and cols are multiples of CELLS_X
  const CV c = vin[at / CELLS_X];
  __global CV* o = (__global CV*)out + at / CELLS_X;
  if (i == 0 || i + 1 == rows) {
    *o = c;
    return;
  }
  const CV n = vin[(at - cols) / CELLS_X], s = vin[(at + cols) / CELLS_X];
  const T west = j0 > 0 ? in[at - 1] : (T)0, east = j0 + CELLS_X < cols ? in[at + CELLS_X] : (T)0;
#if CELLS_X == 2
  const CV w = (CV)(west, c.s0), e = (CV)(c.s1, east);
#elif CELLS_X == 4
  const CV w = (CV)(west, c.s012), e = (CV)(c.s123, east);
#else
  const CV w = (CV)(west, c.s0123, c.s456), e = (CV)(c.s123, c.s4567, east);  // no 7-wide swizzles
#endif
  CV u = fma((CV)r, n + s + w + e - (T)4 * c, c);
  if (j0 == 0) u.s0 = c.s0;  // the edge columns keep their values
#if CELLS_X == 2
  if (j0 + CELLS_X == cols) u.s1 = c.s1;
#elif CELLS_X == 4
  if (j0 + CELLS_X == cols) u.s3 = c.s3;
#else
  if (j0 + CELLS_X == cols) u.s7 = c.s7;
#endif
  *o = u;
}
#endif

// tiled: the work-group's WG_Y x WG_X cells and a one-cell halo are read
// once into local memory ((WG_Y + 2) x (WG_X + 2)), every work-item helping
// with the halo, then each cell is updated from there. Every work-item
// reaches the barrier; the bounds test comes after it.
__kernel void heat_tiled(const ulong rows, const ulong cols, const T r, __global const T* in, __global T* out) {
  __local T tile[WG_Y + 2][WG_X + 2];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const long i0 = (long)(get_group_id(1) * WG_Y) - 1, j0 = (long)(get_group_id(0) * WG_X) - 1;
  for (int t = ly * WG_X + lx; t < (WG_X + 2) * (WG_Y + 2); t += WG_X * WG_Y) {
    const int ty = t / (WG_X + 2), tx = t % (WG_X + 2);
    const long gi = i0 + ty, gj = j0 + tx;
    tile[ty][tx] = gi >= 0 && gj >= 0 && gi < (long)rows && gj < (long)cols ? in[gi * cols + gj] : (T)0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t j = get_global_id(0), i = get_global_id(1);
  if (i < rows && j < cols) {
    const T c = tile[ly + 1][lx + 1];
    const bool edge = i == 0 || j == 0 || i + 1 == rows || j + 1 == cols;
    out[i * cols + j] =
        edge ? c : HEAT_UPDATE(c, tile[ly][lx + 1], tile[ly + 2][lx + 1], tile[ly + 1][lx], tile[ly + 1][lx + 2]);
  }
}

// Fixed boundary values, one work-item per edge cell of the perimeter (a
// 1D launch of its own, whatever shape the step takes): row 0 north, row
// rows-1 south, then column 0 west and column cols-1 east on the rows
// between. Edge cell e: 0 .. cols-1 the north row, cols .. 2 cols - 1 the
// south row (when rows > 1), then the west and east cells of each inner
// row in turn.
__kernel void heat_edges(const ulong rows, const ulong cols, const T north, const T south, const T west, const T east,
                         __global T* u) {
  const ulong across = rows > 1 ? 2 * cols : cols, inner = rows > 2 ? rows - 2 : 0;
  PORTACL_FOR_UNITS(e, across + (cols > 1 ? 2 : 1) * inner) {
    if (e < cols) {
      u[e] = north;
    } else if (e < across) {
      u[(rows - 1) * cols + e - cols] = south;
    } else {
      const ulong k = e - across, per_row = cols > 1 ? 2 : 1, i = 1 + k / per_row;
      if (k % per_row == 0)
        u[i * cols] = west;
      else
        u[i * cols + cols - 1] = east;
    }
  }
}

// rows: one work-item walks whole rows (CPUs: a core streams three rows of
// the input and one of the output; its inner loop is a plain vectorisable
// loop, and there are few work-groups to schedule).
__kernel void heat_rows(const ulong rows, const ulong cols, const T r, __global const T* in, __global T* out) {
  PORTACL_FOR_UNITS(i, rows) {
    __global const T* c = in + i * cols;
    __global T* o = out + i * cols;
    if (i == 0 || i + 1 == rows || cols < 3) {
      for (size_t j = 0; j < cols; ++j) o[j] = c[j];
    } else {
      __global const T* n = c - cols;
      __global const T* s = c + cols;
      o[0] = c[0];
      for (size_t j = 1; j + 1 < cols; ++j) o[j] = HEAT_UPDATE(c[j], n[j], s[j], c[j - 1], c[j + 1]);
      o[cols - 1] = c[cols - 1];
    }
  }
}

// temporal: STEPS_PER_LAUNCH (KS) steps in one launch on a TILE_Y x WG_X
// tile held in local memory, each work-item of the WG_Y x WG_X group owning
// a strip of CELLS_Y consecutive cells of a column (TILE_Y = WG_Y CELLS_Y)
// in registers. A group's tile overlaps its neighbours' by KS cells on each
// side. Every step, each cell is updated from its neighbours: west and east
// from local memory, north and south from the strip's registers except at
// its ends. The tile's outermost ring cannot be updated and goes stale by
// one cell per step, so after KS steps the central (TILE_Y - 2 KS) x
// (WG_X - 2 KS) cells are right, and only those are written: the grid is
// read and written once per KS steps, plus the overlap's share. Strips
// make the tile tall at a work-group size the device allows, which keeps
// that share small (1 cell per work-item: a 16 x 16 tile wastes 75% of its
// cells at 4 steps; 8 cells: a tile of 64 rows by 32 columns, 34%). Edge cells of the
// grid keep their values; cells past the grid hold 0 and are never used by
// a cell that moves.
// Built only where the host asks for it, with STEPS_PER_LAUNCH set (rule
// stencil.temporal-blocking, or the caller's or a tuned count).
#ifdef STEPS_PER_LAUNCH
#ifndef CELLS_Y
#define CELLS_Y 1
#endif
#define KS STEPS_PER_LAUNCH
#define TILE_Y (WG_Y * CELLS_Y)
#define OUT_X (WG_X - 2 * KS)
#define OUT_Y (TILE_Y - 2 * KS)
// The exact shape is stated for the compiler; the host still tries smaller
// shapes when the compiled kernel allows fewer work-items (NVIDIA's
// compiler allowed 256 on the H100).
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void heat_temporal(const ulong rows, const ulong cols,
                                                                                 const T r, __global const T* in,
                                                                                 __global T* out) {
  // Two tiles: a step reads one and writes the other, so one barrier per
  // step keeps every reader ahead of the next writer.
  __local T tiles[2][TILE_Y * WG_X];
  const int lx = get_local_id(0), ty0 = get_local_id(1) * CELLS_Y;  // the strip's first tile row
  const long gi0 = (long)(get_group_id(1) * OUT_Y) - KS + ty0, gj = (long)(get_group_id(0) * OUT_X) - KS + lx;
  const bool column_moves = gj > 0 && gj + 1 < (long)cols && lx > 0 && lx + 1 < WG_X;
  T c[CELLS_Y];
  bool moves[CELLS_Y];
#pragma unroll
  for (int k = 0; k < CELLS_Y; ++k) {
    const long gi = gi0 + k;
    const int ty = ty0 + k;
    c[k] = gi >= 0 && gj >= 0 && gi < (long)rows && gj < (long)cols ? in[gi * (long)cols + gj] : (T)0;
    // Not a boundary cell of the grid, and its neighbours are in the tile.
    moves[k] = column_moves && gi > 0 && gi + 1 < (long)rows && ty > 0 && ty + 1 < TILE_Y;
    tiles[0][ty * WG_X + lx] = c[k];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 0; s < KS; ++s) {
    __local const T* tile = tiles[s & 1];
    T next[CELLS_Y];
#pragma unroll
    for (int k = 0; k < CELLS_Y; ++k) {
      const int at = (ty0 + k) * WG_X + lx;
      // Indices kept inside the tile; a cell that reads beyond it never moves.
      const T n = k > 0 ? c[k - 1] : tile[max(at - WG_X, 0)];
      const T so = k + 1 < CELLS_Y ? c[k + 1] : tile[min(at + WG_X, TILE_Y * WG_X - 1)];
      const T w = tile[max(at - 1, 0)], e = tile[min(at + 1, TILE_Y * WG_X - 1)];
      next[k] = moves[k] ? HEAT_UPDATE(c[k], n, so, w, e) : c[k];
    }
    __local T* other = tiles[(s + 1) & 1];
#pragma unroll
    for (int k = 0; k < CELLS_Y; ++k) {
      c[k] = next[k];
      other[(ty0 + k) * WG_X + lx] = c[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (gj >= 0 && gj < (long)cols && lx >= KS && lx < WG_X - KS) {
#pragma unroll
    for (int k = 0; k < CELLS_Y; ++k) {
      const long gi = gi0 + k;
      const int ty = ty0 + k;
      if (gi >= 0 && gi < (long)rows && ty >= KS && ty < TILE_Y - KS) out[gi * (long)cols + gj] = c[k];
    }
  }
}
#endif  // STEPS_PER_LAUNCH
