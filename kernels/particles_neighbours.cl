// SPDX-License-Identifier: Apache-2.0
// Neighbour lists in a periodic box (src/kernels/particles/neighbours.cpp).
// A pair is listed when its minimum-image distance is below REACH (cutoff
// + skin), given as reach2 = REACH^2. Two searches:
//   nlist_all_pairs  particle i tests every j (small boxes, small n);
//   cell_of, cell_bounds, nlist_cells  cells at least REACH wide: each
//                particle's cell, the particles sorted by cell (the host's
//                radix sort), each cell's first and last place in that
//                order, then particle i tests the particles of its 27
//                neighbouring cells (3 or more cells a side: all distinct).
// Neighbour k of i is stored at SLOT(i, k): k * n + i with SLOTS_BY_K 1
// (GPUs: neighbouring work-items write neighbouring words), else
// i * capacity + k (CPUs: a particle's neighbours share cache lines). A
// particle with more than `capacity` neighbours keeps counting; the largest
// count goes to *fullest, so the host can grow the capacity and build again.
// HALF 1 lists a pair once, at its smaller index.
#include "portacl_common.cl"

#include "particles_neighbour_slots.cl"

// Counts j as a neighbour of i when it is one.
inline void consider(uint i, uint j, float3 me, float3 other, float3 box, float reach2, uint* count,
                     __global uint* list, uint n, uint capacity) {
  if (j == i || (HALF && j < i)) return;
  const float3 d = minimum_image(other - me, box);
  if (dot(d, d) < reach2) {
    if (*count < capacity) list[SLOT(i, *count)] = j;
    ++*count;
  }
}

inline void finish_particle(uint i, uint count, uint capacity, __global uint* counts, __global uint* fullest) {
  counts[i] = count;
  if (count > capacity) atomic_max(fullest, count);
}

__kernel void nlist_all_pairs(const uint n, const float4 box4, const float reach2, const uint capacity,
                              __global const float4* positions, __global uint* counts, __global uint* list,
                              __global uint* fullest) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float3 box = box4.xyz, me = positions[i].xyz;
  uint count = 0;
  for (uint j = HALF ? i + 1 : 0; j < n; ++j)
    consider(i, j, me, positions[j].xyz, box, reach2, &count, list, n, capacity);
  finish_particle(i, count, capacity, counts, fullest);
}

// The cell of a position (its image in the box), per dimension.
inline int3 cell_coordinates(float3 p, float3 box, int3 cells) {
  const float3 wrapped = p - box * floor(p / box);  // in [0, box], box itself possible by rounding
  int3 c = convert_int3_rtz(wrapped / box * convert_float3(cells));
  return clamp(c, (int3)(0), cells - 1);
}

inline uint cell_index(int3 c, int3 cells) { return (uint)((c.z * cells.y + c.y) * cells.x + c.x); }

__kernel void cell_of(const uint n, const float4 box4, const int4 cells4, __global const float4* positions,
                      __global uint* cell, __global uint* index) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  cell[i] = cell_index(cell_coordinates(positions[i].xyz, box4.xyz, cells4.xyz), cells4.xyz);
  index[i] = i;
}

// start[c] and end[c]: the places of cell c's particles in the sorted
// order (the host zeroes both, so an empty cell has start = end).
__kernel void cell_bounds(const uint n, __global const uint* sorted_cell, __global uint* start, __global uint* end) {
  const uint k = get_global_id(0);
  if (k >= n) return;
  const uint c = sorted_cell[k];
  if (k == 0 || sorted_cell[k - 1] != c) start[c] = k;
  if (k == n - 1 || sorted_cell[k + 1] != c) end[c] = k + 1;
}

// Work-item w takes the w-th particle in cell order, so neighbouring
// work-items read neighbouring cells.
__kernel void nlist_cells(const uint n, const float4 box4, const int4 cells4, const float reach2, const uint capacity,
                          __global const float4* positions, __global const uint* sorted_index,
                          __global const uint* start, __global const uint* end, __global uint* counts,
                          __global uint* list, __global uint* fullest) {
  const uint w = get_global_id(0);
  if (w >= n) return;
  const uint i = sorted_index[w];
  const float3 box = box4.xyz, me = positions[i].xyz;
  const int3 cells = cells4.xyz, mine = cell_coordinates(me, box, cells);
  uint count = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int3 c = (mine + (int3)(dx, dy, dz) + cells) % cells;
        const uint cell = cell_index(c, cells);
        for (uint k = start[cell]; k < end[cell]; ++k) {
          const uint j = sorted_index[k];
          consider(i, j, me, positions[j].xyz, box, reach2, &count, list, n, capacity);
        }
      }
  finish_particle(i, count, capacity, counts, fullest);
}

// *first_bad: the smallest i whose coordinates are not finite or lie more
// than two box lengths outside the box (outside [-2 box, 3 box)), where the
// minimum image of a float difference would lose the digits that place a
// particle (the host sets it to 0xffffffff first).
__kernel void check_positions(const uint n, const float4 box4, __global const float4* positions,
                              __global uint* first_bad) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float3 p = positions[i].xyz, box = box4.xyz;
  if (!all(isfinite(p)) || any(p < -2 * box) || any(p >= 3 * box)) atomic_min(first_bad, i);
}

// *moved = 1 when a particle is more than sqrt(limit2) from where it was
// at the build (by the minimum image).
__kernel void moved_beyond(const uint n, const float4 box4, const float limit2, __global const float4* positions,
                           __global const float4* built_at, __global uint* moved) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float3 d = minimum_image(positions[i].xyz - built_at[i].xyz, box4.xyz);
  if (dot(d, d) > limit2) *moved = 1;
}

#ifdef PORTACL_FP64
// Double positions narrowed to float for the search: the skin covers the
// rounding (a few parts in 10^7 of the box).
__kernel void narrow_positions(const uint n, __global const double4* positions, __global float4* narrowed) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  narrowed[i] = convert_float4(positions[i]);
}
#endif
