// SPDX-License-Identifier: Apache-2.0
// 3D stencils on grids stored x fastest, then y, then z. Output cell (x, y,
// z) is centred on input cell (x + OFF, y + OFF, z + OFF): OFF is the halo
// of a pre-padded (`valid`) input, else 0. CLAMP 1 reads beyond the input
// as its nearest cell, CLAMP 0 as 0 (in `valid` mode only outputs past the
// end, never stored, read beyond it). Weights live in WEIGHT_SPACE
// (__constant unless the rule moved them to __global).
//
// POINTS lists the stencil as X(dx, dy, dz, k) terms, k indexing the
// weights (the star's c_r for every point at distance r, or a general
// stencil's own weight per point): the offsets are compile-time constants.
#include "portacl_common.cl"

#ifndef CLAMP
#define CLAMP 0
#endif
#ifndef WEIGHT_SPACE
#define WEIGHT_SPACE __constant
#endif

// The input at (x, y, z), input coordinates, as the boundary reads it.
inline T s3_read(__global const T* in, const long nx, const long ny, const long nz, long x, long y, long z) {
#if CLAMP
  x = clamp(x, 0L, nx - 1);
  y = clamp(y, 0L, ny - 1);
  z = clamp(z, 0L, nz - 1);
  return in[(z * ny + y) * nx + x];
#else
  return x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz ? in[(z * ny + y) * nx + x] : (T)0;
#endif
}

#define X(dx, dy, dz, k) acc = fma(w[k], AT(dx, dy, dz), acc);

// points: one output per work-item, every point read through the caches.
// Work-item (x, y + ny z).
__kernel void stencil_points(const ulong inx, const ulong iny, const ulong inz, const ulong nx, const ulong ny,
                             const ulong nz, __global const T* restrict in, WEIGHT_SPACE const T* w, __global T* restrict out) {
  const long x = get_global_id(0), yz = get_global_id(1);
  if (x >= (long)nx || yz >= (long)(ny * nz)) return;
  const long y = yz % (long)ny, z = yz / (long)ny;
  const long ix = x + OFF, iy = y + OFF, iz = z + OFF;
  T acc = (T)0;
#define AT(dx, dy, dz) s3_read(in, (long)inx, (long)iny, (long)inz, ix + (dx), iy + (dy), iz + (dz))
  POINTS
#undef AT
  out[yz * (long)nx + x] = acc;
}

// rows (CPUs): a work-item walks whole x rows. Where the row's y and z
// neighbours all lie inside the input, the cells whose x neighbours do too
// read without a test (a plain loop over x); the few others, and rows near
// the y and z edges, take the boundary's reads.
// REACH bounds every offset.
__kernel void stencil_rows(const ulong inx, const ulong iny, const ulong inz, const ulong nx, const ulong ny,
                           const ulong nz, __global const T* restrict in, WEIGHT_SPACE const T* w,
                           __global T* restrict out) {
  PORTACL_FOR_UNITS(u, ny * nz) {
    const long y = (long)(u % ny), z = (long)(u / ny), iy = y + OFF, iz = z + OFF;
    __global T* o = out + u * nx;
    const bool inner = iy >= REACH && iz >= REACH && iy + REACH < (long)iny && iz + REACH < (long)inz;
    const long lo = inner ? clamp((long)REACH - OFF, 0L, (long)nx) : (long)nx;
    const long hi = inner ? clamp((long)inx - REACH - OFF, lo, (long)nx) : (long)nx;
    __global const T* c = in + (iz * (long)iny + iy) * (long)inx + OFF;
    for (long x = lo; x < hi; ++x) {
      T acc = (T)0;
#define AT(dx, dy, dz) c[x + (dx) + ((long)(dy) + (long)(dz) * (long)iny) * (long)inx]
      POINTS
#undef AT
      o[x] = acc;
    }
    for (long x = 0; x < (long)nx; ++x) {
      if (x == lo) x = hi;
      if (x >= (long)nx) break;
      T acc = (T)0;
#define AT(dx, dy, dz) s3_read(in, (long)inx, (long)iny, (long)inz, x + OFF + (dx), iy + (dy), iz + (dz))
      POINTS
#undef AT
      o[x] = acc;
    }
  }
}

// star_queue (the book's method for the star of radius R): a WG_Y x WG_X
// work-group marches along z through a chunk of z_chunk planes. Each
// work-item owns a strip of OUTPUTS_Y consecutive cells of a column and
// keeps their 2R + 1 z neighbours in a register queue. The current plane's
// block, with an R-cell halo on its four sides (the star needs no corners),
// is staged in local memory for the x neighbours and for the y neighbours
// beyond the strip; those inside it come from the queue's centres.
//
// Why it is shaped so (each a measured cost on GPUs):
// - every read's place in its plane is worked out once, before the march;
//   a plane costs one pointer per work-item, not an index per read;
// - each plane's cells are loaded a whole plane step before they are
//   first used (the queue's newest entry is filled just before the
//   arithmetic that needs it, never by a shift that would wait for it);
// - a strip shares its y neighbours in registers, which cuts the local
//   memory reads per output from 4R to about 2R + R(R + 1) / OUTPUTS_Y.
#ifdef STAR_QUEUE  // set for the plane queue only (a tuned OUTPUTS_Y may reach the other variants)
#define QUEUE (2 * R + 1)
#define BLOCK_Y (WG_Y * OUTPUTS_Y)
#define TILE_W (WG_X + 2 * R)
#define TILE_H (BLOCK_Y + 2 * R)
#define GROUP_ITEMS (WG_X * WG_Y)
#define HALO (2 * R * WG_X + 2 * R * BLOCK_Y)
#define HALO_PER_ITEM ((HALO + GROUP_ITEMS - 1) / GROUP_ITEMS)
#ifndef PLANE_OFFSET  // int where a plane has fewer than 2^31 cells (the host decides)
#define PLANE_OFFSET long
#endif

// Where input cell (x, y) lies in its plane, or -1 where the boundary reads 0.
inline PLANE_OFFSET s3_plane_offset(long x, long y, const long nx, const long ny) {
#if CLAMP
  return (PLANE_OFFSET)(clamp(y, 0L, ny - 1) * nx + clamp(x, 0L, nx - 1));
#else
  return x >= 0 && y >= 0 && x < nx && y < ny ? (PLANE_OFFSET)(y * nx + x) : (PLANE_OFFSET)-1;
#endif
}

// Input plane z, or 0 where the boundary reads zeros.
inline __global const T* s3_plane(__global const T* in, const long z, const long nz, const long plane_cells) {
#if CLAMP
  return in + clamp(z, 0L, nz - 1) * plane_cells;
#else
  return z >= 0 && z < nz ? in + z * plane_cells : (__global const T*)0;
#endif
}

inline T s3_at(__global const T* plane, const PLANE_OFFSET at) { return plane && at >= 0 ? plane[at] : (T)0; }

#ifndef PREFETCH_PLANES  // 1 to 4: how many plane steps ahead each load is issued
#define PREFETCH_PLANES 1
#endif
#if PREFETCH_PLANES < 1 || PREFETCH_PLANES > 4
#error "PREFETCH_PLANES must be 1 to 4"
#endif

// One step of the march, for output plane z. Entering it, q[k][d] holds
// plane z - R + d for d < 2R, `next` plane z + R and `halo` the halo of
// plane z, both loaded PREFETCH_PLANES steps before. The step stages the
// plane's block, refills `next` and `halo` with the planes PREFETCH_PLANES
// steps ahead, writes the strip's outputs and shifts the queue.
inline void star_step(const long z, T q[OUTPUTS_Y][QUEUE], T next[OUTPUTS_Y], T halo[HALO_PER_ITEM],
                      __local T* tile, const int centre, const int halo_slot[HALO_PER_ITEM],
                      const PLANE_OFFSET column[OUTPUTS_Y], const PLANE_OFFSET halo_at[HALO_PER_ITEM],
                      __global const T* restrict in, const long inz, const long plane_cells,
                      WEIGHT_SPACE const T* w, __global T* restrict o, const long nx, const long rows_left,
                      const bool x_inside) {
  barrier(CLK_LOCAL_MEM_FENCE);  // the previous plane's readers are done
#pragma unroll
  for (int k = 0; k < OUTPUTS_Y; ++k) tile[centre + k * TILE_W] = q[k][R];
#pragma unroll
  for (int j = 0; j < HALO_PER_ITEM; ++j)
    if (halo_slot[j] >= 0) tile[halo_slot[j]] = halo[j];
  barrier(CLK_LOCAL_MEM_FENCE);
  {  // loads for a later step, in flight until it needs them
#pragma unroll
    for (int k = 0; k < OUTPUTS_Y; ++k) q[k][QUEUE - 1] = next[k];
    __global const T* p = s3_plane(in, z + R + PREFETCH_PLANES + OFF, inz, plane_cells);
#pragma unroll
    for (int k = 0; k < OUTPUTS_Y; ++k) next[k] = s3_at(p, column[k]);
    p = s3_plane(in, z + PREFETCH_PLANES + OFF, inz, plane_cells);
#pragma unroll
    for (int j = 0; j < HALO_PER_ITEM; ++j) halo[j] = s3_at(p, halo_at[j]);
  }
#pragma unroll
  for (int k = 0; k < OUTPUTS_Y; ++k) {
    const int c = centre + k * TILE_W;
    T acc = w[0] * q[k][R];
#pragma unroll
    for (int r = 1; r <= R; ++r) {
      const T up = k - r >= 0 ? q[k - r][R] : tile[c - r * TILE_W];
      const T down = k + r < OUTPUTS_Y ? q[k + r][R] : tile[c + r * TILE_W];
      acc = fma(w[r], (q[k][R - r] + q[k][R + r]) + (tile[c - r] + tile[c + r]) + (up + down), acc);
    }
    if (x_inside && k < rows_left) o[k * nx] = acc;
  }
#pragma unroll
  for (int k = 0; k < OUTPUTS_Y; ++k) {
#pragma unroll
    for (int d = 0; d + 1 < QUEUE; ++d) q[k][d] = q[k][d + 1];
  }
}

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void star_queue(
    const ulong inx, const ulong iny, const ulong inz, const ulong nx, const ulong ny, const ulong nz,
    __global const T* restrict in, WEIGHT_SPACE const T* w, __global T* restrict out, const ulong z_chunk) {
  __local T tile[TILE_H * TILE_W];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const long y_blocks = ((long)ny + BLOCK_Y - 1) / BLOCK_Y;
  const long x0 = (long)get_group_id(0) * WG_X, y0 = ((long)get_group_id(1) % y_blocks) * BLOCK_Y;
  const long za = ((long)get_group_id(1) / y_blocks) * (long)z_chunk;
  const long zb = min(za + (long)z_chunk, (long)nz);
  const long x = x0 + lx, strip = y0 + (long)ly * OUTPUTS_Y;  // the strip's first row
  const long plane_cells = (long)(inx * iny);

  PLANE_OFFSET column[OUTPUTS_Y];
#pragma unroll
  for (int k = 0; k < OUTPUTS_Y; ++k)
    column[k] = s3_plane_offset(x + OFF, strip + k + OFF, (long)inx, (long)iny);
  // The halo cells this work-item stages: above and below the block, then
  // left and right of it.
  PLANE_OFFSET halo_at[HALO_PER_ITEM];
  int halo_slot[HALO_PER_ITEM];
#pragma unroll
  for (int j = 0; j < HALO_PER_ITEM; ++j) {
    const int t = ly * WG_X + lx + j * GROUP_ITEMS;
    int ty = 0, tx = 0;
    if (t < 2 * R * WG_X) {
      const int band = t / (R * WG_X), at = t % (R * WG_X);
      ty = (band ? R + BLOCK_Y : 0) + at / WG_X;
      tx = R + at % WG_X;
    } else {
      const int at = t - 2 * R * WG_X, c = at % (2 * R);
      ty = R + at / (2 * R);
      tx = c < R ? c : WG_X + c;
    }
    halo_slot[j] = t < HALO ? ty * TILE_W + tx : -1;
    halo_at[j] = t < HALO ? s3_plane_offset(x0 - R + tx + OFF, y0 - R + ty + OFF, (long)inx, (long)iny) : -1;
  }

  // The queue holds planes za - R .. za + R - 1; next[s] holds plane
  // za + R + s and halo[s] plane za + s's halo, for the PREFETCH_PLANES
  // steps whose loads are in flight.
  T q[OUTPUTS_Y][QUEUE], next[PREFETCH_PLANES][OUTPUTS_Y], halo[PREFETCH_PLANES][HALO_PER_ITEM];
#pragma unroll
  for (int d = 0; d + 1 < QUEUE; ++d) {
    __global const T* p = s3_plane(in, za - R + d + OFF, (long)inz, plane_cells);
#pragma unroll
    for (int k = 0; k < OUTPUTS_Y; ++k) q[k][d] = s3_at(p, column[k]);
  }
#pragma unroll
  for (int s = 0; s < PREFETCH_PLANES; ++s) {
    __global const T* p = s3_plane(in, za + R + s + OFF, (long)inz, plane_cells);
#pragma unroll
    for (int k = 0; k < OUTPUTS_Y; ++k) next[s][k] = s3_at(p, column[k]);
    p = s3_plane(in, za + s + OFF, (long)inz, plane_cells);
#pragma unroll
    for (int j = 0; j < HALO_PER_ITEM; ++j) halo[s][j] = s3_at(p, halo_at[j]);
  }
  const int centre = (R + ly * OUTPUTS_Y) * TILE_W + R + lx;
  const bool x_inside = x < (long)nx;
  const long rows_left = (long)ny - strip, plane_out = (long)(nx * ny);
  __global T* o = out + (za * (long)ny + strip) * (long)nx + x;
#define STAR_STEP(s)                                                                                            \
  star_step(z + (s), q, next[s], halo[s], tile, centre, halo_slot, column, halo_at, in, (long)inz, plane_cells, w, \
            o + (s) * plane_out, (long)nx, rows_left, x_inside)
  // PREFETCH_PLANES steps per pass, so that each step's loads keep their
  // registers while the others are consumed (a copy would wait for them).
  // The chunk's last steps follow the loop, each under its own test:
  // PoCL 3.1 ran a step under `if (z + s < zb)` inside the loop wrongly,
  // though every work-item of the group takes the same branch.
  long z = za;
  for (; z + PREFETCH_PLANES <= zb; z += PREFETCH_PLANES, o += PREFETCH_PLANES * plane_out) {
#pragma unroll
    for (int s = 0; s < PREFETCH_PLANES; ++s) STAR_STEP(s);
  }
  // z and zb are the whole group's: every work-item takes the same branches.
#if PREFETCH_PLANES > 1
  if (z < zb) {
    STAR_STEP(0);
#if PREFETCH_PLANES > 2
    if (z + 1 < zb) {
      STAR_STEP(1);
#if PREFETCH_PLANES > 3
      if (z + 2 < zb) STAR_STEP(2);
#endif
    }
#endif
  }
#endif
#undef STAR_STEP
}
#endif
