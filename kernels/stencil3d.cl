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
// work-item owns OUTPUTS_Y cells of a column (rows ly + k WG_Y of the
// group's block) and keeps their 2R + 1 z neighbours in a register queue:
// per plane it reads one new cell per output (z + R) and shifts. The
// current plane's block, with an R-cell halo on its four sides (the star
// needs no corners), is staged in local memory for the x and y neighbours.
#ifdef STAR_QUEUE  // set for the plane queue only (a tuned OUTPUTS_Y may reach the other variants)
#define QUEUE (2 * R + 1)
#define BLOCK_Y (WG_Y * OUTPUTS_Y)
#define TILE_W (WG_X + 2 * R)
#define TILE_H (BLOCK_Y + 2 * R)
#define HALO (2 * R * WG_X + 2 * R * BLOCK_Y)
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void star_queue(
    const ulong inx, const ulong iny, const ulong inz, const ulong nx, const ulong ny, const ulong nz,
    __global const T* restrict in, WEIGHT_SPACE const T* w, __global T* restrict out, const ulong z_chunk) {
  __local T plane[TILE_H][TILE_W];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const long y_blocks = ((long)ny + BLOCK_Y - 1) / BLOCK_Y;
  const long x0 = (long)get_group_id(0) * WG_X, y0 = ((long)get_group_id(1) % y_blocks) * BLOCK_Y;
  const long za = ((long)get_group_id(1) / y_blocks) * (long)z_chunk;
  const long zb = min(za + (long)z_chunk, (long)nz);
  const long x = x0 + lx;
#define READ(xx, yy, zz) s3_read(in, (long)inx, (long)iny, (long)inz, (xx) + OFF, (yy) + OFF, (zz) + OFF)
  T q[OUTPUTS_Y][QUEUE];
#pragma unroll
  for (int k = 0; k < OUTPUTS_Y; ++k)
#pragma unroll
    for (int d = 1; d < QUEUE; ++d) q[k][d] = READ(x, y0 + ly + k * WG_Y, za - R - 1 + d);
  for (long z = za; z < zb; ++z) {
#pragma unroll
    for (int k = 0; k < OUTPUTS_Y; ++k) {
#pragma unroll
      for (int d = 0; d + 1 < QUEUE; ++d) q[k][d] = q[k][d + 1];
      q[k][QUEUE - 1] = READ(x, y0 + ly + k * WG_Y, z + R);
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the previous plane's readers are done
#pragma unroll
    for (int k = 0; k < OUTPUTS_Y; ++k) plane[R + ly + k * WG_Y][R + lx] = q[k][R];
    for (int t = ly * WG_X + lx; t < HALO; t += WG_X * WG_Y) {
      int ty, tx;
      if (t < 2 * R * WG_X) {  // above and below the block
        const int band = t / (R * WG_X), at = t % (R * WG_X);
        ty = (band ? R + BLOCK_Y : 0) + at / WG_X;
        tx = R + at % WG_X;
      } else {  // left and right of it
        const int at = t - 2 * R * WG_X, c = at % (2 * R);
        ty = R + at / (2 * R);
        tx = c < R ? c : WG_X + c;
      }
      plane[ty][tx] = READ(x0 - R + tx, y0 - R + ty, z);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < OUTPUTS_Y; ++k) {
      const long y = y0 + ly + k * WG_Y;
      const int ty = R + ly + k * WG_Y, tx = R + lx;
      T acc = w[0] * q[k][R];
#pragma unroll
      for (int r = 1; r <= R; ++r)
        acc = fma(w[r],
                  (q[k][R - r] + q[k][R + r]) + (plane[ty][tx - r] + plane[ty][tx + r]) +
                      (plane[ty - r][tx] + plane[ty + r][tx]),
                  acc);
      if (x < (long)nx && y < (long)ny) out[(z * (long)ny + y) * (long)nx + x] = acc;
    }
  }
#undef READ
}
#endif
