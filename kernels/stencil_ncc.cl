// SPDX-License-Identifier: Apache-2.0
// Normalised cross-correlation of a TR x TC template over an image of
// pixels PIX (uchar or float), at every offset where the template lies
// inside (the template in TEMPLATE_SPACE: __constant, or __global when it
// exceeds the device's constant buffer): map[y][x] = sum (I - mean I)(T - mean T) / sqrt(sum (I - mean
// I)^2 sum (T - mean T)^2) over the window at (y, x).
//
// EXACT 1 (8-bit): the window sums S_I, S_II and S_IT are formed exactly in
// ACC (uint while TR x TC x 255^2 fits 32 bits, else ulong), then n S_IT -
// S_I S_T and the variances n S_II - S_I^2 exactly in 64 bits: no
// overflow where the book's int sums overflow. EXACT 0 (float): the host
// passes the template less its mean, so the numerator is sum I T', and
// the sums run in REAL (double where the device has it).
//
// A flat window or a flat template (zero variance: exactly, for 8-bit;
// below 1e-12 of the window's mean square, for float) has no defined
// correlation; its coefficient is 0.
#include "portacl_common.cl"

#ifndef OUTPUTS_X
#define OUTPUTS_X 1
#endif
#ifndef TEMPLATE_SPACE
#define TEMPLATE_SPACE __constant
#endif

// The coefficient at one offset from the window's sums.
// t_sum and t_var: the template's S_T and n S_TT - S_T^2 (exact, 8-bit),
// or 0 and sum T'^2 (float, T' = T less its mean).
inline float ncc_coefficient(const ACC s_i, const ACC s_ii, const ACC s_it, const TSUM t_sum, const TSUM t_var) {
  const long n = TR * TC;
#if EXACT
  const long num = n * (long)s_it - (long)s_i * (long)t_sum;
  const long var = n * (long)s_ii - (long)s_i * (long)s_i;
  const REAL c = var == 0 || t_var == 0 ? (REAL)0 : (REAL)num / (sqrt((REAL)var) * sqrt((REAL)t_var));
#else
  const REAL var = (REAL)s_ii - (REAL)s_i * (REAL)s_i / (REAL)n;  // sum (I - mean I)^2
  const REAL c = var <= (REAL)1e-12 * (REAL)s_ii || t_var == 0 ? (REAL)0 : (REAL)s_it / sqrt(var * (REAL)t_var);
#endif
  return (float)clamp(c, (REAL)-1, (REAL)1);  // roundings may step past +-1
}

// The OUTPUTS_X windows starting at `row` (one image row of the window
// block, in SPACE memory): adds each window row's S_I and S_II (a sliding
// sum along the row) and S_IT (the template row against a register window
// that slides one pixel per template column).
#define NCC_ROW_SUMS(SPACE, name)                                                                         \
  inline void name(SPACE const PIX* row, TEMPLATE_SPACE const PIX* t_row, ACC* s_i, ACC* s_ii, ACC* s_it) { \
    ACC rs = 0, rss = 0;                                                                                  \
    for (int j = 0; j < TC; ++j) {                                                                        \
      const ACC v = (ACC)row[j];                                                                          \
      rs += v;                                                                                            \
      rss += v * v;                                                                                       \
    }                                                                                                     \
    s_i[0] += rs;                                                                                         \
    s_ii[0] += rss;                                                                                       \
    for (int k = 1; k < OUTPUTS_X; ++k) {                                               \
      const ACC in = (ACC)row[TC - 1 + k], out = (ACC)row[k - 1];                                        \
      rs += in - out;                                                                                     \
      rss += in * in - out * out;                                                                         \
      s_i[k] += rs;                                                                                       \
      s_ii[k] += rss;                                                                                     \
    }                                                                                                     \
    ACC win[OUTPUTS_X];                                                                                   \
    for (int k = 0; k < OUTPUTS_X; ++k) win[k] = (ACC)row[k];                           \
    for (int j = 0; j < TC; ++j) {                                                      \
      const ACC t = (ACC)t_row[j];                                                                        \
      for (int k = 0; k < OUTPUTS_X; ++k) s_it[k] += win[k] * t;                        \
      if (j + 1 < TC) {                                                                                   \
        for (int k = 0; k + 1 < OUTPUTS_X; ++k) win[k] = win[k + 1];                    \
        win[OUTPUTS_X - 1] = (ACC)row[j + OUTPUTS_X];                                                     \
      }                                                                                                   \
    }                                                                                                     \
  }
NCC_ROW_SUMS(__global, ncc_row_sums_global)
#ifdef WG_X
NCC_ROW_SUMS(__local, ncc_row_sums_local)
#endif

// Stores the outputs from `first` (at or after x0) to the row's end.
inline void ncc_store(__global float* map, const ulong out_cols, const long y, const long x0, const long first,
                      const ACC* s_i, const ACC* s_ii, const ACC* s_it, const TSUM t_sum, const TSUM t_var) {
#pragma unroll
  for (int k = 0; k < OUTPUTS_X; ++k)
    if (x0 + k >= first && x0 + k < (long)out_cols) map[y * (long)out_cols + x0 + k] = ncc_coefficient(s_i[k], s_ii[k], s_it[k], t_sum, t_var);
}

// cached: work-item (x, y) computes the OUTPUTS_X offsets of row y from
// x * OUTPUTS_X, reading the image through the caches. A row's last block,
// when partial, starts early enough to end at the row's last offset (so
// it reads nothing past the image) and stores only its own outputs; the
// host takes one output per work-item when a row has fewer offsets than
// OUTPUTS_X.
__kernel void ncc_cached(const ulong cols, const ulong out_rows, const ulong out_cols, __global const PIX* image,
                         TEMPLATE_SPACE const PIX* tmpl, const TSUM t_sum, const TSUM t_var, __global float* map) {
  const long mine = (long)get_global_id(0) * OUTPUTS_X, y = get_global_id(1);
  if (y >= (long)out_rows || mine >= (long)out_cols) return;
  const long x0 = min(mine, (long)out_cols - OUTPUTS_X);
  ACC s_i[OUTPUTS_X], s_ii[OUTPUTS_X], s_it[OUTPUTS_X];
#pragma unroll
  for (int k = 0; k < OUTPUTS_X; ++k) s_i[k] = s_ii[k] = s_it[k] = 0;
  for (int i = 0; i < TR; ++i)
    ncc_row_sums_global(image + (y + i) * (long)cols + x0, tmpl + i * TC, s_i, s_ii, s_it);
  ncc_store(map, out_cols, y, x0, mine, s_i, s_ii, s_it, t_sum, t_var);
}

// tiled: the work-group's (WG_Y + TR - 1) x (WG_X OUTPUTS_X + TC - 1)
// image block is read once into local memory, then every work-item forms
// its windows' sums from there. Every work-item reaches the barrier.
#ifdef WG_X
#define TILE_W (WG_X * OUTPUTS_X + TC - 1)
#define TILE_H (WG_Y + TR - 1)
__kernel void ncc_tiled(const ulong rows, const ulong cols, const ulong out_rows, const ulong out_cols,
                        __global const PIX* image, TEMPLATE_SPACE const PIX* tmpl, const TSUM t_sum, const TSUM t_var,
                        __global float* map) {
  __local PIX tile[TILE_H * TILE_W];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const long ty = (long)get_group_id(1) * WG_Y, tx = (long)get_group_id(0) * (WG_X * OUTPUTS_X);
  for (int t = ly * WG_X + lx; t < TILE_H * TILE_W; t += WG_X * WG_Y) {
    const long gy = ty + t / TILE_W, gx = tx + t % TILE_W;
    tile[t] = gy < (long)rows && gx < (long)cols ? image[gy * (long)cols + gx] : (PIX)0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const long y = ty + ly, x0 = tx + lx * OUTPUTS_X;
  if (y < (long)out_rows && x0 < (long)out_cols) {
    ACC s_i[OUTPUTS_X], s_ii[OUTPUTS_X], s_it[OUTPUTS_X];
#pragma unroll
    for (int k = 0; k < OUTPUTS_X; ++k) s_i[k] = s_ii[k] = s_it[k] = 0;
    for (int i = 0; i < TR; ++i) ncc_row_sums_local(tile + (ly + i) * TILE_W + lx * OUTPUTS_X, tmpl + i * TC, s_i, s_ii, s_it);
    ncc_store(map, out_cols, y, x0, x0, s_i, s_ii, s_it, t_sum, t_var);
  }
}
#endif
