// SPDX-License-Identifier: Apache-2.0
// Binary matrix products of +-1 signs packed 32 to a word (bit 1: -1),
// both operands packed along the summed dimension K:
//   c[i][j] = K - 2 popcount(a_i xor b_j), over the rows' `words` words.
// Padding bits are 0 (+1) in both operands: they agree and add nothing to
// the popcount, so K (not 32 words) is the count of terms.
//   pack_signs      a word of signs per work-item, from rows or columns of
//                   a row-major float matrix;
//   unpack_signs    the signs back as -1.0f and +1.0f;
//   bgemm_tiles     GPUs (TILES 1): a work-group of WG_X x WG_Y work-items
//                   computes RM x RN outputs each, slices of SLICE words of
//                   its rows and columns staged in local memory, one word
//                   of padding a row against bank conflicts;
//   bgemm_rows      CPUs (TILES 0): a work-item takes one row of C and a
//                   block of COLUMNS columns, the row's words in VW-word
//                   vectors (SIMD popcount), no local memory or barriers.
#include "portacl_common.cl"

__kernel void pack_signs(const uint rows, const uint k, const uint words, const uint by_columns,
                         __global const float* x, __global uint* packed) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)rows * words) return;
  const uint r = (uint)(id / words), w = (uint)(id % words);
  uint bits = 0;
  for (uint b = 0; b < 32; ++b) {
    const uint e = w * 32 + b;
    if (e < k) {
      const float v = by_columns ? x[(size_t)e * rows + r] : x[(size_t)r * k + e];
      bits |= (v < 0.0f ? 1u : 0u) << b;
    }
  }
  packed[id] = bits;
}

__kernel void unpack_signs(const uint rows, const uint k, const uint words, __global const uint* packed,
                           __global float* x) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)rows * k) return;
  const uint r = (uint)(id / k), e = (uint)(id % k);
  x[id] = (packed[(size_t)r * words + e / 32] >> (e % 32)) & 1u ? -1.0f : 1.0f;
}

// The products are built by their plans only (TILES 1, or TILES 0 with
// COLUMNS); the packing passes' programs carry neither.
#if defined(TILES) && TILES
#define TILE_M (WG_Y * RM)
#define TILE_N (WG_X * RN)

// Work-item (tx, ty) owns rows ty + r WG_Y and columns tx + c WG_X of the
// group's tile: neighbouring work-items read neighbouring rows of the
// column slice (one word apart with the padding, so different banks) and
// the same row of the row slice (a broadcast).
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void bgemm_tiles(
    const uint m, const uint n, const uint k, const uint words, __global const uint* a, __global const uint* b,
    __global int* c, const uint ldc) {
  __local uint as[TILE_M][SLICE + 1];
  __local uint bs[TILE_N][SLICE + 1];
  const uint tx = get_local_id(0), ty = get_local_id(1), lid = ty * WG_X + tx;
  const uint row0 = get_group_id(1) * TILE_M, col0 = get_group_id(0) * TILE_N;
  uint acc[RM][RN];
  for (uint r = 0; r < RM; ++r)
    for (uint q = 0; q < RN; ++q) acc[r][q] = 0;
  for (uint w0 = 0; w0 < words; w0 += SLICE) {
    for (uint i = lid; i < TILE_M * SLICE; i += WG_X * WG_Y) {
      const uint r = i / SLICE, w = i % SLICE;
      as[r][w] = row0 + r < m && w0 + w < words ? a[(size_t)(row0 + r) * words + w0 + w] : 0u;
    }
    for (uint i = lid; i < TILE_N * SLICE; i += WG_X * WG_Y) {
      const uint q = i / SLICE, w = i % SLICE;
      bs[q][w] = col0 + q < n && w0 + w < words ? b[(size_t)(col0 + q) * words + w0 + w] : 0u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint w = 0; w < SLICE; ++w) {
      uint av[RM], bv[RN];
      for (uint r = 0; r < RM; ++r) av[r] = as[ty + r * WG_Y][w];
      for (uint q = 0; q < RN; ++q) bv[q] = bs[tx + q * WG_X][w];
      for (uint r = 0; r < RM; ++r)
        for (uint q = 0; q < RN; ++q) acc[r][q] += popcount(av[r] ^ bv[q]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint r = 0; r < RM; ++r)
    for (uint q = 0; q < RN; ++q) {
      const uint i = row0 + ty + r * WG_Y, j = col0 + tx + q * WG_X;
      if (i < m && j < n) c[(size_t)i * ldc + j] = (int)k - 2 * (int)acc[r][q];
    }
}
#elif defined(TILES)
#if VW > 1
#define WORDS PORTACL_CAT(uint, VW)
#define LOAD_WORDS(p) PORTACL_CAT(vload, VW)(0, (p))
inline uint word_lanes(WORDS v) {
  uint lane[VW];
  PORTACL_CAT(vstore, VW)(v, 0, lane);
  uint s = 0;
  for (uint l = 0; l < VW; ++l) s += lane[l];
  return s;
}
#endif

__kernel void bgemm_rows(const uint m, const uint n, const uint k, const uint words, __global const uint* a,
                         __global const uint* b, __global int* c, const uint ldc) {
  const uint blocks = (n + COLUMNS - 1) / COLUMNS;
  const size_t id = get_global_id(0);
  if (id >= (size_t)m * blocks) return;
  const uint i = (uint)(id / blocks), j0 = (uint)(id % blocks) * COLUMNS;
  __global const uint* ai = a + (size_t)i * words;
  for (uint j = j0; j < j0 + COLUMNS && j < n; ++j) {
    __global const uint* bj = b + (size_t)j * words;
    uint w = 0, count = 0;
#if VW > 1
    WORDS lanes = (WORDS)(0);
    for (; w + VW <= words; w += VW) lanes += popcount(LOAD_WORDS(ai + w) ^ LOAD_WORDS(bj + w));
    count = word_lanes(lanes);
#endif
    for (; w < words; ++w) count += popcount(ai[w] ^ bj[w]);
    c[(size_t)i * ldc + j] = (int)k - 2 * (int)count;
  }
}
#endif
