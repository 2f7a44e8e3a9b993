// Reductions. Every work-item folds its share of the input into one value
// (whole vectors first, lanes combined at the end), then the partial results
// are combined. The host defines the operation in front of this file:
//   S               the accumulated type (a scalar, or a struct for arg*)
//   IDENTITY        its neutral element
//   COMBINE(a, b)   the associative operation (on S vectors too when VW > 1)
//   COMBINE_IS_ADD  1 when COMBINE is +, so sub_group_reduce_add may do it
//   INPUTS          the kernel's input parameters
//   ELEMENT(i)      element i as an S; ELEMENT_V(i): vector i as an S vector
// The plan picks the variant:
//   BARRIER_FREE or no local memory: one partial per work-item (CPUs)
//   otherwise one per work-group, combined in local memory, after each
//   sub-group combined its own values (SUB_GROUPS 1: sub_group_reduce_add,
//   2: NVIDIA warp shuffles)
// With single_pass set the last unit to finish combines all partials;
// otherwise reduce_partials does it in a second launch.
#include "portacl_common.cl"

#ifndef BARRIER_FREE
#define BARRIER_FREE 0
#endif
#ifndef USE_LOCAL_MEMORY
#define USE_LOCAL_MEMORY 0
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

// Makes this work-item's global writes visible device-wide before its
// ticket is taken.
inline void publish_partial(void) {
  mem_fence(CLK_GLOBAL_MEM_FENCE);
#if SUB_GROUPS == 2
  __asm__ volatile("membar.gl;" ::: "memory");
#endif
}

#if VW > 1
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
inline uint warp_shuffle_xor(uint v, uint lane_mask) {
  uint r;
  __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(lane_mask));
  return r;
}
// Any S, moved as 32-bit words.
inline S shuffle_xor(S v, uint lane_mask) {
  union {
    S s;
    uint w[(sizeof(S) + 3) / 4];
  } in, out;
  in.s = v;
  for (uint k = 0; k < (sizeof(S) + 3) / 4; ++k) out.w[k] = warp_shuffle_xor(in.w[k], lane_mask);
  return out.s;
}
inline S warp_combine(S v) {
  for (uint m = 16; m > 0; m >>= 1) v = COMBINE(v, shuffle_xor(v, m));
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
#endif

// This unit's share of the partials, combined (the single-pass finish and
// the second pass share it).
#if PER_ITEM
inline S combine_partials(const size_t units, __global const S* partials) {
  S v = IDENTITY;
  for (size_t u = 0; u < units; ++u) v = COMBINE(v, LOAD_PARTIAL(partials, u));
  return v;
}
#else
inline S combine_partials(const size_t units, __global const S* partials, __local S* scratch) {
  S v = IDENTITY;
  for (size_t u = get_local_id(0); u < units; u += WG_SIZE) v = COMBINE(v, LOAD_PARTIAL(partials, u));
  return group_combine(v, scratch);
}
#endif

__kernel void reduce(const ulong n, INPUTS, __global S* partials, volatile __global uint* ticket,
                     __global S* result, const uint single_pass) {
  S acc = IDENTITY;
#if VW > 1
  SV vacc = (SV)(IDENTITY);
  PORTACL_FOR_UNITS(i, n / VW) vacc = COMBINE(vacc, ELEMENT_V(i));
  acc = combine_lanes(vacc);
  for (size_t j = (n / VW) * VW + get_global_id(0); j < n; j += get_global_size(0)) acc = COMBINE(acc, ELEMENT(j));
#else
  PORTACL_FOR_UNITS(i, n) acc = COMBINE(acc, ELEMENT(i));
#endif

#if PER_ITEM
  const size_t units = get_global_size(0);
  partials[get_global_id(0)] = acc;
  if (single_pass) {
    publish_partial();
    if (atomic_inc(ticket) == units - 1) {
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      result[0] = combine_partials(units, partials);
      *ticket = 0;  // ready for the next launch
    }
  }
#else
  __local S scratch[WG_SIZE];
  __local uint is_last;
  const size_t units = get_num_groups(0);
  acc = group_combine(acc, scratch);
  if (get_local_id(0) == 0) partials[get_group_id(0)] = acc;
  if (single_pass) {
    if (get_local_id(0) == 0) {
      publish_partial();
      is_last = atomic_inc(ticket) == units - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (is_last) {  // the same in the whole work-group
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      const S total = combine_partials(units, partials, scratch);
      if (get_local_id(0) == 0) {
        result[0] = total;
        *ticket = 0;
      }
    }
  }
#endif
}

// The second pass: one work-group (one work-item in the per-item variant)
// combines `units` partials.
__kernel void reduce_partials(const ulong units, __global const S* partials, __global S* result) {
#if PER_ITEM
  if (get_global_id(0) == 0) result[0] = combine_partials(units, partials);
#else
  __local S scratch[WG_SIZE];
  const S total = combine_partials(units, partials, scratch);
  if (get_local_id(0) == 0) result[0] = total;
#endif
}
