// SPDX-License-Identifier: Apache-2.0
// Pair-distance histogram for the radial distribution function
// (src/kernels/particles/rdf.cpp). Particle i takes the pairs (i, i + 1),
// ..., (i, i + (n - 1) / 2) around the ring, and for even n also
// (i, i + n / 2) when i < n / 2: every unordered pair once, and every
// particle the same work. A distance r < r_max falls in shell
// floor(r / width); others are dropped. Three ways, by the histogram's
// rules: rdf_local (a work-group's shells in local memory, local atomics,
// one global atomic per shell), rdf_global (a global atomic per pair),
// rdf_rows and rdf_merge (a row of shells per work-item, then a sum).
#include "portacl_common.cl"
#include "particles_neighbour_slots.cl"

// Calls COUNT(shell) for each of i's pairs within r_max.
#define FOR_PAIRS_OF(i, COUNT)                                                        \
  {                                                                                   \
    const float3 me = positions[i].xyz;                                               \
    const uint reach = (n - 1) / 2 + ((n % 2 == 0 && i < n / 2) ? 1 : 0);             \
    for (uint o = 1; o <= reach; ++o) {                                               \
      uint j = i + o;                                                                 \
      if (j >= n) j -= n;                                                             \
      const float3 d = minimum_image(positions[j].xyz - me, box4.xyz);                \
      const float r = length(d);                                                      \
      if (r < r_max) COUNT(min((uint)(r / width), (uint)(SHELLS - 1)));               \
    }                                                                                 \
  }

#ifdef LOCAL_BINS
__kernel void rdf_local(const uint n, const float4 box4, const float r_max, const float width,
                        __global const float4* positions, __global uint* counts) {
  __local uint shells[SHELLS];
  for (uint s = get_local_id(0); s < SHELLS; s += get_local_size(0)) shells[s] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
#define COUNT_LOCAL(s) atomic_inc(&shells[s])
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) FOR_PAIRS_OF(i, COUNT_LOCAL)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_id(0); s < SHELLS; s += get_local_size(0))
    if (shells[s]) atomic_add(&counts[s], shells[s]);
}
#endif

__kernel void rdf_global(const uint n, const float4 box4, const float r_max, const float width,
                         __global const float4* positions, __global uint* counts) {
#define COUNT_GLOBAL(s) atomic_inc(&counts[s])
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) FOR_PAIRS_OF(i, COUNT_GLOBAL)
}

// Row r takes particles [r * chunk, min(n, (r + 1) * chunk)).
__kernel void rdf_rows(const uint n, const float4 box4, const float r_max, const float width, const uint rows,
                       const uint chunk, __global const float4* positions, __global uint* partial) {
  const uint row = get_global_id(0);
  if (row >= rows) return;
  __global uint* mine = partial + (size_t)row * SHELLS;
  for (uint s = 0; s < SHELLS; ++s) mine[s] = 0;
#define COUNT_ROW(s) ++mine[s]
  const uint end = min(n, (row + 1) * chunk);
  for (uint i = row * chunk; i < end; ++i) FOR_PAIRS_OF(i, COUNT_ROW)
}

__kernel void rdf_merge(const uint rows, __global const uint* partial, __global uint* counts) {
  for (uint s = get_global_id(0); s < SHELLS; s += get_global_size(0)) {
    uint c = 0;
    for (uint r = 0; r < rows; ++r) c += partial[(size_t)r * SHELLS + s];
    counts[s] = c;
  }
}
