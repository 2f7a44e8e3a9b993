// SPDX-License-Identifier: Apache-2.0
// All-pairs N-body gravity with softening (seed 003 chapter 14). Every
// body i sums over every j, itself included: its own term has d = 0 and so
// adds no acceleration (eps > 0), and its potential term m_i / eps is taken
// off at the end. Two ways, by the host's rule (src/rules/nbody_rules.cpp):
//   nbody_tiles  GPUs: bodies as float4 (x, y, z, m), one per work-item; a
//                work-group stages WG_SIZE bodies at a time in local memory
//                and every work-item reads them from there (a broadcast);
//                bodies past n are staged with mass 0, so the inner loop
//                has no bounds test and unrolls by UNROLL.
//   nbody_soa    CPUs: bodies as separate x, y, z, m arrays padded with
//                mass 0 to a multiple of VW (nbody_split makes them), j
//                taken VW at a time in vector registers.
// POTENTIAL 1 also sums m_j / r for the potential.
// nbody_kick_drift and nbody_kick are the leapfrog's halves.
#include "portacl_common.cl"

#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef POTENTIAL
#define POTENTIAL 1
#endif

inline float4 finish(float3 acc, float phi, float4 me, float eps2, float g) {
  // The self term of the potential: m_i / eps.
  return (float4)(g * acc, POTENTIAL ? -g * (phi - me.w * rsqrt(eps2)) : 0.0f);
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void nbody_tiles(
    const uint n, const float eps2, const float g, __global const float4* bodies, __global float4* accelerations) {
  __local float4 tile[WG_SIZE];
  const uint i = get_global_id(0), lid = get_local_id(0);
  const float4 me = i < n ? bodies[i] : (float4)(0.0f);
  float3 acc = (float3)(0.0f);
  float phi = 0.0f;
  for (uint first = 0; first < n; first += WG_SIZE) {
    const uint j = first + lid;
    tile[lid] = j < n ? bodies[j] : (float4)(0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll UNROLL
    for (uint k = 0; k < WG_SIZE; ++k) {
      const float4 b = tile[k];
      const float3 d = b.xyz - me.xyz;
      const float r2 = fma(d.x, d.x, fma(d.y, d.y, fma(d.z, d.z, eps2)));
      const float inv = rsqrt(r2);
      const float s = b.w * inv * inv * inv;
      acc = fma(d, (float3)(s), acc);
#if POTENTIAL
      phi = fma(b.w, inv, phi);
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < n) accelerations[i] = finish(acc, phi, me, eps2, g);
}

__kernel void nbody_split(const uint n, const uint padded, __global const float4* bodies, __global float* xs,
                          __global float* ys, __global float* zs, __global float* ms) {
  for (uint j = get_global_id(0); j < padded; j += get_global_size(0)) {
    const float4 b = j < n ? bodies[j] : (float4)(0.0f);
    xs[j] = b.x;
    ys[j] = b.y;
    zs[j] = b.z;
    ms[j] = b.w;
  }
}

#if VW > 1
inline float lane_sum(VT v) {
  float lane[VW];
  VSTORE(v, 0, lane);
  float s = 0.0f;
  for (uint c = 0; c < VW; ++c) s += lane[c];
  return s;
}
#else
#define lane_sum(v) (v)
#endif

__kernel void nbody_soa(const uint n, const uint padded, const float eps2, const float g,
                        __global const float4* bodies, __global const float* xs, __global const float* ys,
                        __global const float* zs, __global const float* ms, __global float4* accelerations) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float4 me = bodies[i];
  VT ax = (VT)(0.0f), ay = (VT)(0.0f), az = (VT)(0.0f), ph = (VT)(0.0f);
  for (uint j = 0; j < padded; j += VW) {
    const VT dx = VLOAD(0, xs + j) - (VT)(me.x), dy = VLOAD(0, ys + j) - (VT)(me.y), dz = VLOAD(0, zs + j) - (VT)(me.z);
    const VT r2 = fma(dx, dx, fma(dy, dy, fma(dz, dz, (VT)(eps2))));
    const VT inv = rsqrt(r2);
    const VT m = VLOAD(0, ms + j);
    const VT s = m * inv * inv * inv;
    ax = fma(dx, s, ax);
    ay = fma(dy, s, ay);
    az = fma(dz, s, az);
#if POTENTIAL
    ph = fma(m, inv, ph);
#endif
  }
  accelerations[i] = finish((float3)(lane_sum(ax), lane_sum(ay), lane_sum(az)), lane_sum(ph), me, eps2, g);
}

// v += a dt/2, then x += v dt (the mass, w, kept).
__kernel void nbody_kick_drift(const uint n, const float dt, __global float4* bodies, __global float4* velocities,
                               __global const float4* accelerations) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const float4 v = velocities[i] + (float4)(0.5f * dt * accelerations[i].xyz, 0.0f);
    velocities[i] = v;
    bodies[i] += (float4)(dt * v.xyz, 0.0f);
  }
}

__kernel void nbody_kick(const uint n, const float dt, __global float4* velocities,
                         __global const float4* accelerations) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    velocities[i] += (float4)(0.5f * dt * accelerations[i].xyz, 0.0f);
}
