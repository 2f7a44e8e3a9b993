// SPDX-License-Identifier: Apache-2.0
// One explicit step of the 2D heat equation on a rows x cols grid stored by
// rows: u' = u + r (uN + uS + uE + uW - 4u) inside, the edge cells kept
// (copied), so ping-pong buffers both hold the boundary. Work-item (j, i)
// owns cell (i, j); the grid is covered by whole work-groups and the cells
// past its edge do nothing.
#include "portacl_common.cl"

#define HEAT_UPDATE(c, n, s, w, e) fma(r, (n) + (s) + (w) + (e) - (T)4 * (c), (c))

// cached: every neighbour read from global memory (the caches serve the
// re-reads). No barrier, so the early return is safe.
__kernel void heat_cached(const ulong rows, const ulong cols, const T r, __global const T* in, __global T* out) {
  const size_t j = get_global_id(0), i = get_global_id(1);
  if (i >= rows || j >= cols) return;
  const size_t at = i * cols + j;
  if (i == 0 || j == 0 || i + 1 == rows || j + 1 == cols) {
    out[at] = in[at];
  } else {
    out[at] = HEAT_UPDATE(in[at], in[at - cols], in[at + cols], in[at - 1], in[at + 1]);
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
__kernel void heat_edges(const ulong rows, const ulong cols, const T north, const T south, const T west,
                         const T east, __global T* u) {
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

// temporal: STEPS_PER_LAUNCH (KS) steps in one launch. The work-group reads
// its WG_Y x WG_X cells with a halo KS cells wide, steps the whole tile KS
// times in local memory (the ring of cells whose neighbours lie outside
// the tile goes stale by one cell per step, so after KS steps exactly the
// central cells are right), and writes those: one read and one write of
// the grid per KS steps, plus the halo's share.
#ifndef STEPS_PER_LAUNCH
#define STEPS_PER_LAUNCH 4
#endif
#define KS STEPS_PER_LAUNCH
#define TILE_W (WG_X + 2 * KS)
#define TILE_H (WG_Y + 2 * KS)
__kernel void heat_temporal(const ulong rows, const ulong cols, const T r, __global const T* in, __global T* out) {
  __local T tile[2][TILE_H * TILE_W];
  const int lid = get_local_id(1) * WG_X + get_local_id(0);
  const long i0 = (long)(get_group_id(1) * WG_Y) - KS, j0 = (long)(get_group_id(0) * WG_X) - KS;
  for (int t = lid; t < TILE_H * TILE_W; t += WG_X * WG_Y) {
    const long gi = i0 + t / TILE_W, gj = j0 + t % TILE_W;
    tile[0][t] = gi >= 0 && gj >= 0 && gi < (long)rows && gj < (long)cols ? in[gi * cols + gj] : (T)0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 0; s < KS; ++s) {
    __local const T* src = tile[s & 1];
    __local T* dst = tile[(s + 1) & 1];
    for (int t = lid; t < TILE_H * TILE_W; t += WG_X * WG_Y) {
      const int ty = t / TILE_W, tx = t % TILE_W;
      const long gi = i0 + ty, gj = j0 + tx;
      const bool inner = ty > 0 && tx > 0 && ty + 1 < TILE_H && tx + 1 < TILE_W;
      const bool moves = gi > 0 && gj > 0 && gi + 1 < (long)rows && gj + 1 < (long)cols;  // not a boundary cell
      const T c = src[t];
      dst[t] = inner && moves ? HEAT_UPDATE(c, src[t - TILE_W], src[t + TILE_W], src[t - 1], src[t + 1]) : c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const size_t j = get_global_id(0), i = get_global_id(1);
  if (i < rows && j < cols) out[i * cols + j] = tile[KS & 1][(get_local_id(1) + KS) * TILE_W + get_local_id(0) + KS];
}
