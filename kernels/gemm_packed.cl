// SPDX-License-Identifier: Apache-2.0
// GEMM on packed operands: the large-problem path. gemm_pack copies op(A)
// and op(B) (any layout, transpose, offset, leading dimension) into
// scratch buffers as panels, one per tile row of C (TS_M rows of op(A)) and
// per tile column (TS_N columns of op(B)), each stored depth-major, so a
// work-group streams one contiguous block (CPUs: no 4 KiB-strided lines
// aliasing in the caches), zero-filled up to whole tiles. gemm_tiled then multiplies
// them with no bounds checks and no strides: every load is an aligned
// vector of VEC elements, which is what lets one kernel run near the FMA
// peak for every layout. Only the final store checks C's bounds.
// Packing reads and writes (m + n) k elements once, against 2 m n k flops.
//
// Work-group (gx, gy) owns the TS_M x TS_N block of C from row gy * TS_M and
// column gx * TS_N. Work-item (tx, ty) owns WPT_M / VEC runs of VEC rows,
// run r starting at row (r * WG_Y + ty) * VEC, and likewise for columns:
// reads of a slice are then whole vectors, consecutive work-items read
// consecutive vectors of B (no bank conflicts, so no padding column) and
// the work-items of one row of the group broadcast the same vector of A.
// VEC 1 gives the CPU-friendly order: neighbouring work-items own
// neighbouring columns, which implicit (across work-item) vectorisers need.
// USE_LOCAL_MEMORY 1 (GPUs): TS_K-deep slices go through local memory;
// 0 (CPUs): the same reads straight from the packed panels, which stay in
// cache because they are contiguous.
#include "portacl_common.cl"

#ifndef WPT_M
#define WPT_M 4
#endif
#ifndef WPT_N
#define WPT_N 4
#endif
#ifndef TS_K
#define TS_K 16
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef UNROLL
#define UNROLL 8
#endif
#ifndef PACK_TILE
#define PACK_TILE 16
#endif
#ifndef PACK_ROWS
#define PACK_ROWS 4
#endif
#define TS_M (WG_Y * WPT_M)
#define TS_N (WG_X * WPT_N)
#define RUNS_M (WPT_M / VEC)
#define RUNS_N (WPT_N / VEC)
#ifndef PREFETCH
#define PREFETCH 0
#endif
#if PREFETCH && !USE_LOCAL_MEMORY
#error "PREFETCH double-buffers local-memory slices: it needs USE_LOCAL_MEMORY 1"
#endif
#define SLICE_BUFFERS (PREFETCH ? 2 : 1)
// A slice of a panel is contiguous: TS_K lines of TS_M / VEC vectors (A)
// or TS_N / VEC (B). The group moves it in rounds of WG_SIZE vectors, the
// last round partial when the group does not divide the slice.
#define A_VECTORS (TS_K * (TS_M / VEC))
#define B_VECTORS (TS_K * (TS_N / VEC))
#define A_ROUNDS ((A_VECTORS + WG_SIZE - 1) / WG_SIZE)
#define B_ROUNDS ((B_VECTORS + WG_SIZE - 1) / WG_SIZE)
#define IN_SLICE(e, vectors) ((vectors) % WG_SIZE == 0 || (e) < (vectors))
// PREFETCH: the slice from `depth` into registers, and from there into a
// local buffer.
#define FETCH_SLICE(depth)                                                                \
  {                                                                                       \
    __global const VEC_T* a_slice = av_base + (depth) * (TS_M / VEC);                     \
    __global const VEC_T* b_slice = bv_base + (depth) * (TS_N / VEC);                     \
    for (uint f = 0; f < A_ROUNDS; ++f)                                                   \
      if (IN_SLICE(f * WG_SIZE + lid, A_VECTORS)) a_next[f] = a_slice[f * WG_SIZE + lid]; \
    for (uint f = 0; f < B_ROUNDS; ++f)                                                   \
      if (IN_SLICE(f * WG_SIZE + lid, B_VECTORS)) b_next[f] = b_slice[f * WG_SIZE + lid]; \
  }
#define STORE_SLICE(buffer)                                                                           \
  {                                                                                                   \
    for (uint f = 0; f < A_ROUNDS; ++f)                                                               \
      if (IN_SLICE(f * WG_SIZE + lid, A_VECTORS)) (&as[buffer][0][0])[f * WG_SIZE + lid] = a_next[f]; \
    for (uint f = 0; f < B_ROUNDS; ++f)                                                               \
      if (IN_SLICE(f * WG_SIZE + lid, B_VECTORS)) (&bs[buffer][0][0])[f * WG_SIZE + lid] = b_next[f]; \
  }

// SPLIT(v, d): the lanes of v into d[0 .. VEC-1], by halves.
#define SPLIT2(v, d) \
  (d)[0] = (v).s0;   \
  (d)[1] = (v).s1;
#define SPLIT4(v, d) SPLIT2((v).lo, (d)) SPLIT2((v).hi, (d) + 2)
#define SPLIT8(v, d) SPLIT4((v).lo, (d)) SPLIT4((v).hi, (d) + 4)
#define SPLIT16(v, d) SPLIT8((v).lo, (d)) SPLIT8((v).hi, (d) + 8)
#if VEC == 1
#define VEC_T T
#define SPLIT(v, d) (d)[0] = (v);
#elif VEC == 2 || VEC == 4 || VEC == 8 || VEC == 16
#define VEC_T PORTACL_CAT(T, VEC)
#define SPLIT(v, d) PORTACL_CAT(SPLIT, VEC)(v, d)
#else
#error "VEC must be 1, 2, 4, 8 or 16"
#endif

// dst[(i / panel) * panel * depth_pad + p * panel + i % panel] = op(X)(i, p),
// 0 beyond rows x depth. op(X)(i, p) is src[off + i * s_i + p * s_p]. A
// PACK_TILE square goes through local memory so that both the read (along
// whichever index is contiguous) and the write (along i) are coalesced;
// PACK_TILE x PACK_ROWS work-items move it, PACK_TILE / PACK_ROWS elements
// each. The panel index is divided in 32 bits where it fits: a 64-bit
// division is a long software sequence on GPUs. The third dimension is the
// batch of a strided-batched product: matrix b of the source from
// off + b src_batch, its panels from dst + b dst_batch.
__kernel __attribute__((reqd_work_group_size(PACK_TILE, PACK_ROWS, 1))) void gemm_pack(
    const ulong rows, const ulong depth, __global const T* src, const ulong first_off, const ulong s_i, const ulong s_p,
    __global T* dst_first, const ulong rows_pad, const ulong depth_pad, const ulong panel, const ulong src_batch,
    const ulong dst_batch) {
  __local T tile[PACK_TILE][PACK_TILE + 1];
  const ulong off = first_off + get_group_id(2) * src_batch;
  __global T* dst = dst_first + get_group_id(2) * dst_batch;
  const uint lx = get_local_id(0), ly = get_local_id(1);
  const size_t i0 = get_group_id(0) * (size_t)PACK_TILE, p0 = get_group_id(1) * (size_t)PACK_TILE;
  const bool i_contiguous = s_i == 1;
  for (uint r = ly; r < PACK_TILE; r += PACK_ROWS) {
    const size_t ri = i0 + (i_contiguous ? lx : r), rp = p0 + (i_contiguous ? r : lx);
    const T v = ri < rows && rp < depth ? src[off + ri * s_i + rp * s_p] : (T)0;
    if (i_contiguous)
      tile[r][lx] = v;
    else
      tile[lx][r] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t wi = i0 + lx;
  if (wi >= rows_pad) return;
  const size_t line = rows_pad <= UINT_MAX ? (uint)wi / (uint)panel : wi / panel;
  __global T* out = dst + line * panel * depth_pad + (wi - line * panel);
  for (uint r = ly; r < PACK_TILE; r += PACK_ROWS)
    if (p0 + r < depth_pad) out[(p0 + r) * panel] = tile[r][lx];
}

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void gemm_tiled(
    const ulong m, const ulong n, const ulong k_pad, const T alpha, const T beta, __global const T* a_panels,
    __global const T* b_panels, __global T* c, const ulong first_offc, const ulong c_i, const ulong c_j,
    const ulong a_batch, const ulong b_batch, const ulong c_batch) {
  const uint tx = get_local_id(0), ty = get_local_id(1);
  // Product b of a strided batch (the third dimension): its panels and its C.
  const size_t batch = get_group_id(2);
  __global const T* ap = a_panels + batch * a_batch;
  __global const T* bp = b_panels + batch * b_batch;
  const ulong offc = first_offc + batch * c_batch;
  const size_t i0 = get_group_id(1) * (size_t)TS_M, j0 = get_group_id(0) * (size_t)TS_N;
  // This group's panels, as lines of TS_M (TS_N) elements, one per depth.
  __global const VEC_T* av_base = (__global const VEC_T*)(ap + i0 * k_pad);
  __global const VEC_T* bv_base = (__global const VEC_T*)(bp + j0 * k_pad);
  const size_t a_line = TS_M / VEC, b_line = TS_N / VEC;
  T acc[WPT_M][WPT_N];
  for (uint wm = 0; wm < WPT_M; ++wm)
    for (uint wn = 0; wn < WPT_N; ++wn) acc[wm][wn] = (T)0;

#if USE_LOCAL_MEMORY
  __local VEC_T as[SLICE_BUFFERS][TS_K][TS_M / VEC];
  __local VEC_T bs[SLICE_BUFFERS][TS_K][TS_N / VEC];
  const uint lid = ty * WG_X + tx;
#if PREFETCH
  // The next slice's global loads are issued into registers before the
  // current slice's FMAs, and stored into the other buffer after them: the
  // loads' latency hides behind the arithmetic, and one barrier a slice
  // suffices (a buffer is rewritten only after the barrier that ends its
  // last reading).
  VEC_T a_next[A_ROUNDS], b_next[B_ROUNDS];
  if (k_pad > 0) {  // k = 0: no slice at all (C = beta C)
    FETCH_SLICE(0)
    STORE_SLICE(0)
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint s = 0;
#else
  const uint s = 0;
#endif
  for (size_t p0 = 0; p0 < k_pad; p0 += TS_K) {
#if PREFETCH
    // A branch, not a clamped re-fetch of the last slice: the clamp cost the
    // H100 10 more registers and 16% (40.1 against 47.6 TFLOP/s at 4096^3).
    const bool more = p0 + TS_K < k_pad;
    if (more) FETCH_SLICE(p0 + TS_K)
#else
    for (uint e = lid; e < A_VECTORS; e += WG_SIZE) (&as[0][0][0])[e] = av_base[p0 * (TS_M / VEC) + e];
    for (uint e = lid; e < B_VECTORS; e += WG_SIZE) (&bs[0][0][0])[e] = bv_base[p0 * (TS_N / VEC) + e];
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
#pragma unroll UNROLL
    for (uint pp = 0; pp < TS_K; ++pp) {
      T av[WPT_M], bv[WPT_N];
#pragma unroll
      for (uint r = 0; r < RUNS_M; ++r) {
        const VEC_T v = as[s][pp][r * WG_Y + ty];
        SPLIT(v, av + r * VEC)
      }
#pragma unroll
      for (uint r = 0; r < RUNS_N; ++r) {
        const VEC_T v = bs[s][pp][r * WG_X + tx];
        SPLIT(v, bv + r * VEC)
      }
#pragma unroll
      for (uint wm = 0; wm < WPT_M; ++wm)
#pragma unroll
        for (uint wn = 0; wn < WPT_N; ++wn) acc[wm][wn] = fma(av[wm], bv[wn], acc[wm][wn]);
    }
#if PREFETCH
    if (more) {
      s ^= 1;
      STORE_SLICE(s)
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#else
  for (size_t p0 = 0; p0 < k_pad; p0 += TS_K) {
#pragma unroll UNROLL
    for (uint pp = 0; pp < TS_K; ++pp) {
      const size_t p = p0 + pp;
      T av[WPT_M], bv[WPT_N];
      for (uint r = 0; r < RUNS_M; ++r) {
        const VEC_T v = av_base[p * a_line + r * WG_Y + ty];
        SPLIT(v, av + r * VEC)
      }
      for (uint r = 0; r < RUNS_N; ++r) {
        const VEC_T v = bv_base[p * b_line + r * WG_X + tx];
        SPLIT(v, bv + r * VEC)
      }
      for (uint wm = 0; wm < WPT_M; ++wm)
        for (uint wn = 0; wn < WPT_N; ++wn) acc[wm][wn] = fma(av[wm], bv[wn], acc[wm][wn]);
    }
  }
#endif

#pragma unroll
  for (uint wm = 0; wm < WPT_M; ++wm) {
    const size_t i = i0 + ((wm / VEC) * WG_Y + ty) * VEC + wm % VEC;
    if (i >= m) continue;
#pragma unroll
    for (uint wn = 0; wn < WPT_N; ++wn) {
      const size_t j = j0 + ((wn / VEC) * WG_X + tx) * VEC + wn % VEC;
      if (j >= n) continue;
      const size_t at = offc + i * c_i + j * c_j;
      c[at] = beta == (T)0 ? alpha * acc[wm][wn] : alpha * acc[wm][wn] + beta * c[at];
    }
  }
}

#if !USE_LOCAL_MEMORY
// The CPU register block (rule cpu.gemm-register-block): work-item (tx, ty)
// owns WPT_M consecutive rows and WPT_N consecutive columns of its group's
// tile. It walks the depth in slices of TS_K (its columns of B for a slice
// stay in the L1 cache); within a slice, each block of MR rows keeps its
// MR x WPT_N / VEC accumulators in explicit vector registers, each depth
// step loading the WPT_N / VEC vectors of B once and broadcasting each
// row's element of A; the blocks' sums wait in a private tile between
// slices. The panels are gemm_pack's, as for gemm_tiled: row i of a
// TS_M-row panel at depth p is element p TS_M + i (the CPU plan's groups are
// one work-item wide, so a work-item's columns of B are contiguous).
#define NV (WPT_N / VEC)
#ifndef MR
#define MR 8
#endif
#if VEC == 1
#define LOAD_B(v, p) ((p)[v])
#define STORE_V(x, v, p) ((p)[v] = (x))
#else
#define LOAD_B(v, p) PORTACL_CAT(vload, VEC)((v), (p))
#define STORE_V(x, v, p) PORTACL_CAT(vstore, VEC)((x), (v), (p))
#endif
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void gemm_cpu(
    const ulong m, const ulong n, const ulong k_pad, const T alpha, const T beta, __global const T* a_panels,
    __global const T* b_panels, __global T* c, const ulong first_offc, const ulong c_i, const ulong c_j,
    const ulong a_batch, const ulong b_batch, const ulong c_batch) {
  const uint tx = get_local_id(0), ty = get_local_id(1);
  const size_t batch = get_group_id(2);
  const ulong offc = first_offc + batch * c_batch;
  const size_t i0 = get_group_id(1) * (size_t)TS_M, j0 = get_group_id(0) * (size_t)TS_N;
  __global const T* ap = a_panels + batch * a_batch + i0 * k_pad + ty * WPT_M;
  __global const T* bp = b_panels + batch * b_batch + j0 * k_pad + tx * WPT_N;
  T sums[WPT_M * WPT_N];
  for (uint e = 0; e < WPT_M * WPT_N; ++e) sums[e] = (T)0;
  for (size_t p0 = 0; p0 < k_pad; p0 += TS_K) {
    const size_t p1 = min((size_t)k_pad, p0 + TS_K);
    for (uint r0 = 0; r0 < WPT_M; r0 += MR) {
      VEC_T acc[MR][NV];
#pragma unroll
      for (uint r = 0; r < MR; ++r)
#pragma unroll
        for (uint v = 0; v < NV; ++v) acc[r][v] = LOAD_B(v, sums + (r0 + r) * WPT_N);
      for (size_t p = p0; p < p1; ++p) {
        VEC_T b[NV];
#pragma unroll
        for (uint v = 0; v < NV; ++v) b[v] = LOAD_B(v, bp + p * TS_N);
        __global const T* arow = ap + p * TS_M + r0;
#pragma unroll
        for (uint r = 0; r < MR; ++r) {
          const VEC_T a = (VEC_T)(arow[r]);
#pragma unroll
          for (uint v = 0; v < NV; ++v) acc[r][v] = fma(a, b[v], acc[r][v]);
        }
      }
#pragma unroll
      for (uint r = 0; r < MR; ++r)
#pragma unroll
        for (uint v = 0; v < NV; ++v) STORE_V(acc[r][v], v, sums + (r0 + r) * WPT_N);
    }
  }
  for (uint r = 0; r < WPT_M; ++r) {
    const size_t i = i0 + ty * WPT_M + r;
    if (i >= m) break;
    for (uint e = 0; e < WPT_N; ++e) {
      const size_t j = j0 + tx * WPT_N + e;
      if (j >= n) break;
      const size_t at = offc + i * c_i + j * c_j;
      const T s = sums[r * WPT_N + e];
      c[at] = beta == (T)0 ? alpha * s : alpha * s + beta * c[at];
    }
  }
}
#endif
