// SPDX-License-Identifier: Apache-2.0
// k-nearest-neighbour search and classification (src/kernels/ml/knn.cpp).
// Points are rows of D elements of T (float or double; every score in T).
// A neighbour ranks higher by a larger key: the cosine similarity (COSINE
// 1; 0 where either vector is zero) or the negated squared distance
// (COSINE 0); equal keys rank by the lower index. Keys are compared as
// sortable integers of KEY_BITS (32 for float, 64 for double: T's bits,
// flipped so that integer order is T's order), which makes ties exact.
//   knn_norms        each point's norm (cosine) or squared norm.
//   knn_list         a work-item per query walks every training point,
//                    staged TILE at a time in local memory, keeping its K
//                    best in a sorted private list (insertion).
//   knn_select       a work-group per query over a row of precomputed dot
//                    products (a matrix product), its keys made once into
//                    local memory where KEYS_LOCAL (else remade each pass):
//                    a radix select finds the
//                    K-th best key 8 bits at a time, the keys above it and
//                    the first of those equal to it are gathered into a
//                    list (local memory where LIST_LOCAL, else global) and
//                    sorted bitonically.
//   knn_vote         each query's majority label; a tie goes to the label
//                    of the best-ranked neighbour among the tied ones.
#include "portacl_common.cl"

#ifndef KEY_BITS
#define KEY_BITS 32
#endif
#if KEY_BITS == 64
#define KEY ulong
#define KEY_SIGN 0x8000000000000000ul
#define AS_KEY as_ulong
#define AS_T as_double
#else
#define KEY uint
#define KEY_SIGN 0x80000000u
#define AS_KEY as_uint
#define AS_T as_float
#endif

// T's bits as an unsigned integer of the same order.
inline KEY ordered_key(T x) {
  const KEY u = AS_KEY(x);
  return (u & KEY_SIGN) ? ~u : (u | KEY_SIGN);
}
inline T key_value(KEY key) { return AS_T((key & KEY_SIGN) ? (key & ~KEY_SIGN) : ~key); }

// The key of a pair from its dot product and the two norms.
inline T pair_key(T dot_product, T norm_q, T norm_t) {
#if COSINE
  const T scale = norm_q * norm_t;
  return scale > (T)0 ? clamp(dot_product / scale, (T)-1, (T)1) : (T)0;
#else
  return -fmax(norm_q + norm_t - (T)2 * dot_product, (T)0);  // the norms are squared here
#endif
}
// The score reported for a key: the similarity, or the squared distance.
inline T key_score(T key) {
#if COSINE
  return key;
#else
  return -key;
#endif
}

__kernel void knn_norms(const uint n, __global const T* points, __global T* norms) {
  const size_t i = get_global_id(0);
  if (i >= n) return;
  T s = (T)0;
  for (uint j = 0; j < D; ++j) s = fma(points[i * D + j], points[i * D + j], s);
#if COSINE
  norms[i] = sqrt(s);
#else
  norms[i] = s;
#endif
}

#if METHOD_LIST
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void knn_list(
    const uint queries, const uint train_count, __global const T* query_points, __global const T* train,
    __global const T* query_norms, __global const T* train_norms, __global int* indices, __global T* scores) {
  __local T tile[TILE * D];
  __local T tile_norms[TILE];
  const uint lid = get_local_id(0);
  const size_t q = get_global_id(0);
  const bool active = q < queries;
  KEY best_key[K];
  int best_index[K];
  for (uint r = 0; r < K; ++r) {
    best_key[r] = 0;  // below every real key
    best_index[r] = -1;
  }
  const T norm_q = active ? query_norms[q] : (T)0;
  for (uint first = 0; first < train_count; first += TILE) {
    const uint count = min((uint)TILE, train_count - first);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < count * D; i += WG_SIZE) tile[i] = train[(size_t)first * D + i];
    for (uint i = lid; i < count; i += WG_SIZE) tile_norms[i] = train_norms[first + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!active) continue;
    for (uint t = 0; t < count; ++t) {
#if COSINE
      T dot_product = (T)0;
      for (uint j = 0; j < D; ++j) dot_product = fma(query_points[q * D + j], tile[t * D + j], dot_product);
      const KEY key = ordered_key(pair_key(dot_product, norm_q, tile_norms[t]));
#else
      T distance = (T)0;
      for (uint j = 0; j < D; ++j) {
        const T diff = query_points[q * D + j] - tile[t * D + j];
        distance = fma(diff, diff, distance);
      }
      const KEY key = ordered_key(-distance);
#endif
      if (key <= best_key[K - 1]) continue;  // not better than the K-th (a later index loses a tie)
      uint r = K - 1;
      while (r > 0 && best_key[r - 1] < key) {
        best_key[r] = best_key[r - 1];
        best_index[r] = best_index[r - 1];
        --r;
      }
      best_key[r] = key;
      best_index[r] = (int)(first + t);
    }
  }
  if (!active) return;
  for (uint r = 0; r < K; ++r) {
    indices[q * K + r] = best_index[r];
    scores[q * K + r] = key_score(key_value(best_key[r]));
  }
}
#endif

#if METHOD_SELECT
#if LIST_LOCAL
#define LIST_SPACE __local
#define LIST_FENCE CLK_LOCAL_MEM_FENCE
#else
#define LIST_SPACE __global
#define LIST_FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#endif

// The key of training point i for the row's query.
#define MADE_KEY(i) ordered_key(pair_key(row[i], norm_q, train_norms[i]))
#if KEYS_LOCAL
#define ROW_KEY(i) keys[i]
#else
#define ROW_KEY(i) MADE_KEY(i)
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void knn_select(
    const uint train_count, const uint first_query, __global const T* dots, __global const T* query_norms,
    __global const T* train_norms, __global KEY* list_scratch, __global int* indices, __global T* scores,
    __local KEY* keys) {
  __local uint histogram[256];
  __local KEY chosen_prefix, chosen_mask;
  __local uint still_needed, above_count;
  __local uint equal_before[WG_SIZE];
#if LIST_LOCAL
  __local KEY list_key[LIST];
  __local int list_index[LIST];
#else
  // A work-group's 2 LIST keys' room: LIST keys, then LIST indices.
  __global KEY* list_key = list_scratch + (size_t)get_group_id(0) * 2 * LIST;
  __global int* list_index = (__global int*)(list_key + LIST);
#endif
  const uint lid = get_local_id(0);
  const size_t q = first_query + get_group_id(0);
  __global const T* row = dots + (size_t)get_group_id(0) * train_count;
  const T norm_q = query_norms[q];
  if (lid == 0) {
    chosen_prefix = 0;
    chosen_mask = 0;
    still_needed = K;
    above_count = 0;
  }
#if KEYS_LOCAL
  for (uint i = lid; i < train_count; i += WG_SIZE) keys[i] = MADE_KEY(i);
#endif
  // The K-th best key, 8 bits at a time from the top: count the keys that
  // match the bits found so far by their next 8 bits, and go down into the
  // bin where the K-th falls.
  for (int shift = KEY_BITS - 8; shift >= 0; shift -= 8) {
    for (uint b = lid; b < 256; b += WG_SIZE) histogram[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const KEY prefix = chosen_prefix, mask = chosen_mask;
    for (uint i = lid; i < train_count; i += WG_SIZE) {
      const KEY key = ROW_KEY(i);
      if ((key & mask) == prefix) atomic_inc(&histogram[(uint)(key >> shift) & 255u]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      uint above = 0, bin = 255;
      while (above + histogram[bin] < still_needed) above += histogram[bin--];
      still_needed -= above;
      chosen_prefix = prefix | ((KEY)bin << shift);
      chosen_mask = mask | ((KEY)255 << shift);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // The K-th key is chosen_prefix: every key above it is in, and the
  // still_needed lowest-indexed keys equal to it. Each work-item counts the
  // equal keys of its own stretch of indices, so the stretches' counts,
  // added in order, rank the equal keys by index.
  const KEY kth = chosen_prefix;
  const uint needed = still_needed, stretch = (train_count + WG_SIZE - 1) / WG_SIZE;
  const uint begin = min(train_count, lid * stretch), end = min(train_count, begin + stretch);
  uint equal = 0;
  for (uint i = begin; i < end; ++i) equal += ROW_KEY(i) == kth;
  equal_before[lid] = equal;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint running = 0;
    for (uint w = 0; w < WG_SIZE; ++w) {
      const uint mine = equal_before[w];
      equal_before[w] = running;
      running += mine;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint rank = equal_before[lid];
  for (uint i = begin; i < end; ++i) {
    const KEY key = ROW_KEY(i);
    if (key > kth) {
      const uint slot = atomic_inc(&above_count);
      list_key[slot] = key;
      list_index[slot] = (int)i;
    } else if (key == kth) {
      if (rank < needed) {
        list_key[K - needed + rank] = key;
        list_index[K - needed + rank] = (int)i;
      }
      ++rank;
    }
  }
  for (uint s = K + lid; s < LIST; s += WG_SIZE) {  // padding, below every real entry
    list_key[s] = 0;
    list_index[s] = INT_MAX;
  }
  barrier(LIST_FENCE);
  // Bitonic sort of the LIST entries: larger keys first, lower indices
  // first among equal keys.
  for (uint size = 2; size <= LIST; size <<= 1)
    for (uint stride = size / 2; stride > 0; stride >>= 1) {
      for (uint p = lid; p < LIST / 2; p += WG_SIZE) {
        const uint a = 2 * p - (p & (stride - 1)), b = a + stride;
        const bool descending = (a & size) == 0;
        const KEY ka = list_key[a], kb = list_key[b];
        const int ia = list_index[a], ib = list_index[b];
        const bool b_first = kb > ka || (kb == ka && ib < ia);
        if (b_first == descending) {
          list_key[a] = kb;
          list_key[b] = ka;
          list_index[a] = ib;
          list_index[b] = ia;
        }
      }
      barrier(LIST_FENCE);
    }
  for (uint r = lid; r < K; r += WG_SIZE) {
    indices[q * K + r] = list_index[r];
    scores[q * K + r] = key_score(key_value(list_key[r]));
  }
}
#endif

// The majority label of each query's K neighbours (ranked best first); a
// tie goes to the label whose best-ranked neighbour comes first, so the
// labels are visited in rank order and only a larger count replaces the
// one held.
__kernel void knn_vote(const uint queries, __global const int* indices, __global const int* train_labels,
                       __global int* predicted) {
  const size_t q = get_global_id(0);
  if (q >= queries) return;
  __global const int* mine = indices + q * K;
  int best = train_labels[mine[0]];
  uint best_votes = 0;
  for (uint r = 0; r < K; ++r) {
    const int label = train_labels[mine[r]];
    uint votes = 0;
    for (uint s = 0; s < K; ++s) votes += train_labels[mine[s]] == label;
    if (votes > best_votes) {
      best_votes = votes;
      best = label;
    }
  }
  predicted[q] = best;
}
