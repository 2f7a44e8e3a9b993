// SPDX-License-Identifier: Apache-2.0
// The velocity-Verlet halves of a molecular-dynamics step
// (src/kernels/particles/molecular_dynamics.cpp). A particle's type is the
// fourth float of its position; inverse_mass[type] scales its force.
#include "portacl_common.cl"

#include "neighbour_slots.cl"

// v += f / m dt / 2, then x += v dt; *moved = 1 when the new position is
// more than sqrt(limit2) from where it was at the list's build (by the
// minimum image): the list's move check, folded into the pass that moves.
__kernel void md_kick_drift(const uint n, const float dt, __global float4* positions, __global float4* velocities,
                            __global const float4* forces, __global const float* inverse_mass, const float4 box4,
                            const float limit2, __global const float4* built_at, __global uint* moved) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float4 p = positions[i];
  const float4 v = velocities[i] + (float4)(0.5f * dt * inverse_mass[(uint)p.w] * forces[i].xyz, 0.0f);
  velocities[i] = v;
  const float3 x = p.xyz + dt * v.xyz;
  positions[i] = (float4)(x, p.w);
  const float3 d = minimum_image(x - built_at[i].xyz, box4.xyz);
  if (dot(d, d) > limit2) *moved = 1u;
}

__kernel void md_kick(const uint n, const float dt, __global const float4* positions, __global float4* velocities,
                      __global const float4* forces, __global const float* inverse_mass) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  velocities[i] += (float4)(0.5f * dt * inverse_mass[(uint)positions[i].w] * forces[i].xyz, 0.0f);
}

// Each position's image in [0, box).
__kernel void md_wrap(const uint n, const float4 box4, __global float4* positions) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float4 p = positions[i];
  float3 w = p.xyz - box4.xyz * floor(p.xyz / box4.xyz);
  w = select(w, (float3)(0.0f), w >= box4.xyz);  // rounding can give the box length itself
  positions[i] = (float4)(w, p.w);
}
