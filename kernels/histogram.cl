// SPDX-License-Identifier: Apache-2.0
// Histogram of 32-bit keys: counts[b] = how many keys have bin b, where a
// key's bin is key >> SHIFT, or (key >> SHIFT) mod BINS with WRAP (radix
// digits; BINS a power of two). Bins of BINS or more are not counted.
// Three variants, chosen by the host's rules (src/rules/histogram_rules.cpp):
//   hist_local   each work-group counts into its own bins in local memory
//                (local atomics), then adds every non-zero bin to the global
//                counts with one global atomic: hierarchical atomics (seed
//                000 4.4: 20x over global atomics on a GTX 750 Ti);
//   hist_global  every key is one global atomic (bins past local memory);
//   hist_rows    work-item r counts a contiguous chunk of keys into its own
//                row of partial counts, no atomics (CPUs: one row per
//                thread, as the textbook's OpenMP version; atomics there
//                serialise); hist_merge then adds the rows up, a bin per
//                work-item.
// hist_zero clears the counts for the two atomic variants.
#include "portacl_common.cl"

#ifndef BINS
#error "histogram.cl needs -DBINS=<bin count>"
#endif
#ifndef SHIFT
#define SHIFT 0
#endif

inline uint bin_of(uint key) {
#ifdef WRAP
  return (key >> SHIFT) & (uint)(BINS - 1);
#else
  return key >> SHIFT;
#endif
}

__kernel void hist_zero(__global uint* counts) {
  for (size_t b = get_global_id(0); b < BINS; b += get_global_size(0)) counts[b] = 0;
}

__kernel void hist_global(const ulong n, __global const uint* keys, __global uint* counts) {
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) {
    const uint b = bin_of(keys[i]);
    if (b < BINS) atomic_inc(&counts[b]);
  }
}

#ifdef LOCAL_BINS
__kernel void hist_local(const ulong n, __global const uint* keys, __global uint* counts) {
  __local uint bins[BINS];
  const size_t lid = get_local_id(0), group = get_local_size(0);
  for (size_t b = lid; b < BINS; b += group) bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) {
    const uint b = bin_of(keys[i]);
    if (b < BINS) atomic_inc(&bins[b]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = lid; b < BINS; b += group) {
    const uint c = bins[b];
    if (c) atomic_add(&counts[b], c);
  }
}
#endif

// Row r counts keys [r * chunk, min(n, (r + 1) * chunk)).
__kernel void hist_rows(const ulong n, const ulong rows, const ulong chunk, __global const uint* keys,
                        __global uint* partial) {
  const size_t r = get_global_id(0);
  if (r >= rows) return;
  __global uint* mine = partial + r * (size_t)BINS;
  for (size_t b = 0; b < BINS; ++b) mine[b] = 0;
  const size_t end = min((size_t)n, (r + 1) * (size_t)chunk);
  for (size_t i = r * (size_t)chunk; i < end; ++i) {
    const uint b = bin_of(keys[i]);
    if (b < BINS) ++mine[b];
  }
}

__kernel void hist_merge(const ulong rows, __global const uint* partial, __global uint* counts) {
  for (size_t b = get_global_id(0); b < BINS; b += get_global_size(0)) {
    uint c = 0;
    for (size_t r = 0; r < rows; ++r) c += partial[r * (size_t)BINS + b];
    counts[b] = c;
  }
}
