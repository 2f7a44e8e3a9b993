// SPDX-License-Identifier: Apache-2.0
// Prefix sums and stream compaction, in one of two ways.
// Single pass (scan_lookback, GPUs with global atomics): decoupled
// look-back. Work-groups take tiles in order from an atomic ticket, publish
// their tile's total at once, and add up their predecessors' published
// totals until they meet one that already knows its inclusive prefix. A
// work-group only ever waits for tiles taken before its own, whose
// work-groups are already running, so it cannot wait forever. The input
// comes from memory once; a tile is read a second time, small enough to
// still be in the cache (SCAN_KEEP 1 holds it in registers instead).
// Reduce-then-scan (two launches, everywhere else): each unit (a
// work-group, or a work-item in the barrier-free CPU variant) owns one
// contiguous block of `block` elements:
//   scan_totals  sums every block (reads the input once),
//   scan_blocks  scans every block again, starting from the sum of the
//                blocks before it (reads the input, writes the output).
// The host defines what is summed and written:
//   S           the running sum's type (T for scans; uint or ulong counts
//               for compaction)
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

// Loads the VW elements from `first` on (zeros from `n` on) and returns the sum
// of their values.
inline S load_vector(__global const T* x, ulong n, size_t first, T* v) {
  if (first + VW <= n) {
    VSTORE(VLOAD(first / VW, x), 0, v);
  } else {
    for (uint c = 0; c < VW; ++c) v[c] = first + c < n ? x[first + c] : (T)0;
  }
  S sum = IDENTITY;
  for (uint c = 0; c < VW; ++c)
    if (first + c < n) sum += VALUE(v[c]);
  return sum;
}

// Writes the VW elements from `first` on, the first of which has the
// exclusive prefix `before`.
inline void store_vector(__global T* y, ulong n, size_t first, const T* v, S before, uint inclusive) {
#if COMPACT
  for (uint c = 0; c < VW; ++c)
    if (first + c < n) {
      emit(y, first + c, v[c], before, inclusive);
      before += VALUE(v[c]);
    }
#else
  T out[VW];
  for (uint c = 0; c < VW; ++c) {
    out[c] = inclusive ? (T)(before + VALUE(v[c])) : (T)before;
    before += VALUE(v[c]);
  }
  if (first + VW <= n) {
    VSTORE(VLOAD(0, out), first / VW, y);
  } else {
    for (uint c = 0; c < VW; ++c)
      if (first + c < n) y[first + c] = out[c];
  }
#endif
}

#if PER_ITEM && !COMPACT && VW > 1
// The barrier-free CPU variant's plain scans work a vector at a time: the
// prefix within a vector by log2(VW) shifted adds (SIMD shuffles), so a
// work-item's chunk is scanned with whole-vector loads and stores.
#if VW == 2
#define SHIFT1(v) ((VT)((T)0, (v).s0))
#define VECTOR_SCAN(v) v += SHIFT1(v);
#define LAST_LANE(v) ((v).s1)
#elif VW == 4
#define SHIFT1(v) ((VT)((T)0, (v).s012))
#define VECTOR_SCAN(v)              \
  v += SHIFT1(v);                   \
  v += (VT)((T)0, (T)0, (v).s01);
#define LAST_LANE(v) ((v).s3)
#elif VW == 8
#define SHIFT1(v) ((VT)((T)0, (v).s0123, (v).s456))
#define VECTOR_SCAN(v)                             \
  v += SHIFT1(v);                                  \
  v += (VT)((T)0, (T)0, (v).s0123, (v).s45);       \
  v += (VT)((PORTACL_CAT(T, 4))0, (v).s0123);
#define LAST_LANE(v) ((v).s7)
#elif VW == 16
#define SHIFT1(v) ((VT)((T)0, (v).s01234567, (v).s89ab, (v).scd, (v).se))
#define VECTOR_SCAN(v)                                          \
  v += SHIFT1(v);                                               \
  v += (VT)((T)0, (T)0, (v).s01234567, (v).s89ab, (v).scd);     \
  v += (VT)((PORTACL_CAT(T, 4))0, (v).s01234567, (v).s89ab);    \
  v += (VT)((PORTACL_CAT(T, 8))0, (v).s01234567);
#define LAST_LANE(v) ((v).sf)
#endif
#define VECTOR_SCANS 1

// The sum of p[0], ..., p[count - 1] a vector at a time, then the tail:
// summed one by one, floats cannot be reassociated into vector adds.
inline T vector_sum(__global const T* p, size_t count) {
  VT lanes = (VT)0;
  size_t i = 0;
  for (; i + VW <= count; i += VW) lanes += VLOAD(0, p + i);
  T lane[VW];
  VSTORE(lanes, 0, lane);
  T sum = (T)0;
  for (uint c = 0; c < VW; ++c) sum += lane[c];
  for (; i < count; ++i) sum += p[i];
  return sum;
}
#else
#define VECTOR_SCANS 0
#endif

#if PER_ITEM
// The sum of the values of x[begin, end).
inline S chunk_total(__global const T* x, size_t begin, size_t end) {
#if VECTOR_SCANS
  return vector_sum(x + begin, end - begin);
#else
  S acc = IDENTITY;
  for (size_t i = begin; i < end; ++i) acc += VALUE(x[i]);
  return acc;
#endif
}
#endif

__kernel void scan_totals(const ulong n, const ulong block, __global const T* x, __global S* totals) {
#if PER_ITEM
  const size_t u = get_global_id(0), begin = u * block;
  if (begin >= n) return;
  totals[u] = chunk_total(x, begin, min((size_t)n, begin + (size_t)block));
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
#if PER_ITEM
// Scans x[begin, end) into y, the first element's exclusive prefix being
// `carry` and the last's inclusive one `last` (the chunk's total added);
// returns the prefix after the last element. Plain scans go a vector at a
// time (VECTOR_SCANS), compaction and the tail one by one.
inline S scan_chunk(__global const T* x, __global T* y, size_t begin, size_t end, S carry, S last, uint inclusive) {
  size_t i = begin;
#if VECTOR_SCANS
  for (; i + VW <= end; i += VW) {
    VT v = VLOAD(0, x + i);
    VECTOR_SCAN(v)
    VSTORE((inclusive ? v : SHIFT1(v)) + (VT)carry, 0, y + i);
    carry += LAST_LANE(v);
  }
#endif
#if COMPACT
  // Every element is written at the next output place and only a kept one
  // moves it on: no branch on the data (half kept no longer mispredicts a
  // branch an element), and the next kept element overwrites a dropped one.
  // `last` (the chunk's end in the output, from its total) stops the loop
  // at the last kept element, so nothing lands in the next chunk's places.
  if (carry == last) return carry;
  for (; i < end; ++i) {
    const T v = x[i];
    y[carry] = v;
    carry += VALUE(v);
    if (carry == last) break;
  }
  return carry;
#else
  for (; i < end; ++i) {
    const T v = x[i];
    emit(y, i, v, carry, inclusive);
    carry += VALUE(v);
  }
  return carry;
#endif
}
#endif

__kernel void scan_blocks(const ulong n, const ulong block, __global const T* x, __global const S* totals,
                          __global T* y, const uint inclusive, __global S* count) {
#if PER_ITEM
  const size_t u = get_global_id(0), begin = u * block;
  if (begin >= n) return;
  const size_t end = min((size_t)n, begin + (size_t)block);
  // The totals of the chunks before this one, a vector at a time: one by
  // one, every work-item's dependent chain of adds cost more than its
  // chunk at 2^20 elements.
#if VECTOR_SCANS
  S carry = vector_sum(totals, u);
#else
  S carry = IDENTITY;
  for (size_t b = 0; b < u; ++b) carry += totals[b];
#endif
  carry = scan_chunk(x, y, begin, end, carry, carry + totals[u], inclusive);
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
    S tile_total;
    const S before = carry + group_exclusive_scan(load_vector(x, end, first, e), scratch, &tile_total);
    store_vector(y, end, first, e, before, inclusive);
    carry += tile_total;
  }
  if (lid == 0 && end == n && begin < n) count[0] = carry;
#endif
}

// Tile status: one 64-bit word per tile, (epoch << 2 | state) in the upper
// half. Words tagged with another launch's epoch read as "not yet
// published", so the array is never cleared between launches. Where S has
// 32 bits (STATUS_PACKED) the value sits in the lower half and one load
// reads state and value together; wider values go to their own arrays,
// written before the status word.
#define TILE_AGGREGATE 1u
#define TILE_PREFIX 2u
#ifndef STATUS_PACKED
#define STATUS_PACKED 0
#endif
#ifndef SCAN_VECTORS
#define SCAN_VECTORS 1
#endif
#define SCAN_ITEMS (SCAN_VECTORS * VW)
#ifndef SCAN_KEEP
#define SCAN_KEEP 0
#endif
// Predecessors inspected at once, one per work-item.
#define LOOKBACK_WINDOW (WG_SIZE < 32 ? WG_SIZE : 32)

typedef union {
  S s;
  uint u;
} packed_value;

inline void publish_tile(volatile __global ulong* status, __global S* values, size_t tile, S value, uint word) {
#if STATUS_PACKED
  packed_value p;
  p.s = value;
  status[tile] = ((ulong)word << 32) | p.u;
#else
  values[tile] = value;
  publish_partial();
  status[tile] = (ulong)word << 32;
#endif
}

// Waits until tile j has published, then returns its state and value.
inline uint read_tile(volatile __global ulong* status, __global S* aggregates, __global S* prefixes, size_t j,
                      uint tag, S* value) {
  ulong word;
  do {
    word = status[j];
  } while (((uint)(word >> 32) & ~3u) != tag);
  const uint state = (uint)(word >> 32) & 3u;
#if STATUS_PACKED
  packed_value p;
  p.u = (uint)word;
  *value = p.s;
#else
  publish_partial();  // the value is read after its status
  *value = state == TILE_PREFIX ? LOAD_PARTIAL(prefixes, j) : LOAD_PARTIAL(aggregates, j);
#endif
  return state;
}

#if !PER_ITEM
// The sum of every tile before `tile`, valid in work-item 0; every
// work-item must call it. Looks back a window of predecessors at a time
// (nearest first) until one of them has its inclusive prefix; tiles before
// 0 count as prefix 0.
#if SUB_GROUPS == 2
inline uint warp_ballot(uint predicate) {
  uint mask;
  __asm__ volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
                   : "=r"(mask)
                   : "r"(predicate));
  return mask;
}

// The first warp looks back with no barriers: a ballot finds the nearest
// published prefix, a butterfly adds up the values up to it.
inline S look_back(volatile __global ulong* status, __global S* aggregates, __global S* prefixes, size_t tile,
                   uint tag, __local S* scratch, __local uint* flags) {
  const uint lid = get_local_id(0);
  S carry = IDENTITY;
  if (lid < 32) {
    for (size_t nearest = tile;; nearest -= 32) {
      uint state = TILE_PREFIX;
      S value = IDENTITY;
      if (nearest > lid) state = read_tile(status, aggregates, prefixes, nearest - 1 - lid, tag, &value);
      const uint prefixes_seen = warp_ballot(state == TILE_PREFIX);
      const uint nearest_prefix = prefixes_seen ? 31 - clz(prefixes_seen & (0u - prefixes_seen)) : 32;
      carry += warp_combine(lid <= nearest_prefix ? value : IDENTITY);
      if (prefixes_seen) break;
    }
  }
  return carry;
}
#else
// flags holds LOOKBACK_WINDOW + 1 words.
inline S look_back(volatile __global ulong* status, __global S* aggregates, __global S* prefixes, size_t tile,
                   uint tag, __local S* scratch, __local uint* flags) {
  __local uint* window_state = flags;
  __local uint* finished = flags + LOOKBACK_WINDOW;
  const uint lid = get_local_id(0);
  if (lid == 0) *finished = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  S carry = IDENTITY;
  for (size_t nearest = tile; !*finished; nearest -= LOOKBACK_WINDOW) {
    if (lid < LOOKBACK_WINDOW) {
      S value = IDENTITY;
      window_state[lid] =
          nearest > lid ? read_tile(status, aggregates, prefixes, nearest - 1 - lid, tag, &value) : TILE_PREFIX;
      scratch[lid] = value;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      uint done = 0;
      for (uint w = 0; w < LOOKBACK_WINDOW && !done; ++w) {
        carry = scratch[w] + carry;
        done = window_state[w] == TILE_PREFIX;
      }
      *finished = done;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return carry;
}
#endif

// Work-group `tile` owns SCAN_VECTORS consecutive sub-tiles of WG_SIZE * VW
// elements; in each, work-item lid holds the VW elements from lid * VW on,
// so every load and store of a work-group is contiguous (coalesced).
// SCAN_KEEP 1 holds the tile in registers between reading and writing; 0
// reads it again (from the last-level cache, mostly).
__kernel void scan_lookback(const ulong n, __global const T* x, __global T* y, const uint inclusive,
                            __global S* count, volatile __global ulong* status, __global S* aggregates,
                            __global S* prefixes, volatile __global uint* ticket, const uint epoch) {
  __local S scratch[WG_SIZE > 32 ? WG_SIZE : 32];
  __local uint tile_taken;
  __local uint look_back_flags[LOOKBACK_WINDOW + 1];
  __local S shared_carry;
  const uint lid = get_local_id(0);
  const uint tag = epoch << 2;
  if (lid == 0) {
    const uint t = atomic_inc(ticket);
    // The last ticket: every work-group has taken one, so the counter is
    // free for the next launch.
    if (t == get_num_groups(0) - 1) atomic_xchg(ticket, 0);
    tile_taken = t;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t tile = tile_taken;
  const size_t tile_begin = tile * (WG_SIZE * SCAN_ITEMS);
#define FIRST_OF(k) (tile_begin + ((k) * WG_SIZE + lid) * VW)

  // The tile's total goes out first, then the tile is scanned, then the
  // predecessors are looked at: by then most have published their prefix.
#if SCAN_KEEP
  T kept[SCAN_ITEMS];
#endif
  S sums[SCAN_VECTORS];
  S mine = IDENTITY;
  for (uint k = 0; k < SCAN_VECTORS; ++k) {
    T v[VW];
    sums[k] = load_vector(x, n, FIRST_OF(k), v);
#if SCAN_KEEP
    for (uint c = 0; c < VW; ++c) kept[k * VW + c] = v[c];
#endif
    mine += sums[k];
  }
  const S tile_total = group_combine(mine, scratch);  // valid in work-item 0
  if (lid == 0) publish_tile(status, tile ? aggregates : prefixes, tile, tile_total,
                             tag | (tile ? TILE_AGGREGATE : TILE_PREFIX));
  // sums[k] becomes the exclusive prefix of this work-item's vector in
  // sub-tile k, relative to the tile.
  S running = IDENTITY;
  for (uint k = 0; k < SCAN_VECTORS; ++k) {
    S sub_total;
    sums[k] = running + group_exclusive_scan(sums[k], scratch, &sub_total);
    running += sub_total;
  }
  // (Called by tile 0 too, which finds nothing before it: quirk
  // pocl.barrier-loop-in-branch.)
  const S before_tile = look_back(status, aggregates, prefixes, tile, tag, scratch, look_back_flags);
  if (lid == 0) {
    if (tile > 0) publish_tile(status, prefixes, tile, before_tile + tile_total, tag | TILE_PREFIX);
    shared_carry = before_tile;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const S carry = shared_carry;
  for (uint k = 0; k < SCAN_VECTORS; ++k) {
    T v[VW];
#if SCAN_KEEP
    for (uint c = 0; c < VW; ++c) v[c] = kept[k * VW + c];
#else
    load_vector(x, n, FIRST_OF(k), v);
#endif
    store_vector(y, n, FIRST_OF(k), v, carry + sums[k], inclusive);
  }
#undef FIRST_OF
  if (lid == 0 && tile == get_num_groups(0) - 1) count[0] = carry + running;
}
#endif

#if PER_ITEM
// The single pass for CPUs (scan_chunks): a work-group of one work-item
// per chunk of `chunk` elements, small enough to stay in the core's cache.
// It takes its chunk in order from the ticket, sums it (the one read from
// memory), publishes the sum, adds up its predecessors' published sums
// back to the nearest one that knows its inclusive prefix, publishes its
// own prefix, then scans the chunk again from the cache. The input is read
// from memory once, the output written once, and no work-item waits at a
// barrier: it only waits for chunks taken before its own, whose work-items
// are already running.
__kernel void scan_chunks(const ulong n, const ulong chunk, __global const T* x, __global T* y, const uint inclusive,
                          __global S* count, volatile __global ulong* status, __global S* aggregates,
                          __global S* prefixes, volatile __global uint* ticket, const uint epoch) {
  const uint tag = epoch << 2;
  const uint c = atomic_inc(ticket);
  // The last ticket: every chunk is taken, so the counter is free for the
  // next launch.
  if (c == get_num_groups(0) - 1) atomic_xchg(ticket, 0);
  const size_t begin = c * (size_t)chunk, end = min((size_t)n, begin + (size_t)chunk);
  const S total = chunk_total(x, begin, end);
  S before = IDENTITY;
  if (c == 0) {
    publish_tile(status, prefixes, 0, total, tag | TILE_PREFIX);
  } else {
    publish_tile(status, aggregates, c, total, tag | TILE_AGGREGATE);
    for (size_t j = c; j > 0; --j) {
      S value;
      const uint state = read_tile(status, aggregates, prefixes, j - 1, tag, &value);
      before = value + before;
      if (state == TILE_PREFIX) break;
    }
    publish_tile(status, prefixes, c, before + total, tag | TILE_PREFIX);
  }
  const S after = scan_chunk(x, y, begin, end, before, before + total, inclusive);
  if (end == n) count[0] = after;
}
#endif
