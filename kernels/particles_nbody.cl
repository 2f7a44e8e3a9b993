// SPDX-License-Identifier: Apache-2.0
// All-pairs N-body gravity with softening (seed 003 chapter 14). Every
// body i sums over every j, itself included: its own term has d = 0 and so
// adds no acceleration (eps > 0). Its potential term is left out where it
// arises (by index, in the one tile or vector of bodies that holds i: bodies
// at the same place still see each other), never added and taken off
// again: m_i / eps is large where eps is small, and the sum would carry its
// rounding (phi of two unit masses 1 apart with eps 1e-4 came out
// -1.00098). Two ways, by the host's rule (src/rules/particles_nbody_rules.cpp):
//   nbody_tiles  GPUs: bodies as float4 (x, y, z, m), one per work-item; a
//                work-group stages WG_SIZE bodies at a time in local memory
//                and every work-item reads them from there (a broadcast);
//                bodies past n are staged with mass 0, so the inner loop
//                has no bounds test and unrolls by UNROLL.
//   nbody_soa    CPUs: bodies as separate x, y, z, m arrays padded with
//                mass 0 to a multiple of VW (nbody_split makes them), j
//                taken VW at a time in vector registers.
// Each work-item takes BODIES bodies i, so every body j it reads serves
// them all. POTENTIAL 1 also sums m_j / r for the potential.
// nbody_kick_drift and nbody_kick are the leapfrog's halves. T is float or
// double: bodies, accelerations, velocities and the arithmetic; T3 and T4
// its 3- and 4-vectors.
#include "portacl_common.cl"

#define T3 PORTACL_CAT(T, 3)
#define T4 PORTACL_CAT(T, 4)

#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef POTENTIAL
#define POTENTIAL 1
#endif
#ifndef BODIES
#define BODIES 1
#endif

inline T4 finish(T3 acc, T phi, T g) { return (T4)(g * acc, POTENTIAL ? -g * phi : (T)0); }

// One body j's terms (position and mass J, its mass in the potential
// J_MASS) added to each of the work-item's targets b.
#define PAIR_TERMS(J, J_MASS)                                           \
  for (uint b = 0; b < BODIES; ++b) {                                   \
    const T3 d = (J).xyz - me[b].xyz;                                   \
    const T r2 = fma(d.x, d.x, fma(d.y, d.y, fma(d.z, d.z, eps2)));     \
    const T inv = rsqrt(r2);                                            \
    const T s = (J).w * inv * inv * inv;                                \
    acc[b] = fma(d, (T3)(s), acc[b]);                                   \
    if (POTENTIAL) phi[b] = fma((J_MASS), inv, phi[b]);                 \
  }

// The targets are bodies first .. first + count - 1 of the n (all of them
// on one device; a device group member's slice), each summed over all n in
// the same order whatever the slice, so a slice's sums are the whole run's.
// Work-item lid of group g takes targets g * WG_SIZE * BODIES + lid + b *
// WG_SIZE, b < BODIES: each body read from the tile serves BODIES targets.
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void nbody_tiles(const uint n, const uint first,
                                                                               const uint count, const T eps2,
                                                                               const T g, __global const T4* bodies,
                                                                               __global T4* accelerations) {
  __local T4 tile[WG_SIZE];
  const uint lid = get_local_id(0), first_i = get_group_id(0) * WG_SIZE * BODIES + lid;
  T4 me[BODIES];
  T3 acc[BODIES];
  T phi[BODIES];
  for (uint b = 0; b < BODIES; ++b) {
    const uint i = first_i + b * WG_SIZE;
    me[b] = i < count ? bodies[first + i] : (T4)((T)0);
    acc[b] = (T3)((T)0);
    phi[b] = (T)0;
  }
  for (uint tile0 = 0; tile0 < n; tile0 += WG_SIZE) {
    const uint j = tile0 + lid;
    tile[lid] = j < n ? bodies[j] : (T4)((T)0);
    barrier(CLK_LOCAL_MEM_FENCE);
    // Does this tile hold one of the work-item's own bodies (index first +
    // i among all n)? Then that body's own potential term is left out.
    bool self_here = false;
    for (uint b = 0; b < BODIES; ++b) self_here |= POTENTIAL && first + first_i + b * WG_SIZE - tile0 < WG_SIZE;
    if (self_here) {
      for (uint k = 0; k < WG_SIZE; ++k) {
        const T4 other = tile[k];
        PAIR_TERMS(other, first + first_i + b * WG_SIZE == tile0 + k ? (T)0 : other.w)
      }
    } else {
#pragma unroll UNROLL
      for (uint k = 0; k < WG_SIZE; ++k) {
        const T4 other = tile[k];
        PAIR_TERMS(other, other.w)
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint b = 0; b < BODIES; ++b) {
    const uint i = first_i + b * WG_SIZE;
    if (i < count) accelerations[i] = finish(acc[b], phi[b], g);
  }
}

__kernel void nbody_split(const uint n, const uint padded, __global const T4* bodies, __global T* xs,
                          __global T* ys, __global T* zs, __global T* ms) {
  for (uint j = get_global_id(0); j < padded; j += get_global_size(0)) {
    const T4 b = j < n ? bodies[j] : (T4)((T)0);
    xs[j] = b.x;
    ys[j] = b.y;
    zs[j] = b.z;
    ms[j] = b.w;
  }
}

// The integer type of T's width (IT), its VW-lane vectors, and the bit
// casts between them and T's.
#ifdef PORTACL_FP64
#define IT long
#define AS_T_OF_BITS as_double
#else
#define IT int
#define AS_T_OF_BITS as_float
#endif
#if VW > 1
#define VIT PORTACL_CAT(IT, VW)
#define AS_VIT(v) PORTACL_CAT(PORTACL_CAT(as_, IT), VW)(v)
#define AS_VT(v) PORTACL_CAT(AS_T_OF_BITS, VW)(v)
#else
#define VIT IT
#define AS_VIT(v) PORTACL_CAT(as_, IT)(v)
#define AS_VT(v) AS_T_OF_BITS(v)
#endif
#ifndef NEWTON_RSQRT
#define NEWTON_RSQRT 0
#endif
// 1/sqrt(x) without the divider (NEWTON_RSQRT 1; rule particles.nbody-rsqrt):
// a first guess from the bits (relative error below 3.5%), then Newton
// steps y (3 - x y^2) / 2, each about squaring the relative error: three
// reach float's rounding, four double's. CPU compilers that build rsqrt
// from a square root and a division leave the FMA units idle while the
// divider works.
#ifdef PORTACL_FP64
#define RSQRT_GUESS 0x5fe6eb50c7b537a9L
#define NEWTON_STEPS 4
#else
#define RSQRT_GUESS 0x5f375a86
#define NEWTON_STEPS 3
#endif
inline VT pair_rsqrt(VT x) {
#if NEWTON_RSQRT
  VT y = AS_VT(((VIT)RSQRT_GUESS) - (AS_VIT(x) >> 1));
  const VT h = (VT)(0.5) * x;
  for (int k = 0; k < NEWTON_STEPS; ++k) y = y * fma(-h * y, y, (VT)(1.5));
  return y;
#else
  return rsqrt(x);
#endif
}

#if VW > 1
inline T lane_sum(VT v) {
  T lane[VW];
  VSTORE(v, 0, lane);
  T s = (T)0;
  for (uint c = 0; c < VW; ++c) s += lane[c];
  return s;
}
#else
#define lane_sum(v) (v)
#endif

// Work-item w takes targets w * BODIES .. w * BODIES + BODIES - 1 (of
// bodies first .. first + count - 1): each vector of bodies j loaded serves
// BODIES targets.
__kernel void nbody_soa(const uint first, const uint count, const uint padded, const T eps2, const T g,
                        __global const T4* bodies, __global const T* xs, __global const T* ys, __global const T* zs,
                        __global const T* ms, __global T4* accelerations) {
  const uint first_i = get_global_id(0) * BODIES;
  if (first_i >= count) return;
  T4 me[BODIES];
  VT ax[BODIES], ay[BODIES], az[BODIES], ph[BODIES];
  for (uint b = 0; b < BODIES; ++b) {
    me[b] = first_i + b < count ? bodies[first + first_i + b] : (T4)((T)0);
    ax[b] = ay[b] = az[b] = ph[b] = (VT)((T)0);
  }
  for (uint j = 0; j < padded; j += VW) {
    const VT x = VLOAD(0, xs + j), y = VLOAD(0, ys + j), z = VLOAD(0, zs + j), m = VLOAD(0, ms + j);
    for (uint b = 0; b < BODIES; ++b) {
      const VT dx = x - (VT)(me[b].x), dy = y - (VT)(me[b].y), dz = z - (VT)(me[b].z);
      const VT r2 = fma(dx, dx, fma(dy, dy, fma(dz, dz, (VT)(eps2))));
      const VT inv = pair_rsqrt(r2);
      const VT s = m * inv * inv * inv;
      ax[b] = fma(dx, s, ax[b]);
      ay[b] = fma(dy, s, ay[b]);
      az[b] = fma(dz, s, az[b]);
#if POTENTIAL
      // Target b's own term lies in this vector of bodies: its lane's mass
      // left out of the potential.
      const uint self = first + first_i + b - j;
      if (self < VW) {
        T lane[VW];
        VSTORE(m, 0, lane);
        lane[self] = (T)0;
        ph[b] = fma(VLOAD(0, lane), inv, ph[b]);
      } else {
        ph[b] = fma(m, inv, ph[b]);
      }
#endif
    }
  }
  for (uint b = 0; b < BODIES && first_i + b < count; ++b)
    accelerations[first_i + b] =
        finish((T3)(lane_sum(ax[b]), lane_sum(ay[b]), lane_sum(az[b])), lane_sum(ph[b]), g);
}

// v += a dt/2, then x += v dt (the mass, w, kept), for bodies first ..
// first + count - 1 (velocities and accelerations: the slice's own).
__kernel void nbody_kick_drift(const uint first, const uint count, const T dt, __global T4* bodies,
                               __global T4* velocities, __global const T4* accelerations) {
  for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
    const T4 v = velocities[i] + (T4)((T)0.5 * dt * accelerations[i].xyz, (T)0);
    velocities[i] = v;
    bodies[first + i] += (T4)(dt * v.xyz, (T)0);
  }
}

__kernel void nbody_kick(const uint n, const T dt, __global T4* velocities, __global const T4* accelerations) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    velocities[i] += (T4)((T)0.5 * dt * accelerations[i].xyz, (T)0);
}
