// SPDX-License-Identifier: Apache-2.0
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

#include "combine.cl"

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

#if VW > 1 && ARG_VECTOR
// The arg* reductions a vector at a time: each lane keeps its best value
// and the vector it came from, taking a later one only when strictly better
// (or the first NaN), so each lane holds its first best; the lanes then
// join the scalar fold as (value, index) pairs, whose COMBINE orders ties
// and NaNs by index. Indices of vectors are ARG_INDEX (T's width, so the
// comparisons' masks fit), which holds n / VW where n / VW < ARG_NONE.
#define VI PORTACL_CAT(ARG_INDEX, VW)
#define VM PORTACL_CAT(ARG_MASK, VW)
inline S arg_vectors(const ulong vectors, INPUTS) {
  VT best = (VT)0;
  VI at = (VI)ARG_NONE;
  PORTACL_FOR_UNITS(i, vectors) {
    const VT v = ARG_VALUE_V(i);
    const VM take = (at == (VI)ARG_NONE) | (v ARG_OP best) | (isnan(v) & ~isnan(best));
    best = select(best, v, take);
    at = select(at, (VI)((ARG_INDEX)i), take);
  }
  T bests[VW];
  ARG_INDEX ats[VW];
  VSTORE(best, 0, bests);
  PORTACL_CAT(vstore, VW)(at, 0, ats);
  S acc = IDENTITY;
  for (uint l = 0; l < VW; ++l)
    if (ats[l] != ARG_NONE) acc = COMBINE(acc, arg_make(bests[l], (ulong)ats[l] * VW + l));
  return acc;
}
#endif

__kernel void reduce(const ulong n, INPUTS, __global S* partials, volatile __global uint* ticket, __global S* result,
                     const uint single_pass) {
  S acc = IDENTITY;
#if VW > 1 && ARG_VECTOR
  if (n / VW < (ulong)ARG_NONE) {
    acc = arg_vectors(n / VW, x);
    for (size_t j = (n / VW) * VW + get_global_id(0); j < n; j += get_global_size(0)) acc = COMBINE(acc, ELEMENT(j));
  } else {
    PORTACL_FOR_UNITS(i, n) acc = COMBINE(acc, ELEMENT(i));
  }
#elif VW > 1
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
      publish_partial();  // the others' partials are read after their tickets
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
    if (is_last) {        // the same in the whole work-group
      publish_partial();  // the others' partials are read after their tickets
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

#ifdef REDUCE_SQRT
// nrm2's last step on the device (its asynchronous form): the root of the
// sum of squares, as T.
__kernel void reduce_sqrt(__global const S* squares, __global T* norm) { norm[0] = (T)sqrt(squares[0]); }
#endif
