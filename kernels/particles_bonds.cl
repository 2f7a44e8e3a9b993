// SPDX-License-Identifier: Apache-2.0
// Harmonic bonds (src/kernels/particles/bonds.cpp). bond_forces writes
// each bond's force on its first atom and its energy into the bond's slot;
// bond_gather adds to each atom the slots of its bonds, with the sign of
// its side (+ first atom, - second), from the list the host made once:
// atom_bonds[a * MAX_BONDS + s] = 2 b + side. No two work-items write one
// place, so there are no atomics.
#include "portacl_common.cl"
#include "particles_neighbour_slots.cl"

// d points from the first atom to the second; stretched (r > r0), the
// first atom is pulled along d, towards the second.
__kernel void bond_forces(const uint bonds, const float4 box4, __global const float4* positions,
                          __global const uint2* pairs, __global const uint* types, __global const float2* params,
                          __global float4* slots) {
  const uint b = get_global_id(0);
  if (b >= bonds) return;
  const uint2 ij = pairs[b];
  const float2 kr = params[types[b]];
  const float3 d = minimum_image(positions[ij.y].xyz - positions[ij.x].xyz, box4.xyz);
  const float r = length(d);
  const float stretch = r - kr.y;
  // At r = 0 the direction is undefined; such a bond pushes nothing.
  const float3 f = r > 0.0f ? (kr.x * stretch / r) * d : (float3)(0.0f);
  slots[b] = (float4)(f, 0.5f * kr.x * stretch * stretch);
}

__kernel void bond_gather(const uint atoms, __global const uint* counts, __global const uint* atom_bonds,
                          __global const float4* slots, __global float4* forces) {
  const uint a = get_global_id(0);
  if (a >= atoms) return;
  float4 sum = (float4)(0.0f);
  for (uint s = 0; s < counts[a]; ++s) {
    const uint entry = atom_bonds[a * MAX_BONDS + s];
    const float4 slot = slots[entry >> 1];
    sum += (float4)((entry & 1) ? -slot.xyz : slot.xyz, 0.5f * slot.w);
  }
  forces[a] += sum;
}
