// SPDX-License-Identifier: Apache-2.0
// Lloyd's k-means (src/kernels/ml/kmeans.cpp). K clusters of D-dimensional
// points of T (float or double: every distance, sum and mean in T); point
// p's coordinate j is points[p * ps + j * ds]: a row per point (ps = D,
// ds = 1) or a column per point (ps = 1, ds = n), the layout the rule
// kmeans.layout chose. Centroids are K x D row-major, and
// also kept transposed (D x KP, KP = K rounded up to BLOCK, the extra
// lanes 0) so that BLOCK centroids' coordinate j is one vector load.
//   kmeans_assign    each work-group takes a chunk of CHUNK = WG_SIZE x
//                    POINTS consecutive points: each point's nearest
//                    centroid (squared distance, the lowest index on a
//                    tie), BLOCK centroids at a time; then the chunk's
//                    per-cluster sums of each coordinate and counts (a row
//                    of K x (D + 1)), its count of changed labels and its
//                    inertia (added in a tree over the work-items). The sums: SLICES groups of D + 1 work-items,
//                    one per coordinate (the last the count), each adding
//                    its slice of the chunk into local memory (ACC_LOCAL 1,
//                    then the slices added up), or into the work-group's
//                    row itself (ACC_LOCAL 0, SLICES 1). ATOMIC 1 adds the
//                    rows into row 0 with atomics instead of writing its own.
//   kmeans_update    each centroid coordinate: the rows' sum over the
//                    cluster's count; an empty cluster keeps its centroid.
//   kmeans_transpose_centroids   the transposed copy, before the first
//                    iteration.
//   kmeans_relayout  copies the points into the other layout.
//   kmeans_seed_distance, kmeans_gather   k-means++ seeding: squared
//                    distances to the nearest chosen point; chosen points
//                    become the centroids.
#include "portacl_common.cl"

#define CHUNK (WG_SIZE * POINTS)
#define PAIRS (K * D)
#define COLS (D + 1)
#define ROW (K * COLS)
#define KP (((K + BLOCK - 1) / BLOCK) * BLOCK)

#if BLOCK == 1
#define BT T
#define BLOAD(p) (*(p))
#define BSTORE(v, p) (*(p) = (v))
#else
#define BT PORTACL_CAT(T, BLOCK)
#define BLOAD(p) PORTACL_CAT(vload, BLOCK)(0, (p))
#define BSTORE(v, p) PORTACL_CAT(vstore, BLOCK)((v), 0, (p))
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void kmeans_assign(
    const uint n, const uint ps, const uint ds, __global const T* points, __global const T* centroids_t,
    __global int* labels, __global T* rows, __global uint* changed, __global T* inertia) {
  __local int chunk_label[CHUNK];
  __local T item_distance[WG_SIZE];  // each work-item's points' share of the inertia
  __local uint item_moves[WG_SIZE];
  const uint lid = get_local_id(0);
  const size_t group = get_group_id(0), first = group * (size_t)CHUNK;
#if CENTROIDS_LOCAL
  __local T staged[D * KP];
  for (uint i = lid; i < D * KP; i += WG_SIZE) staged[i] = centroids_t[i];
#define CT staged
#else
#define CT centroids_t
#endif
#if ACC_LOCAL
  __local T acc[SLICES * ROW];
  for (uint i = lid; i < SLICES * ROW; i += WG_SIZE) acc[i] = (T)0;
#else
  __global T* acc = rows + group * ROW;  // this work-group's own row
  for (uint i = lid; i < ROW; i += WG_SIZE) acc[i] = (T)0;
#endif
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  T my_distance = (T)0;
  uint my_moves = 0;
  for (uint s = 0; s < POINTS; ++s) {
    const uint q = s * WG_SIZE + lid;
    const size_t p = first + q;
    int best = -1;
    if (p < n) {
      __global const T* x = points + p * ps;
      best = 0;
      T best_distance = (T)INFINITY;
      for (uint c0 = 0; c0 < K; c0 += BLOCK) {
        BT d2 = (BT)((T)0);
        for (uint j = 0; j < D; ++j) {
          const BT t = (BT)(x[(size_t)j * ds]) - BLOAD(CT + j * KP + c0);
          d2 = fma(t, t, d2);
        }
        T lanes[BLOCK];
        BSTORE(d2, lanes);
        for (uint b = 0; b < BLOCK && c0 + b < K; ++b)
          if (lanes[b] < best_distance) {  // strict: the lowest index keeps a tie
            best_distance = lanes[b];
            best = (int)(c0 + b);
          }
      }
      my_moves += labels[p] != best;
      my_distance += best_distance;
      labels[p] = best;
    }
    chunk_label[q] = best;
  }
  item_distance[lid] = my_distance;
  item_moves[lid] = my_moves;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = lid; w < SLICES * COLS; w += WG_SIZE) {  // more than one round only where D + 1 > WG_SIZE
    const uint j = w % COLS, slice = w / COLS;
    const uint per = (CHUNK + SLICES - 1) / SLICES, q0 = slice * per, q1 = min((uint)CHUNK, q0 + per);
    for (uint q = q0; q < q1; ++q) {
      const int c = chunk_label[q];
      if (c >= 0) acc[(slice * K + c) * COLS + j] += j < D ? points[(first + q) * ps + (size_t)j * ds] : (T)1;
    }
  }
  // The work-items' statistics added in a tree (any work-group size: each
  // step folds the upper half of the width onto the lower).
  for (uint width = WG_SIZE; width > 1;) {
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint lower = (width + 1) / 2;  // ("half" is a type in OpenCL C)
    if (lid < width - lower) {
      item_distance[lid] += item_distance[lid + lower];
      item_moves[lid] += item_moves[lid + lower];
    }
    width = lower;
  }
  if (lid == 0) {
    inertia[group] = item_distance[0];
    changed[group] = item_moves[0];
  }
#if ACC_LOCAL
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = lid; w < ROW; w += WG_SIZE) {
    T sum = (T)0;
    for (uint slice = 0; slice < SLICES; ++slice) sum += acc[slice * ROW + w];
#if ATOMIC
    if (sum != (T)0) atomic_add_float(rows + w, sum);  // float only (rule kmeans.combine)
#else
    rows[group * ROW + w] = sum;
#endif
  }
#endif
}

// One work-item per centroid coordinate (c, j): the `count` rows' sums
// added in row order with a compensation term (Kahan), so the result does
// not drift with the number of rows, over the cluster's count (each row's
// count exact in T: a chunk is far below 2^24 points).
__kernel void kmeans_update(const uint count, __global const T* rows, __global T* centroids,
                            __global T* centroids_t, __global uint* cluster_sizes) {
  const uint w = get_global_id(0);
  if (w >= PAIRS) return;
  const uint c = w / D, j = w % D;
  uint members = 0;
  T sum = (T)0, lost = (T)0;
  for (uint r = 0; r < count; ++r) {
    __global const T* row = rows + (size_t)r * ROW + c * COLS;
    members += (uint)row[D];
    const T term = row[j] - lost, next = sum + term;
    lost = (next - sum) - term;
    sum = next;
  }
  if (members > 0) {  // an empty cluster keeps its centroid
    const T mean = sum / (T)members;
    centroids[w] = mean;
    centroids_t[j * KP + c] = mean;
  }
  if (j == 0) cluster_sizes[c] = members;
}

// centroids_t[j][c] = centroids[c][j], 0 in the lanes past K.
__kernel void kmeans_transpose_centroids(__global const T* centroids, __global T* centroids_t) {
  const uint w = get_global_id(0);
  if (w >= D * KP) return;
  const uint j = w / KP, c = w % KP;
  centroids_t[w] = c < K ? centroids[c * D + j] : (T)0;
}

// out[p * out_ps + j * out_ds] = in[p * in_ps + j * in_ds], a work-item an
// element, p fastest (the column layout's writes are then contiguous).
__kernel void kmeans_relayout(const uint n, const uint in_ps, const uint in_ds, const uint out_ps, const uint out_ds,
                              __global const T* in, __global T* out) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)n * D) return;
  const size_t p = id % n, j = id / n;
  out[p * out_ps + j * out_ds] = in[p * in_ps + j * in_ds];
}

// nearest[p] = the squared distance of point p to point `chosen`, or the
// smaller of that and nearest[p] unless `first`.
__kernel void kmeans_seed_distance(const uint n, const uint ps, const uint ds, __global const T* points,
                                   const uint chosen, const uint first, __global T* nearest) {
  const size_t p = get_global_id(0);
  if (p >= n) return;
  T d2 = (T)0;
  for (uint j = 0; j < D; ++j) {
    const T t = points[p * ps + (size_t)j * ds] - points[(size_t)chosen * ps + (size_t)j * ds];
    d2 = fma(t, t, d2);
  }
  nearest[p] = first ? d2 : fmin(nearest[p], d2);
}

// centroids[c][j] = point chosen[c]'s coordinate j.
__kernel void kmeans_gather(const uint ps, const uint ds, __global const T* points,
                            __global const uint* chosen, __global T* centroids) {
  const uint w = get_global_id(0);
  if (w >= PAIRS) return;
  centroids[w] = points[(size_t)chosen[w / D] * ps + (size_t)(w % D) * ds];
}
