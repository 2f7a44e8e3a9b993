// SPDX-License-Identifier: Apache-2.0
// The velocity-Verlet halves of a molecular-dynamics step
// (src/kernels/particles/molecular_dynamics.cpp). A particle's type is the
// fourth element of its position; inverse_mass[type] scales its force. T
// is float or double.
#include "portacl_common.cl"

#include "particles_neighbour_slots.cl"

#define T3 PORTACL_CAT(T, 3)
#define T4 PORTACL_CAT(T, 4)

// v += f / m dt / 2, then x += v dt; *moved = 1 when the new position is
// more than sqrt(limit2) from where it was at the list's build (by the
// minimum image; the list keeps float positions): the list's move check,
// folded into the pass that moves.
__kernel void md_kick_drift(const uint n, const T dt, __global T4* positions, __global T4* velocities,
                            __global const T4* forces, __global const T* inverse_mass, const T4 box4, const T limit2,
                            __global const float4* built_at, __global uint* moved) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const T4 p = positions[i];
  const T4 v = velocities[i] + (T4)((T)0.5f * dt * inverse_mass[(uint)p.w] * forces[i].xyz, (T)0);
  velocities[i] = v;
  const T3 x = p.xyz + dt * v.xyz;
  positions[i] = (T4)(x, p.w);
  const T3 d = MINIMUM_IMAGE(x - PORTACL_CAT(convert_, T3)(built_at[i].xyz), box4.xyz);
  if (dot(d, d) > limit2) *moved = 1u;
}

__kernel void md_kick(const uint n, const T dt, __global const T4* positions, __global T4* velocities,
                      __global const T4* forces, __global const T* inverse_mass) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  velocities[i] += (T4)((T)0.5f * dt * inverse_mass[(uint)positions[i].w] * forces[i].xyz, (T)0);
}

// Each position's image in [0, box).
__kernel void md_wrap(const uint n, const T4 box4, __global T4* positions) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const T4 p = positions[i];
  T3 w = p.xyz - box4.xyz * floor(p.xyz / box4.xyz);
  w = select(w, (T3)((T)0), w >= box4.xyz);  // rounding can give the box length itself
  positions[i] = (T4)(w, p.w);
}
