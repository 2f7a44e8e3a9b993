// Prefix sums and stream compaction by reduce-then-scan. Each unit (a
// work-group on GPUs, a work-item in the barrier-free CPU variant) owns one
// contiguous block of `block` elements:
//   scan_totals  sums every block (reads the input once),
//   scan_blocks  scans every block again, starting from the sum of the
//                blocks before it (reads the input, writes the output).
// The host defines what is summed and written:
//   S           the running sum's type (T for scans, ulong for compaction)
//   VALUE(v)    element value v as an S (v itself; 1 or 0 for compaction)
//   COMPACT     1: write x[i] to y[prefix] where VALUE is 1; 0: y[i] = prefix
// x and y may be the same buffer for scans: every element is read before
// it is written, by the same work-item.
#include "portacl_common.cl"

#define IDENTITY ((S)0)
#define COMBINE(a, b) ((a) + (b))
#define COMBINE_IS_ADD 1
#include "combine.cl"

#ifndef COMPACT
#define COMPACT 0
#endif

// Writes element i whose exclusive prefix is `before` and value v.
inline void emit(__global T* y, size_t i, T v, S before, uint inclusive) {
#if COMPACT
  if (VALUE(v)) y[before] = v;
#else
  y[i] = inclusive ? (T)(before + VALUE(v)) : (T)before;
#endif
}

__kernel void scan_totals(const ulong n, const ulong block, __global const T* x, __global S* totals) {
#if PER_ITEM
  const size_t u = get_global_id(0), begin = u * block;
  if (begin >= n) return;
  const size_t end = min((size_t)n, begin + (size_t)block);
  S acc = IDENTITY;
  for (size_t i = begin; i < end; ++i) acc += VALUE(x[i]);
  totals[u] = acc;
#else
  __local S scratch[WG_SIZE];
  const size_t g = get_group_id(0), begin = g * block, end = min((size_t)n, begin + (size_t)block);
  S acc = IDENTITY;
  // Blocks start at multiples of WG_SIZE * VW: whole vectors, then the tail.
  for (size_t v = begin / VW + get_local_id(0); v < end / VW; v += WG_SIZE) {
    T e[VW];
    VSTORE(VLOAD(v, x), 0, e);
    for (uint k = 0; k < VW; ++k) acc += VALUE(e[k]);
  }
  for (size_t i = max(begin, (end / VW) * VW) + get_local_id(0); i < end; i += WG_SIZE) acc += VALUE(x[i]);
  acc = group_combine(acc, scratch);
  if (get_local_id(0) == 0) totals[g] = acc;
#endif
}

// `count` receives the sum over everything (the number kept, for compaction).
__kernel void scan_blocks(const ulong n, const ulong block, __global const T* x, __global const S* totals,
                          __global T* y, const uint inclusive, __global S* count) {
#if PER_ITEM
  const size_t u = get_global_id(0), begin = u * block;
  if (begin >= n) return;
  const size_t end = min((size_t)n, begin + (size_t)block);
  S carry = IDENTITY;
  for (size_t b = 0; b < u; ++b) carry += totals[b];
  for (size_t i = begin; i < end; ++i) {
    const T v = x[i];
    emit(y, i, v, carry, inclusive);
    carry += VALUE(v);
  }
  if (end == n) count[0] = carry;
#else
  __local S scratch[WG_SIZE];
  __local S shared_carry;
  const size_t g = get_group_id(0), lid = get_local_id(0);
  const size_t begin = g * block, end = min((size_t)n, begin + (size_t)block);
  // The sum of every block before this one.
  S carry = IDENTITY;
  for (size_t b = lid; b < g; b += WG_SIZE) carry += totals[b];
  carry = group_combine(carry, scratch);
  if (lid == 0) shared_carry = carry;
  barrier(CLK_LOCAL_MEM_FENCE);
  carry = shared_carry;

  // Tiles of WG_SIZE * VW elements; work-item lid takes VW consecutive ones.
  for (size_t tile = begin; tile < end; tile += WG_SIZE * VW) {
    const size_t first = tile + lid * VW;
    T e[VW];
    if (first + VW <= end) {
      VSTORE(VLOAD(first / VW, x), 0, e);
    } else {
      for (uint k = 0; k < VW; ++k) e[k] = first + k < end ? x[first + k] : (T)0;
    }
    S mine = IDENTITY;
    for (uint k = 0; k < VW; ++k)
      if (first + k < end) mine += VALUE(e[k]);
    S tile_total;
    S before = carry + group_exclusive_scan(mine, scratch, &tile_total);
#if COMPACT
    for (uint k = 0; k < VW; ++k)
      if (first + k < end) {
        emit(y, first + k, e[k], before, inclusive);
        before += VALUE(e[k]);
      }
#else
    T out[VW];
    for (uint k = 0; k < VW; ++k) {
      out[k] = inclusive ? (T)(before + VALUE(e[k])) : (T)before;
      before += VALUE(e[k]);
    }
    if (first + VW <= end) {
      VSTORE(VLOAD(0, out), first / VW, y);
    } else {
      for (uint k = 0; k < VW; ++k)
        if (first + k < end) y[first + k] = out[k];
    }
#endif
    carry += tile_total;
  }
  if (lid == 0 && end == n && begin < n) count[0] = carry;
#endif
}
