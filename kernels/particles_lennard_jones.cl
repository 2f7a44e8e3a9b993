// SPDX-License-Identifier: Apache-2.0
// Lennard-Jones forces over a neighbour list (src/kernels/particles/
// lennard_jones.cpp). pair[ti * TYPES + tj] holds (4 eps sigma^12,
// 4 eps sigma^6, E_shift, 0) of a type pair, so a pair at r < cutoff has
//   E = c12 / r^12 - c6 / r^6 - E_shift,
//   F_i = (12 c12 / r^12 - 6 c6 / r^6) / r^2 (x_i - x_j).
// HALF_LIST 0 (a full list): each particle sums its own pairs, no atomics.
// HALF_LIST 1 (a half list): each pair once, the other particle's share
// added with an atomic compare-and-swap loop on its floats (every OpenCL
// 1.2 device has 32-bit atomic_cmpxchg; float only). The lists' SLOT
// layout is particles_neighbours.cl's (particles_neighbour_slots.cl). T is float or double:
// positions, the table and the forces are T4.
#include "portacl_common.cl"

#include "particles_neighbour_slots.cl"

#define T3 PORTACL_CAT(T, 3)
#define T4 PORTACL_CAT(T, 4)

// The pair's force on i (xyz) and its whole energy (w); 0 past the cutoff.
inline T4 pair_force(T3 d, T rc2, T4 c) {
  const T r2 = dot(d, d);
  if (r2 >= rc2) return (T4)((T)0);
  const T inv2 = 1 / r2, inv6 = inv2 * inv2 * inv2;
  const T f_over_r = (12 * c.x * inv6 - 6 * c.y) * inv6 * inv2;
  return (T4)(f_over_r * d, (c.x * inv6 - c.y) * inv6 - c.z);
}

// *bad = 1 where a particle's type is not 0 .. TYPES - 1.
__kernel void lj_check_types(const uint n, __global const T4* positions, __global uint* bad) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const T t = positions[i].w;
  if (!(t >= 0 && t < (T)TYPES && t == floor(t))) *bad = 1;
}

#if HALF_LIST
inline void atomic_add_float4(__global float* p, float4 v) {
  atomic_add_float(p, v.x);
  atomic_add_float(p + 1, v.y);
  atomic_add_float(p + 2, v.z);
  atomic_add_float(p + 3, v.w);
}
#endif

// HALF_LIST 0: forces[i] = (F_i, e_i) from i's own pairs. HALF_LIST 1:
// forces must be zero before; i adds its own sum and, for each pair, the
// other particle's share.
__kernel void lj_forces(const uint n, const uint capacity, const T4 box4, const T rc2, __global const T4* positions,
                        __global const uint* counts, __global const uint* list, __global const T4* pair,
                        __global T* forces) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const T4 me = positions[i];
  const uint ti = (uint)me.w;
  T4 sum = (T4)((T)0);
  const uint count = counts[i];
  for (uint k = 0; k < count; ++k) {
    const uint j = list[SLOT(i, k)];
    const T4 other = positions[j];
    const T4 f = pair_force(MINIMUM_IMAGE(me.xyz - other.xyz, box4.xyz), rc2, pair[ti * TYPES + (uint)other.w]);
    sum += f;
#if HALF_LIST
    if (any(f != (T4)((T)0))) atomic_add_float4(forces + 4 * (size_t)j, (T4)(-f.xyz, (T)0.5f * f.w));
#endif
  }
  const T4 mine = (T4)(sum.xyz, (T)0.5f * sum.w);
#if HALF_LIST
  atomic_add_float4(forces + 4 * (size_t)i, mine);
#else
  vstore4(mine, i, forces);
#endif
}
