// SPDX-License-Identifier: Apache-2.0
// Lloyd's k-means (src/kernels/ml/kmeans.cpp). K clusters of D-dimensional
// float points; point p's coordinate j is points[p * ps + j * ds]: a row
// per point (ps = D, ds = 1) or a column per point (ps = 1, ds = n), the
// layout the rule kmeans.layout chose. Centroids are K x D row-major.
//   kmeans_assign    each work-group takes a chunk of CHUNK = WG_SIZE x
//                    POINTS consecutive points: each point's nearest
//                    centroid (squared distance, the lowest index on a
//                    tie), then the chunk's per-cluster sums and counts,
//                    its count of changed labels and its inertia.
//                    ATOMIC 0: one row of partial sums per work-group,
//                    added up in a fixed order by kmeans_update; ATOMIC 1:
//                    added into row 0 with atomics (compare-and-swap).
//   kmeans_update    each centroid coordinate: the rows' sum over the
//                    cluster's count; an empty cluster keeps its centroid.
//   kmeans_relayout  copies the points into the other layout.
//   kmeans_seed_distance, kmeans_gather   k-means++ seeding: squared
//                    distances to the nearest chosen point; chosen points
//                    become the centroids.
// BLOCK centroids are compared at a time, each point coordinate read once
// a block; CENTROIDS_LOCAL stages the centroids in local memory.
#include "portacl_common.cl"

#define CHUNK (WG_SIZE * POINTS)
#define PAIRS (K * D)

#if CENTROIDS_LOCAL
#define CENTROID(c, j) staged[(c) * D + (j)]
#else
#define CENTROID(c, j) centroids[(c) * D + (j)]
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void kmeans_assign(
    const uint n, const uint ps, const uint ds, __global const float* points, __global const float* centroids,
    __global int* labels, __global float* sums, __global uint* counts, __global uint* changed, __global float* inertia) {
  __local int chunk_label[CHUNK];
  __local float chunk_distance[CHUNK];
  __local uchar chunk_moved[CHUNK];
  const uint lid = get_local_id(0);
#if CENTROIDS_LOCAL
  __local float staged[K * D];
  for (uint i = lid; i < K * D; i += WG_SIZE) staged[i] = centroids[i];
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  const size_t group = get_group_id(0), first = group * (size_t)CHUNK;
  for (uint s = 0; s < POINTS; ++s) {
    const uint q = s * WG_SIZE + lid;
    const size_t p = first + q;
    int best = -1;
    float best_distance = 0.0f;
    uchar moved = 0;
    if (p < n) {
      __global const float* x = points + p * ps;
      best = 0;
      best_distance = INFINITY;
      for (uint c0 = 0; c0 < K; c0 += BLOCK) {
        float d2[BLOCK];
        for (uint b = 0; b < BLOCK; ++b) d2[b] = 0.0f;
        for (uint j = 0; j < D; ++j) {
          const float xj = x[(size_t)j * ds];
          for (uint b = 0; b < BLOCK; ++b) {
            // The last block may run past K: its extra lanes repeat the
            // last centroid and are never compared.
            const float t = xj - CENTROID(min(c0 + b, (uint)K - 1), j);
            d2[b] = fma(t, t, d2[b]);
          }
        }
        for (uint b = 0; b < BLOCK && c0 + b < K; ++b)
          if (d2[b] < best_distance) {  // strict: the lowest index keeps a tie
            best_distance = d2[b];
            best = (int)(c0 + b);
          }
      }
      moved = labels[p] != best;
      labels[p] = best;
    }
    chunk_label[q] = best;
    chunk_distance[q] = best_distance;
    chunk_moved[q] = moved;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Work-item w takes the chunk's sums of coordinate j over cluster c
  // (w = c D + j), the counts (w = K D + c) and the statistics (w = K D + K),
  // each summed over the chunk in the points' order.
  for (uint w = lid; w <= PAIRS + K; w += WG_SIZE) {
    if (w < PAIRS) {
      const int c = (int)(w / D);
      const size_t j = w % D;
      float sum = 0.0f;
      for (uint q = 0; q < CHUNK; ++q)
        if (chunk_label[q] == c) sum += points[(first + q) * ps + j * ds];
#if ATOMIC
      if (sum != 0.0f) atomic_add_float(sums + w, sum);
#else
      sums[group * PAIRS + w] = sum;
#endif
    } else if (w < PAIRS + K) {
      const int c = (int)(w - PAIRS);
      uint count = 0;
      for (uint q = 0; q < CHUNK; ++q) count += chunk_label[q] == c;
#if ATOMIC
      if (count) atomic_add(counts + c, count);
#else
      counts[group * K + c] = count;
#endif
    } else {
      float distance = 0.0f;
      uint moves = 0;
      for (uint q = 0; q < CHUNK; ++q) {
        distance += chunk_distance[q];
        moves += chunk_moved[q];
      }
      inertia[group] = distance;
      changed[group] = moves;
    }
  }
}

// One work-item per centroid coordinate (c, j): its `rows` partial sums
// added in row order with a compensation term (Kahan), so the result does
// not drift with the number of rows, and divided by the cluster's count.
__kernel void kmeans_update(const uint rows, __global const float* sums, __global const uint* counts,
                            __global float* centroids, __global uint* cluster_sizes) {
  const uint w = get_global_id(0);
  if (w >= PAIRS) return;
  const uint c = w / D, j = w % D;
  uint count = 0;
  float sum = 0.0f, lost = 0.0f;
  for (uint r = 0; r < rows; ++r) {
    count += counts[(size_t)r * K + c];
    const float term = sums[(size_t)r * PAIRS + w] - lost, next = sum + term;
    lost = (next - sum) - term;
    sum = next;
  }
  if (count > 0) centroids[w] = sum / (float)count;  // an empty cluster keeps its centroid
  if (j == 0) cluster_sizes[c] = count;
}

// out[p * out_ps + j * out_ds] = in[p * in_ps + j * in_ds], a work-item an
// element, p fastest (the column layout's writes are then contiguous).
__kernel void kmeans_relayout(const uint n, const uint in_ps, const uint in_ds, const uint out_ps, const uint out_ds,
                              __global const float* in, __global float* out) {
  const size_t id = get_global_id(0);
  if (id >= (size_t)n * D) return;
  const size_t p = id % n, j = id / n;
  out[p * out_ps + j * out_ds] = in[p * in_ps + j * in_ds];
}

// nearest[p] = the squared distance of point p to point `chosen`, or the
// smaller of that and nearest[p] unless `first`.
__kernel void kmeans_seed_distance(const uint n, const uint ps, const uint ds, __global const float* points,
                                   const uint chosen, const uint first, __global float* nearest) {
  const size_t p = get_global_id(0);
  if (p >= n) return;
  float d2 = 0.0f;
  for (uint j = 0; j < D; ++j) {
    const float t = points[p * ps + (size_t)j * ds] - points[(size_t)chosen * ps + (size_t)j * ds];
    d2 = fma(t, t, d2);
  }
  nearest[p] = first ? d2 : fmin(nearest[p], d2);
}

// centroids[c][j] = point chosen[c]'s coordinate j.
__kernel void kmeans_gather(const uint ps, const uint ds, __global const float* points,
                            __global const uint* chosen, __global float* centroids) {
  const uint w = get_global_id(0);
  if (w >= PAIRS) return;
  centroids[w] = points[(size_t)chosen[w / D] * ps + (size_t)(w % D) * ds];
}
