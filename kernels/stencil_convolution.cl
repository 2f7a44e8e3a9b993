// SPDX-License-Identifier: Apache-2.0
// 2D convolution in correlation form, out[y][x] = sum_ij mask[i][j] *
// in[y + i - AY][x + j - AX], for an MR x MC mask known when the kernel is
// built (its loops unroll). A 1D convolution is the one-row case.
// CLAMP 1 reads beyond the edge as the nearest edge cell; CLAMP 0 reads it
// as 0, which also serves the `valid` boundary (anchor 0): there only the
// outputs past the end, which are never stored, read beyond the input.
// MASK_SPACE is __constant, or __global for a mask beyond the device's
// constant buffer.
#include "portacl_common.cl"

#ifndef OUTPUTS_X
#define OUTPUTS_X 1
#endif
#ifndef MASK_SPACE
#define MASK_SPACE __constant
#endif
#define WINDOW (OUTPUTS_X + MC - 1)

// in[y][x] as the boundary reads it.
inline T conv_read(__global const T* in, const long rows, const long cols, long y, long x) {
#if CLAMP
  y = clamp(y, 0L, rows - 1);
  x = clamp(x, 0L, cols - 1);
  return in[y * cols + x];
#else
  return y >= 0 && x >= 0 && y < rows && x < cols ? in[y * cols + x] : (T)0;
#endif
}

// cached: work-item (x, y) computes OUTPUTS_Y x OUTPUTS_X outputs: rows
// y * OUTPUTS_Y on, columns x * OUTPUTS_X on. Each of the OUTPUTS_Y + MR -
// 1 input rows they need has its window of OUTPUTS_X + MC - 1 cells read
// once into registers and serves every output row it touches (the
// unrolled loops leave only the multiply-adds that apply). No barrier, so
// the early return is safe.
//
// Where cols is a multiple of OUTPUTS_X (2, 4 or 8; ROW_VECTORS), a
// work-item whose windows lie inside the input reads each window row as
// NV aligned vectors starting LEAD cells before it, with no bounds tests:
// about a third of the load instructions of the scalar reads, which
// limited this kernel on GPUs. OUT_VECTORS (out_cols a multiple too)
// stores each output row as one vector.
#ifndef OUTPUTS_Y
#define OUTPUTS_Y 1
#endif
#if (defined(ROW_VECTORS) || defined(OUT_VECTORS)) && (OUTPUTS_X == 2 || OUTPUTS_X == 4 || OUTPUTS_X == 8)
#define CV PORTACL_CAT(T, OUTPUTS_X)
#define CV_LOAD(i, p) PORTACL_CAT(vload, OUTPUTS_X)((i), (p))
#define CV_STORE(v, i, p) PORTACL_CAT(vstore, OUTPUTS_X)((v), (i), (p))
#define LEAD (((AX + OUTPUTS_X - 1) / OUTPUTS_X) * OUTPUTS_X - AX)
#define NV ((LEAD + WINDOW + OUTPUTS_X - 1) / OUTPUTS_X)
#else
#undef ROW_VECTORS
#undef OUT_VECTORS
#endif
__kernel void conv_cached(const ulong rows, const ulong cols, const ulong out_rows, const ulong out_cols,
                          __global const T* restrict in, MASK_SPACE const T* restrict mask, __global T* restrict out) {
  const long x0 = (long)get_global_id(0) * OUTPUTS_X, y0 = (long)get_global_id(1) * OUTPUTS_Y;
  if (y0 >= (long)out_rows || x0 >= (long)out_cols) return;
  T acc[OUTPUTS_Y][OUTPUTS_X];
#pragma unroll
  for (int q = 0; q < OUTPUTS_Y; ++q)
#pragma unroll
    for (int k = 0; k < OUTPUTS_X; ++k) acc[q][k] = (T)0;
#ifdef ROW_VECTORS
  const long vx = x0 - AX - LEAD;  // a multiple of OUTPUTS_X, as is cols
  const bool inside = y0 - AY >= 0 && y0 - AY + OUTPUTS_Y + MR - 1 <= (long)rows && vx >= 0 &&
                      vx + NV * OUTPUTS_X <= (long)cols;
#endif
#pragma unroll
  for (int r = 0; r < OUTPUTS_Y + MR - 1; ++r) {
    T w[WINDOW];
#ifdef ROW_VECTORS
    if (inside) {
      __global const CV* p = (__global const CV*)(in + (y0 + r - AY) * (long)cols + vx);
      T loaded[NV * OUTPUTS_X];
#pragma unroll
      for (int v = 0; v < NV; ++v) CV_STORE(p[v], v, loaded);
#pragma unroll
      for (int c = 0; c < WINDOW; ++c) w[c] = loaded[LEAD + c];
    } else
#endif
#pragma unroll
      for (int c = 0; c < WINDOW; ++c) w[c] = conv_read(in, (long)rows, (long)cols, y0 + r - AY, x0 - AX + c);
#pragma unroll
    for (int q = 0; q < OUTPUTS_Y; ++q) {
      const int i = r - q;  // the mask row input row r meets in output row q
      if (i >= 0 && i < MR) {
#pragma unroll
        for (int j = 0; j < MC; ++j) {
          const T m = mask[i * MC + j];
#pragma unroll
          for (int k = 0; k < OUTPUTS_X; ++k) acc[q][k] = fma(m, w[j + k], acc[q][k]);
        }
      }
    }
  }
#ifdef OUT_VECTORS
  if (y0 + OUTPUTS_Y <= (long)out_rows && x0 + OUTPUTS_X <= (long)out_cols) {
#pragma unroll
    for (int q = 0; q < OUTPUTS_Y; ++q)
      *(__global CV*)(out + (y0 + q) * (long)out_cols + x0) = CV_LOAD(0, acc[q]);
    return;
  }
#endif
#pragma unroll
  for (int q = 0; q < OUTPUTS_Y; ++q)
#pragma unroll
    for (int k = 0; k < OUTPUTS_X; ++k)
      if (y0 + q < (long)out_rows && x0 + k < (long)out_cols) out[(y0 + q) * (long)out_cols + x0 + k] = acc[q][k];
}

// tiled: the work-group's WG_Y x (WG_X * OUTPUTS_X) outputs read their
// input, with the mask's halo, once into local memory; every work-item
// helps load the tile, then computes its outputs from there. Every
// work-item reaches the barrier; the bounds test comes after it.
#ifdef WG_X
#define TILE_W (WG_X * OUTPUTS_X + MC - 1)
#define TILE_H (WG_Y + MR - 1)
__kernel void conv_tiled(const ulong rows, const ulong cols, const ulong out_rows, const ulong out_cols,
                         __global const T* restrict in, MASK_SPACE const T* restrict mask, __global T* restrict out) {
  __local T tile[TILE_H][TILE_W];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const long ty = (long)get_group_id(1) * WG_Y - AY, tx = (long)get_group_id(0) * (WG_X * OUTPUTS_X) - AX;
  for (int t = ly * WG_X + lx; t < TILE_H * TILE_W; t += WG_X * WG_Y)
    tile[t / TILE_W][t % TILE_W] = conv_read(in, (long)rows, (long)cols, ty + t / TILE_W, tx + t % TILE_W);
  barrier(CLK_LOCAL_MEM_FENCE);
  const long y = ty + AY + ly, x0 = tx + AX + lx * OUTPUTS_X;
  if (y < (long)out_rows && x0 < (long)out_cols) {
    T acc[OUTPUTS_X];
#pragma unroll
    for (int k = 0; k < OUTPUTS_X; ++k) acc[k] = (T)0;
    for (int i = 0; i < MR; ++i)
#pragma unroll
      for (int j = 0; j < MC; ++j) {
        const T m = mask[i * MC + j];
#pragma unroll
        for (int k = 0; k < OUTPUTS_X; ++k) acc[k] = fma(m, tile[ly + i][lx * OUTPUTS_X + j + k], acc[k]);
      }
#pragma unroll
    for (int k = 0; k < OUTPUTS_X; ++k)
      if (x0 + k < (long)out_cols) out[y * (long)out_cols + x0 + k] = acc[k];
  }
}
#endif

// rows (CPUs): a work-item takes chunks of CHUNK outputs of a row. For each
// mask row it adds that row's MC taps to the chunk in one plain loop over
// x (unit stride, the taps in registers); only the few columns whose
// window crosses the edge take the boundary's reads.
#ifndef CHUNK
#define CHUNK 2048
#endif
__kernel void conv_rows(const ulong rows, const ulong cols, const ulong out_rows, const ulong out_cols,
                        __global const T* restrict in, MASK_SPACE const T* restrict mask, __global T* restrict out) {
  const ulong chunks = (out_cols + CHUNK - 1) / CHUNK;
  PORTACL_FOR_UNITS(u, out_rows * chunks) {
    const long y = (long)(u / chunks), xa = (long)(u % chunks) * CHUNK;
    const long xb = min(xa + CHUNK, (long)out_cols);
    // Outputs in [lo, hi) read only inside the row.
    const long lo = clamp((long)AX, xa, xb), hi = clamp((long)cols - MC + 1 + AX, lo, xb);
    __global T* o = out + y * (long)out_cols;
    for (long x = xa; x < xb; ++x) o[x] = (T)0;
    for (int i = 0; i < MR; ++i) {
      const long sy = y + i - AY;
#if !CLAMP
      if (sy < 0 || sy >= (long)rows) continue;
#endif
      __global const T* src = in + clamp(sy, 0L, (long)rows - 1) * (long)cols - AX;
      T taps[MC];
      for (int j = 0; j < MC; ++j) taps[j] = mask[i * MC + j];
      for (long x = lo; x < hi; ++x) {
        T s = (T)0;
#pragma unroll
        for (int j = 0; j < MC; ++j) s = fma(taps[j], src[x + j], s);
        o[x] += s;
      }
      for (long x = xa; x < xb; ++x) {
        if (x == lo) x = max(hi, x);
        if (x >= xb) break;
        T s = (T)0;
        for (int j = 0; j < MC; ++j) s = fma(taps[j], conv_read(in, (long)rows, (long)cols, sy, x + j - AX), s);
        o[x] += s;
      }
    }
  }
}
