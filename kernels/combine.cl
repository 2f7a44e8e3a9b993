// SPDX-License-Identifier: Apache-2.0
// Combining values across the lanes of a vector, a sub-group and a
// work-group, shared by the reductions and the scans. The includer defines
// S, IDENTITY, COMBINE(a, b) and COMBINE_IS_ADD (see reduce.cl).
#ifndef PORTACL_COMBINE_CL
#define PORTACL_COMBINE_CL
#include "portacl_common.cl"

#ifndef BARRIER_FREE
#error "combining kernels need -DBARRIER_FREE=0|1 (set by the planner)"
#endif
#ifndef USE_LOCAL_MEMORY
#error "combining kernels need -DUSE_LOCAL_MEMORY=0|1 (set by the planner)"
#endif
#ifndef SUB_GROUPS
#define SUB_GROUPS 0
#endif
#ifndef COMBINE_IS_ADD
#define COMBINE_IS_ADD 0
#endif
#define PER_ITEM (BARRIER_FREE || !USE_LOCAL_MEMORY)

#if SUB_GROUPS == 1
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

// Partials written by other work-groups are read around the (incoherent)
// first-level caches.
#ifndef LOAD_PARTIAL
#define LOAD_PARTIAL(p, u) (((volatile __global S*)(p))[u])
#endif

// (The arg* reductions fold their lanes by themselves: ARG_VECTOR in
// reduce.cl.)
#if VW > 1 && !ARG_VECTOR
#define SV PORTACL_CAT(S, VW)
inline S combine_lanes(SV v) {
#if VW == 16
  PORTACL_CAT(S, 8) v8 = COMBINE(v.lo, v.hi);
#elif VW == 8
  PORTACL_CAT(S, 8) v8 = v;
#endif
#if VW >= 8
  PORTACL_CAT(S, 4) v4 = COMBINE(v8.lo, v8.hi);
#elif VW == 4
  PORTACL_CAT(S, 4) v4 = v;
#endif
#if VW >= 4
  PORTACL_CAT(S, 2) v2 = COMBINE(v4.lo, v4.hi);
#else
  PORTACL_CAT(S, 2) v2 = v;
#endif
  return COMBINE(v2.s0, v2.s1);
}
#endif

#if !PER_ITEM
#if SUB_GROUPS == 2
#if WG_SIZE % 32
#error "warp shuffles need work-groups of whole warps"
#endif
// Warp shuffles through inline PTX, on 32-bit words: any S moves word by word.
#define PORTACL_WARP_SHUFFLE(name, ptx)                                                  \
  inline uint name##_word(uint v, uint arg) {                                            \
    uint r;                                                                              \
    __asm__ volatile(ptx : "=r"(r) : "r"(v), "r"(arg));                                  \
    return r;                                                                            \
  }                                                                                      \
  inline S name(S v, uint arg) {                                                         \
    union {                                                                              \
      S s;                                                                               \
      uint w[(sizeof(S) + 3) / 4];                                                       \
    } in, out;                                                                           \
    in.s = v;                                                                            \
    for (uint k = 0; k < (sizeof(S) + 3) / 4; ++k) out.w[k] = name##_word(in.w[k], arg); \
    return out.s;                                                                        \
  }
PORTACL_WARP_SHUFFLE(shuffle_xor, "shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;")
PORTACL_WARP_SHUFFLE(shuffle_up, "shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;")

inline S warp_combine(S v) {
  for (uint m = 16; m > 0; m >>= 1) {
    // Shuffled first: COMBINE may name an operand twice, and a shuffle in
    // one arm of a ?: would leave the warp divergent (quirk
    // nvidia.shuffle-divergent).
    const S other = shuffle_xor(v, m);
    v = COMBINE(v, other);
  }
  return v;
}
#endif

// Combines one value per work-item of the group; every work-item must call
// it. The result is valid in work-item 0.
inline S group_combine(S v, __local S* scratch) {
  const uint lid = get_local_id(0);
#if SUB_GROUPS == 2
  v = warp_combine(v);
  if ((lid & 31) == 0) scratch[lid >> 5] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 32) v = warp_combine(lid < WG_SIZE / 32 ? scratch[lid] : IDENTITY);
  barrier(CLK_LOCAL_MEM_FENCE);  // scratch may be reused by the caller
  return v;
#elif SUB_GROUPS == 1 && COMBINE_IS_ADD
  v = sub_group_reduce_add(v);
  if (get_sub_group_local_id() == 0) scratch[get_sub_group_id()] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    for (uint s = 1; s < get_num_sub_groups(); ++s) v = COMBINE(v, scratch[s]);
  barrier(CLK_LOCAL_MEM_FENCE);
  return v;
#else
  scratch[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Halving that also works for sizes that are not powers of two.
  for (uint active = WG_SIZE; active > 1;) {
    const uint upper = (active + 1) / 2;  // ("half" is a type)
    if (lid < active - upper) scratch[lid] = COMBINE(scratch[lid], scratch[lid + upper]);
    barrier(CLK_LOCAL_MEM_FENCE);
    active = upper;
  }
  v = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return v;
#endif
}

// Exclusive prefix of one value per work-item over the work-group (every
// work-item must call it); *total gets the whole group's combination.
// scratch holds WG_SIZE values.
inline S group_exclusive_scan(S v, __local S* scratch, S* total) {
  const uint lid = get_local_id(0);
#if SUB_GROUPS == 2
  const uint lane = lid & 31, warp = lid >> 5;
  S inclusive = v;
  for (uint d = 1; d < 32; d <<= 1) {
    const S below = shuffle_up(inclusive, d);
    if (lane >= d) inclusive = COMBINE(below, inclusive);
  }
  S exclusive = shuffle_up(inclusive, 1);
  if (lane == 0) exclusive = IDENTITY;
  if (lane == 31) scratch[warp] = inclusive;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (warp == 0) {
    const S w = lane < WG_SIZE / 32 ? scratch[lane] : IDENTITY;
    S w_inclusive = w;
    for (uint d = 1; d < 32; d <<= 1) {
      const S below = shuffle_up(w_inclusive, d);
      if (lane >= d) w_inclusive = COMBINE(below, w_inclusive);
    }
    if (lane < WG_SIZE / 32) scratch[lane] = w_inclusive;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (warp > 0) exclusive = COMBINE(scratch[warp - 1], exclusive);
  *total = scratch[WG_SIZE / 32 - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  return exclusive;
#else
  scratch[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < WG_SIZE; d <<= 1) {
    const S below = lid >= d ? scratch[lid - d] : IDENTITY;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= d) scratch[lid] = COMBINE(below, scratch[lid]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const S exclusive = lid ? scratch[lid - 1] : IDENTITY;
  *total = scratch[WG_SIZE - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  return exclusive;
#endif
}
#endif

#endif  // PORTACL_COMBINE_CL
