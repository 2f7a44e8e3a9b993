// SPDX-License-Identifier: Apache-2.0
// y = alpha * op(A) x + beta * y. The host turns layout and transpose into
// strides, op(A)(i, j) = a[offa + i * a_i + j * a_j], and picks the kernel
// by which index is contiguous in memory:
//   gemv_dot   (a_j == 1): rows are contiguous; a team of TEAM work-items
//              walks each row in VW-wide vectors and combines its partial
//              sums in local memory. A work-group holds WG_SIZE / TEAM
//              teams, and groups stride over the rows. TEAM 1 (CPUs): a
//              work-item a row, no local memory, no barrier.
//   gemv_axpy  (a_i == 1): columns are contiguous; a work-item keeps VW
//              entries of y and walks a chunk of the columns, so
//              neighbouring work-items read neighbouring addresses. With several chunks (enough
//              work-groups to fill the device even when m is small) each
//              writes partial sums that gemv_combine adds up.
// beta == 0 never reads y (BLAS: NaN in y does not propagate).
#include "portacl_common.cl"

#ifndef TEAM
#define TEAM 32
#endif
#define TEAMS (WG_SIZE / TEAM)

// alpha * sum + beta * y, without reading y when beta is 0.
#define GEMV_STORE(y, at, sum) ((y)[at] = beta == (T)0 ? alpha * (sum) : alpha * (sum) + beta * (y)[at])

// Row i's products with x, from element `lane` on, TEAM apart (whole
// vectors first where x is contiguous).
inline T row_sum(const size_t i, const uint lane, const ulong n, __global const T* a, const ulong offa,
                 const ulong a_i, __global const T* x, const ulong offx, const ulong incx) {
  __global const T* row = a + offa + i * a_i;
  T sum = (T)0;
  if (incx == 1) {
    const size_t vectors = n / VW;
    VT vsum = (VT)0;
    for (size_t v = lane; v < vectors; v += TEAM) vsum = fma(VLOAD(v, row), VLOAD(v, x + offx), vsum);
    sum = sum_lanes(vsum);
    for (size_t j = vectors * VW + lane; j < n; j += TEAM) sum = fma(row[j], x[offx + j], sum);
  } else {
    for (size_t j = lane; j < n; j += TEAM) sum = fma(row[j], x[offx + j * incx], sum);
  }
  return sum;
}

__kernel void gemv_dot(const ulong m, const ulong n, const T alpha, const T beta, __global const T* a,
                       const ulong offa, const ulong a_i, __global const T* x, const ulong offx, const ulong incx,
                       __global T* y, const ulong offy, const ulong incy) {
#if TEAM == 1
  // A row a work-item (CPU plans): nothing to combine, so no local memory
  // and no barrier (PoCL 5.0's work-group compiler aborts on the barrier
  // loop below: quirk pocl.barrier-loop-in-branch).
  PORTACL_FOR_UNITS(i, m) GEMV_STORE(y, offy + i * incy, row_sum(i, 0, n, a, offa, a_i, x, offx, incx));
#else
  __local T partial[WG_SIZE];
  const uint lid = get_local_id(0), lane = lid % TEAM, team = lid / TEAM;
  // Every work-item runs the same number of row blocks: the barriers below
  // are reached by the whole group.
  const size_t blocks = (m + TEAMS - 1) / TEAMS;
  for (size_t block = get_group_id(0); block < blocks; block += get_num_groups(0)) {
    const size_t i = block * TEAMS + team;
    partial[lid] = i < m ? row_sum(i, lane, n, a, offa, a_i, x, offx, incx) : (T)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = TEAM / 2; s > 0; s >>= 1) {
      if (lane < s) partial[lid] += partial[lid + s];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && i < m) GEMV_STORE(y, offy + i * incy, partial[lid]);
    barrier(CLK_LOCAL_MEM_FENCE);  // partial[] is reused by the next block
  }
#endif
}

// Work-group g covers rows from (g % row_groups) * WG_SIZE * VW and chunk
// g / row_groups of the columns (chunk columns each); work-item l owns the
// VW consecutive rows from l * VW of them, read as one vector per column
// (CPUs: a work-item's loads are whole SIMD vectors, since PoCL runs a
// group's work-items one after another). One chunk: the final result;
// several: partial sums into part[chunk * m + i].
#define GEMV_PUT(i, sum)                      \
  do {                                        \
    if (chunk >= n)                           \
      GEMV_STORE(y, offy + (i) * incy, sum);  \
    else                                      \
      part[c * m + (i)] = (sum);              \
  } while (0)

__kernel void gemv_axpy(const ulong m, const ulong n, const T alpha, const T beta, __global const T* a,
                        const ulong offa, const ulong a_j, __global const T* x, const ulong offx, const ulong incx,
                        __global T* y, const ulong offy, const ulong incy, const ulong row_groups, const ulong chunk,
                        __global T* part) {
  const size_t g = get_group_id(0);
  const size_t i0 = ((g % row_groups) * WG_SIZE + get_local_id(0)) * VW, c = g / row_groups;
  if (i0 >= m) return;
  const size_t j0 = c * chunk, j1 = min((size_t)n, j0 + chunk);
  __global const T* col = a + offa + i0;
  if (i0 + VW <= m) {
    VT s = (VT)0;
    for (size_t j = j0; j < j1; ++j) s = fma(VLOAD(0, col + j * a_j), (VT)(x[offx + j * incx]), s);
#if VW == 1
    GEMV_PUT(i0, s);
#else
    T lanes[VW];
    VSTORE(s, 0, lanes);
    for (uint v = 0; v < VW; ++v) GEMV_PUT(i0 + v, lanes[v]);
#endif
  } else {
    for (size_t i = i0; i < m; ++i) {  // the last rows, fewer than VW
      T s = (T)0;
      for (size_t j = j0; j < j1; ++j) s = fma(col[(i - i0) + j * a_j], x[offx + j * incx], s);
      GEMV_PUT(i, s);
    }
  }
}

__kernel void gemv_combine(const ulong m, const ulong chunks, const T alpha, const T beta, __global const T* part,
                           __global T* y, const ulong offy, const ulong incy) {
  PORTACL_FOR_UNITS(i, m) {
    T sum = (T)0;
    for (size_t c = 0; c < chunks; ++c) sum += part[c * m + i];
    GEMV_STORE(y, offy + i * incy, sum);
  }
}
