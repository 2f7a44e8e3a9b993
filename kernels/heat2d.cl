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

// Fixed boundary values: row 0 north, row rows-1 south, then column 0 west
// and column cols-1 east on the rows between.
__kernel void heat_edges(const ulong rows, const ulong cols, const T north, const T south, const T west, const T east,
                         __global T* u) {
  const size_t j = get_global_id(0), i = get_global_id(1);
  if (i >= rows || j >= cols) return;
  if (i == 0)
    u[j] = north;
  else if (i + 1 == rows)
    u[i * cols + j] = south;
  else if (j == 0)
    u[i * cols] = west;
  else if (j + 1 == cols)
    u[i * cols + j] = east;
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

// temporal: STEPS_PER_LAUNCH (KS) steps in one launch. Each work-item of a
// WG_Y x WG_X group holds one cell of a tile in a register and in local
// memory; the group's tile overlaps its neighbours' by KS cells on each
// side. Every step, each work-item updates its cell from its neighbours in
// local memory (the tile's outermost ring cannot, and goes stale by one
// cell per step), so after KS steps the central (WG_Y - 2 KS) x (WG_X - 2 KS)
// cells are right, and only those are written: the grid is read and
// written once per KS steps, plus the overlap's share. Edge cells of the
// grid keep their values; cells past the grid hold 0 and are never used
// by a cell that moves.
#ifndef STEPS_PER_LAUNCH
#define STEPS_PER_LAUNCH 4
#endif
#define KS STEPS_PER_LAUNCH
#define OUT_X (WG_X - 2 * KS)
#define OUT_Y (WG_Y - 2 * KS)
// The exact shape is stated for the compiler; the host still tries smaller
// shapes when the compiled kernel allows fewer work-items (NVIDIA's
// compiler allows these heat kernels 256 on the H100).
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void heat_temporal(const ulong rows, const ulong cols,
                                                                                 const T r, __global const T* in,
                                                                                 __global T* out) {
  __local T tile[WG_Y][WG_X];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const long gi = (long)(get_group_id(1) * OUT_Y) - KS + ly, gj = (long)(get_group_id(0) * OUT_X) - KS + lx;
  const bool inside = gi >= 0 && gj >= 0 && gi < (long)rows && gj < (long)cols;
  const bool moves = gi > 0 && gj > 0 && gi + 1 < (long)rows && gj + 1 < (long)cols &&  // not a boundary cell
                     lx > 0 && ly > 0 && lx + 1 < WG_X && ly + 1 < WG_Y;                // neighbours in the tile
  T c = inside ? in[gi * cols + gj] : (T)0;
  tile[ly][lx] = c;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 0; s < KS; ++s) {
    const T next = moves ? HEAT_UPDATE(c, tile[ly - 1][lx], tile[ly + 1][lx], tile[ly][lx - 1], tile[ly][lx + 1]) : c;
    barrier(CLK_LOCAL_MEM_FENCE);  // every neighbour has read this cell
    c = next;
    tile[ly][lx] = c;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (inside && lx >= KS && ly >= KS && lx < WG_X - KS && ly < WG_Y - KS) out[gi * cols + gj] = c;
}
