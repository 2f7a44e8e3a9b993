// SPDX-License-Identifier: Apache-2.0
// Solves L x = b in place for lower-triangular L, BLOCK unknowns at a time:
//   trsv_block   one work-group of BLOCK work-items (a sub-group on GPUs)
//                solves the diagonal block from row k0 by forward
//                substitution in local memory;
//   trsv_update  the flow-down: every later row i takes away its products
//                with the unknowns just found, x_i -= L(i, k0:k0+kb) x_k,
//                TPR work-items per row combining in local memory.
// L(i, j) is l[offl + i * l_r + j * l_c]; x_i is x[offx + i * incx].
// unit != 0: the diagonal is taken as 1 and never read (an argument, not a
// macro: both share one binary).
#include "portacl_common.cl"

#ifndef BLOCK
#define BLOCK 32
#endif
#ifndef TPR
#define TPR 1
#endif

#if BARRIER_FREE
// The CPU form (the plan's barrier-free variant, rule cpu.avoid-barriers):
// no local tiles and no barriers, which PoCL would run as loops over the
// work-items; large blocks (rule cpu.trsv-blocks), so that the launches
// stay few.
//   trsv_block_rows   one work-item solves the diagonal block, row by row;
//   trsv_update_rows  work-item w of S takes the w-th slice of the rows
//                     below and takes their products with the block's
//                     unknowns away.
// Each row's products are a dot product read forward, a vector at a time
// where L's rows and x are contiguous.

// sum over c < count of a[c * a_step] v[c * v_step]
inline T row_dot(__global const T* a, const ulong a_step, __global const T* v, const ulong v_step, const size_t count) {
  T dot = (T)0;
  size_t c = 0;
  if (a_step == 1 && v_step == 1) {
    VT acc = (VT)0;
    for (; c + VW <= count; c += VW) acc = fma(VLOAD(0, a + c), VLOAD(0, v + c), acc);
    dot = sum_lanes(acc);
  }
  for (; c < count; ++c) dot = fma(a[c * a_step], v[c * v_step], dot);
  return dot;
}

__kernel void trsv_block_rows(const ulong n, const ulong k0, __global const T* l, const ulong offl, const ulong l_r,
                              const ulong l_c, __global T* x, const ulong offx, const ulong incx, const uint unit) {
  if (get_global_id(0) != 0) return;
  const size_t kb = min((size_t)BLOCK, (size_t)(n - k0));
  __global T* xk = x + offx + k0 * incx;
  for (size_t r = 0; r < kb; ++r) {
    __global const T* row = l + offl + (k0 + r) * l_r + k0 * l_c;
    const T s = xk[r * incx] - row_dot(row, l_c, xk, incx, r);
    xk[r * incx] = unit ? s : s / row[r * l_c];
  }
}

__kernel void trsv_update_rows(const ulong n, const ulong k0, const ulong kb, __global const T* l, const ulong offl,
                               const ulong l_r, const ulong l_c, __global T* x, const ulong offx, const ulong incx) {
  const size_t first = k0 + kb, rows = n - first, w = get_global_id(0), slices = get_global_size(0);
  __global const T* xk = x + offx + k0 * incx;
  for (size_t i = first + rows * w / slices; i < first + rows * (w + 1) / slices; ++i)
    x[offx + i * incx] -= row_dot(l + offl + i * l_r + k0 * l_c, l_c, xk, incx, kb);
}

#else

__kernel void trsv_block(const ulong n, const ulong k0, __global const T* l, const ulong offl, const ulong l_r,
                         const ulong l_c, __global T* x, const ulong offx, const ulong incx, const uint unit) {
  __local T tile[BLOCK][BLOCK + 1];
  __local T xs[BLOCK];
  const uint r = get_local_id(0);
  const size_t kb = min((size_t)BLOCK, (size_t)(n - k0));
  // Rows past n solve 0 = 0 on an identity: no branch around the barriers.
  for (uint c = 0; c < BLOCK; ++c)
    tile[r][c] = r < kb && c <= r && !(unit && c == r) ? l[offl + (k0 + r) * l_r + (k0 + c) * l_c] : (T)(r == c);
  xs[r] = r < kb ? x[offx + (k0 + r) * incx] : (T)0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint c = 0; c < BLOCK; ++c) {
    if (r == c) xs[c] /= tile[c][c];  // 1 when unit
    barrier(CLK_LOCAL_MEM_FENCE);
    if (r > c) xs[r] -= tile[r][c] * xs[c];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (r < kb) x[offx + (k0 + r) * incx] = xs[r];
}

// Rows from k0 + kb on; work-group g handles rows (g + s * groups) *
// (WG_SIZE / TPR) + team for s = 0, 1, ...
__kernel void trsv_update(const ulong n, const ulong k0, const ulong kb, __global const T* l, const ulong offl,
                          const ulong l_r, const ulong l_c, __global T* x, const ulong offx, const ulong incx) {
  __local T partial[WG_SIZE];
  __local T xs[BLOCK];
  const uint lid = get_local_id(0), lane = lid % TPR, team = lid / TPR;
  for (uint e = lid; e < BLOCK; e += WG_SIZE) xs[e] = e < kb ? x[offx + (k0 + e) * incx] : (T)0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t first = k0 + kb, rows = n - first, per_group = WG_SIZE / TPR;
  const size_t blocks = (rows + per_group - 1) / per_group;
  for (size_t b = get_group_id(0); b < blocks; b += get_num_groups(0)) {
    const size_t i = first + b * per_group + team;
    T s = (T)0;
    if (i < n)
      for (uint c = lane; c < kb; c += TPR) s = fma(l[offl + i * l_r + (k0 + c) * l_c], xs[c], s);
    partial[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint h = TPR / 2; h > 0; h >>= 1) {
      if (lane < h) partial[lid] += partial[lid + h];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && i < n) x[offx + i * incx] -= partial[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#endif
