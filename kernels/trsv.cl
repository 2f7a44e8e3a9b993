// SPDX-License-Identifier: Apache-2.0
// Solves L x = b in place for lower-triangular L, BLOCK unknowns at a time
// (GPUs; the CPU form, trsv_chain, is below):
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
// one launch, no local tiles and no barriers (PoCL would run them as loops
// over the work-items). trsv_chain gives each work-item (a work-group of
// its own) a block of BLOCK unknowns (rule cpu.trsv-blocks), handed out in
// order by an atomic ticket. The work-item copies its block of b into
// `solved`, takes away its rows' products with each block above as soon as
// that block is published (its status word holds this launch's tag),
// solves its diagonal block row by row, writes its unknowns to x and
// publishes them. It only waits for blocks taken before its own, whose
// work-items are already running, so it cannot wait forever; while it
// waits, the blocks below take their products with what is published.
// `solved` holds the unknowns contiguously, a block every SOLVED_STRIDE
// elements (whole 128-byte lines: no first-level cache holds a line of a
// block before that block is published).
// Each row's products are a dot product read forward, a vector at a time
// where L's rows are contiguous.

// sum over c < count of a[c * a_step] v[c]
inline T row_dot(__global const T* a, const ulong a_step, __global const T* v, const size_t count) {
  T dot = (T)0;
  size_t c = 0;
  if (a_step == 1) {
    VT acc = (VT)0;
    for (; c + VW <= count; c += VW) acc = fma(VLOAD(0, a + c), VLOAD(0, v + c), acc);
    dot = sum_lanes(acc);
  }
  for (; c < count; ++c) dot = fma(a[c * a_step], v[c], dot);
  return dot;
}

__kernel void trsv_chain(const ulong n, __global const T* l, const ulong offl, const ulong l_r, const ulong l_c,
                         __global T* x, const ulong offx, const ulong incx, const uint unit, __global T* solved,
                         volatile __global uint* status, volatile __global uint* ticket, const uint tag) {
  const uint c = atomic_inc(ticket);
  // The last ticket: every block is taken, so the counter is free for the
  // next launch.
  if (c == get_num_groups(0) - 1) atomic_xchg(ticket, 0);
  const size_t k0 = (size_t)c * BLOCK, kb = min((size_t)BLOCK, (size_t)(n - k0));
  __global T* mine = solved + (size_t)c * SOLVED_STRIDE;
  for (size_t r = 0; r < kb; ++r) mine[r] = x[offx + (k0 + r) * incx];
  for (uint j = 0; j < c; ++j) {
    while (status[j] != tag) {
    }
    publish_partial();  // the unknowns are read after their status
    __global const T* known = solved + (size_t)j * SOLVED_STRIDE;
    for (size_t r = 0; r < kb; ++r)
      mine[r] -= row_dot(l + offl + (k0 + r) * l_r + (size_t)j * BLOCK * l_c, l_c, known, BLOCK);
  }
  for (size_t r = 0; r < kb; ++r) {
    __global const T* row = l + offl + (k0 + r) * l_r + k0 * l_c;
    const T s = mine[r] - row_dot(row, l_c, mine, r);
    mine[r] = unit ? s : s / row[r * l_c];
  }
  for (size_t r = 0; r < kb; ++r) x[offx + (k0 + r) * incx] = mine[r];
  publish_partial();  // the unknowns are written before their status
  atomic_xchg(status + c, tag);
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
