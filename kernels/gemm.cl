// SPDX-License-Identifier: Apache-2.0
// C = alpha * op(A) * op(B) + beta * C for any layout and transposes: the
// host turns layout and transpose into strides, so op(A)(i, p) is
// a[offa + i * a_i + p * a_p] (likewise B and C). Work-group (gx, gy) owns
// the TS_M x TS_N block of C from row gy * TS_M and column gx * TS_N;
// work-item (tx, ty) computes rows ty + w * WG_Y and columns tx + w * WG_X
// of it (WPT_M x WPT_N values in registers), so neighbouring work-items
// write neighbouring columns.
// USE_LOCAL_MEMORY 1 (GPUs): TS_K-deep slices of A and B go through local
// memory, padded by one column against bank conflicts; 0 (CPUs): every
// work-item reads its operands directly and relies on the caches.
// Edges: out-of-range elements load as 0 and are never stored, so the
// user's matrices need no padding. beta == 0 never reads C (BLAS: NaN in C
// does not propagate).
#include "portacl_common.cl"

#ifndef WPT_M
#define WPT_M 1
#endif
#ifndef WPT_N
#define WPT_N 1
#endif
#ifndef TS_K
#define TS_K 16
#endif
#define TS_M (WG_Y * WPT_M)
#define TS_N (WG_X * WPT_N)

__kernel void gemm(const ulong m, const ulong n, const ulong k, const T alpha, const T beta,
                   __global const T* a, const ulong offa, const ulong a_i, const ulong a_p,
                   __global const T* b, const ulong offb, const ulong b_p, const ulong b_j,
                   __global T* c, const ulong offc, const ulong c_i, const ulong c_j) {
  const uint tx = get_local_id(0), ty = get_local_id(1);
  const size_t i0 = get_group_id(1) * (size_t)TS_M, j0 = get_group_id(0) * (size_t)TS_N;
  T acc[WPT_M][WPT_N];
  for (uint wm = 0; wm < WPT_M; ++wm)
    for (uint wn = 0; wn < WPT_N; ++wn) acc[wm][wn] = (T)0;

#if USE_LOCAL_MEMORY
  __local T as[TS_K][TS_M + 1];
  __local T bs[TS_K][TS_N + 1];
  const uint lid = ty * WG_X + tx;
  for (size_t p0 = 0; p0 < k; p0 += TS_K) {
    // Consecutive work-items take consecutive addresses of whichever index
    // is contiguous in memory (coalescing).
    for (uint e = lid; e < TS_K * TS_M; e += WG_SIZE) {
      const uint pp = a_p == 1 ? e % TS_K : e / TS_M, ii = a_p == 1 ? e / TS_K : e % TS_M;
      const size_t gi = i0 + ii, gp = p0 + pp;
      as[pp][ii] = gi < m && gp < k ? a[offa + gi * a_i + gp * a_p] : (T)0;
    }
    for (uint e = lid; e < TS_K * TS_N; e += WG_SIZE) {
      const uint jj = b_j == 1 ? e % TS_N : e / TS_K, pp = b_j == 1 ? e / TS_N : e % TS_K;
      const size_t gj = j0 + jj, gp = p0 + pp;
      bs[pp][jj] = gj < n && gp < k ? b[offb + gp * b_p + gj * b_j] : (T)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint pp = 0; pp < TS_K; ++pp) {
      T av[WPT_M], bv[WPT_N];
      for (uint wm = 0; wm < WPT_M; ++wm) av[wm] = as[pp][ty + wm * WG_Y];
      for (uint wn = 0; wn < WPT_N; ++wn) bv[wn] = bs[pp][tx + wn * WG_X];
      for (uint wm = 0; wm < WPT_M; ++wm)
        for (uint wn = 0; wn < WPT_N; ++wn) acc[wm][wn] = fma(av[wm], bv[wn], acc[wm][wn]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#else
  for (size_t p = 0; p < k; ++p) {
    T av[WPT_M], bv[WPT_N];
    for (uint wm = 0; wm < WPT_M; ++wm) {
      const size_t i = i0 + ty + wm * WG_Y;
      av[wm] = i < m ? a[offa + i * a_i + p * a_p] : (T)0;
    }
    for (uint wn = 0; wn < WPT_N; ++wn) {
      const size_t j = j0 + tx + wn * WG_X;
      bv[wn] = j < n ? b[offb + p * b_p + j * b_j] : (T)0;
    }
    for (uint wm = 0; wm < WPT_M; ++wm)
      for (uint wn = 0; wn < WPT_N; ++wn) acc[wm][wn] = fma(av[wm], bv[wn], acc[wm][wn]);
  }
#endif

  for (uint wm = 0; wm < WPT_M; ++wm) {
    const size_t i = i0 + ty + wm * WG_Y;
    if (i >= m) continue;
    for (uint wn = 0; wn < WPT_N; ++wn) {
      const size_t j = j0 + tx + wn * WG_X;
      if (j >= n) continue;
      const size_t at = offc + i * c_i + j * c_j;
      c[at] = beta == (T)0 ? alpha * acc[wm][wn] : alpha * acc[wm][wn] + beta * c[at];
    }
  }
}
