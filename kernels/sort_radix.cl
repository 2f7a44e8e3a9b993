// SPDX-License-Identifier: Apache-2.0
// One pass of a least-significant-digit radix sort: the keys (and values)
// in `*_in` move to `*_out` ordered by the digit at SHIFT, stably. A pass
// is three launches (src/kernels/sort.cpp):
//   sort_count    counts[d * units + u] = keys of unit u with digit d;
//   (a scan)      the host's exclusive scan turns the counts, digit-major,
//                 into where each unit's keys of each digit start;
//   sort_scatter  moves every key to its place.
// A unit is a work-item's contiguous chunk (SORT_TILES 0: CPUs, private
// counters, no barriers) or a work-group's tile of WG_SIZE x ITEMS keys
// (SORT_TILES 1: GPUs). A tile is ranked in local memory, a counter per
// digit and work-item, reordered there and written out in digit order, so
// that neighbouring work-items write neighbouring addresses.
// The host defines: RADIX_BITS, KEY_KIND (0 unsigned, 1 signed, 2
// floating point), KEY_BITS and VALUE_BITS (32 or 64: the widths of a key
// and of a value, moved as bits), DESCENDING (1: the reverse order, still
// stable), HAS_VALUES, SORT_TILES and, for tiles, ITEMS and ONE_SWEEP (with PASSES):
// one sweep replaces the count, the scan and the scatter of each pass by
// one launch (see sort_onesweep below).
#include "portacl_common.cl"

#define RADIX (1u << RADIX_BITS)

#ifndef KEY_BITS
#define KEY_BITS 32
#endif
#if KEY_BITS == 64
#define KEY ulong
#define KEY_TOP 0x8000000000000000ul       // the sign bit
#define KEY_INFINITY 0x7ff0000000000000ul  // +infinity's bits: a larger magnitude is a NaN
#else
#define KEY uint
#define KEY_TOP 0x80000000u
#define KEY_INFINITY 0x7f800000u
#endif

#if VALUE_BITS == 64
#define VALUE ulong
#else
#define VALUE uint
#endif
#ifndef DESCENDING
#define DESCENDING 0
#endif

// The key's bits in an unsigned order equal to the key type's: signed by
// its sign bit flipped; floating point by IEEE order, -0 as +0 and every
// NaN last.
inline KEY ascending(KEY k) {
#if KEY_KIND == 1
  return k ^ KEY_TOP;
#elif KEY_KIND == 2
  if ((k & ~KEY_TOP) > KEY_INFINITY) return ~(KEY)0;
  if (k == KEY_TOP) return KEY_TOP;
  return (k & KEY_TOP) ? ~k : (k | KEY_TOP);
#else
  return k;
#endif
}
// Descending: that order reversed (NaNs first), equal keys still equal, so
// the passes keep them in their input order.
inline KEY ordered(KEY k) { return DESCENDING ? ~ascending(k) : ascending(k); }

inline uint digit_of(KEY key, uint shift) { return (uint)(ordered(key) >> shift) & (RADIX - 1); }

#if !SORT_TILES

// Unit u is keys [u * chunk, min(n, (u + 1) * chunk)).
__kernel void sort_count(const ulong n, const ulong chunk, const uint units, const uint shift,
                         __global const KEY* keys, __global uint* counts) {
  const size_t u = get_global_id(0);
  if (u >= units) return;
  uint c[RADIX];
  for (uint d = 0; d < RADIX; ++d) c[d] = 0;
  const size_t end = min((size_t)n, (u + 1) * (size_t)chunk);
  for (size_t i = u * (size_t)chunk; i < end; ++i) ++c[digit_of(keys[i], shift)];
  for (uint d = 0; d < RADIX; ++d) counts[d * (size_t)units + u] = c[d];
}

__kernel void sort_scatter(const ulong n, const ulong chunk, const uint units, const uint shift,
                           __global const KEY* keys_in, __global const VALUE* values_in,
                           __global const uint* starts, __global KEY* keys_out, __global VALUE* values_out) {
  const size_t u = get_global_id(0);
  if (u >= units) return;
  uint next[RADIX];
  for (uint d = 0; d < RADIX; ++d) next[d] = starts[d * (size_t)units + u];
  const size_t end = min((size_t)n, (u + 1) * (size_t)chunk);
  for (size_t i = u * (size_t)chunk; i < end; ++i) {
    const KEY k = keys_in[i];
    const uint at = next[digit_of(k, shift)]++;
    keys_out[at] = k;
#if HAS_VALUES
    values_out[at] = values_in[i];
#endif
  }
}

#else

#define S uint
#define IDENTITY 0u
#define COMBINE(a, b) ((a) + (b))
#define COMBINE_IS_ADD 1
#include "combine.cl"

#define TILE (WG_SIZE * ITEMS)
// A rank counter's place: one word of padding every 32, so that work-items
// walking their own digits (stride RADIX) spread over the banks.
#define RANK(f) ((f) + ((f) >> 5))

__kernel void sort_count(const ulong n, const ulong chunk, const uint units, const uint shift,
                         __global const KEY* keys, __global uint* counts) {
  __local uint hist[RADIX];
  const uint lid = get_local_id(0);
  const size_t g = get_group_id(0), begin = g * (size_t)TILE, end = min((size_t)n, begin + TILE);
  for (uint d = lid; d < RADIX; d += WG_SIZE) hist[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = begin + lid; i < end; i += WG_SIZE) atomic_inc(&hist[digit_of(keys[i], shift)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = lid; d < RADIX; d += WG_SIZE) counts[d * (size_t)units + g] = hist[d];
}

// The local memory a tile's ranking takes, declared by each kernel that
// ranks (OpenCL C 1.2 allows __local variables at kernel scope only).
// rank: counter (d, l) at RANK(d * WG_SIZE + l), so a digit-major scan
// gives each work-item's first place for each digit within the tile.
#if HAS_VALUES
#define TILE_VALUES_DECLARATION __local VALUE tile_values[TILE];
#else
#define TILE_VALUES_DECLARATION __local VALUE* tile_values = 0;
#endif
#define TILE_LOCALS                          \
  __local uint rank[RANK(RADIX * WG_SIZE)];  \
  __local KEY tile_keys[TILE];               \
  TILE_VALUES_DECLARATION                    \
  __local uint base[RADIX];                  \
  __local uint scratch[WG_SIZE];

// Loads the `count` keys (and values) of the tile that starts at `begin`
// into k and v, work-item lid holding keys lid * ITEMS .. lid * ITEMS +
// ITEMS - 1 (the tile's own order, which keeps the sort stable), and
// leaves in rank the exclusive digit-major scan of the counters: where
// work-item l's first key of digit d goes within the tile. Ends with a
// barrier.
inline void rank_tile(size_t begin, uint count, uint shift, __global const KEY* keys_in,
                      __global const VALUE* values_in, KEY* k, VALUE* v, __local uint* rank, __local uint* scratch) {
  const uint lid = get_local_id(0);
  for (uint d = 0; d < RADIX; ++d) rank[RANK(d * WG_SIZE + lid)] = 0;
  for (uint j = 0; j < ITEMS; ++j) {
    const uint t = lid * ITEMS + j;
    if (t < count) {
      k[j] = keys_in[begin + t];
#if HAS_VALUES
      v[j] = values_in[begin + t];
#endif
      ++rank[RANK(digit_of(k[j], shift) * WG_SIZE + lid)];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Work-item lid takes RADIX consecutive counters.
  uint mine = 0;
  for (uint d = 0; d < RADIX; ++d) mine += rank[RANK(lid * RADIX + d)];
  uint total;
  uint before = group_exclusive_scan(mine, scratch, &total);
  for (uint d = 0; d < RADIX; ++d) {
    const uint f = RANK(lid * RADIX + d), c = rank[f];
    rank[f] = before;
    before += c;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Reorders the ranked tile in local memory by digit, then writes key t of
// the reordered tile to base[its digit] + t: base holds, per digit, its
// first place in the output less its first place in the tile.
inline void write_tile(uint count, uint shift, const KEY* k, const VALUE* v, __local uint* rank,
                       __local KEY* tile_keys, __local VALUE* tile_values, __local const uint* base,
                       __global KEY* keys_out, __global VALUE* values_out) {
  const uint lid = get_local_id(0);
  for (uint j = 0; j < ITEMS; ++j) {
    if (lid * ITEMS + j < count) {
      const uint at = rank[RANK(digit_of(k[j], shift) * WG_SIZE + lid)]++;
      tile_keys[at] = k[j];
#if HAS_VALUES
      tile_values[at] = v[j];
#endif
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint t = lid; t < count; t += WG_SIZE) {
    const KEY key = tile_keys[t];
    const uint at = base[digit_of(key, shift)] + t;
    keys_out[at] = key;
#if HAS_VALUES
    values_out[at] = tile_values[t];
#endif
  }
}

__kernel void sort_scatter(const ulong n, const ulong chunk, const uint units, const uint shift,
                           __global const KEY* keys_in, __global const VALUE* values_in,
                           __global const uint* starts, __global KEY* keys_out, __global VALUE* values_out) {
  TILE_LOCALS
  const uint lid = get_local_id(0);
  const size_t g = get_group_id(0), begin = g * (size_t)TILE;
  const uint count = (uint)min((size_t)TILE, (size_t)n - begin);
  KEY k[ITEMS];
  VALUE v[ITEMS];
  rank_tile(begin, count, shift, keys_in, values_in, k, v, rank, scratch);
  for (uint d = lid; d < RADIX; d += WG_SIZE) base[d] = starts[d * (size_t)units + g] - rank[RANK(d * WG_SIZE)];
  barrier(CLK_LOCAL_MEM_FENCE);
  write_tile(count, shift, k, v, rank, tile_keys, tile_values, base, keys_out, values_out);
}

// One sweep (ONE_SWEEP 1, devices with global atomics): the digit counts
// of every pass come from one read of the keys (sort_histograms), and
// each pass is then a single launch that finds where its tile's keys of
// each digit go by decoupled look-back over the tiles before it, as the
// single-pass scan does (kernels/scan.cl), digit by digit: a pass reads
// and writes the keys once, where count + scan + scatter read them twice.
// (Adinets and Merrill, "Onesweep", 2022.)

#if ONE_SWEEP
// hist[p * RADIX + d] gains the keys whose digit d is at pass p (shift
// p * RADIX_BITS), for the PASSES passes; hist is zeroed first.
__kernel void sort_histograms(const ulong n, __global const KEY* keys, volatile __global uint* hist) {
  __local uint h[PASSES * RADIX];
  const uint lid = get_local_id(0);
  for (uint c = lid; c < PASSES * RADIX; c += WG_SIZE) h[c] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) {
    const KEY key = keys[i];
    for (uint p = 0; p < PASSES; ++p) atomic_inc(&h[p * RADIX + digit_of(key, p * RADIX_BITS)]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint c = lid; c < PASSES * RADIX; c += WG_SIZE)
    if (h[c]) atomic_add(&hist[c], h[c]);
}

// A tile's status per digit: one 64-bit word, (epoch << 2 | state) in the
// upper half and the count in the lower; words of another launch's epoch
// read as unpublished, so the array is never cleared between passes.
#define DIGIT_AGGREGATE 1u
#define DIGIT_PREFIX 2u

__kernel void sort_onesweep(const ulong n, const uint shift, const uint pass, __global const KEY* keys_in,
                            __global const VALUE* values_in, __global const uint* hist, __global KEY* keys_out,
                            __global VALUE* values_out, volatile __global ulong* status, volatile __global uint* ticket,
                            const uint epoch) {
  TILE_LOCALS
  __local uint tile_taken;
  __local uint digit_starts[RADIX];  // where each digit's keys start in the output: the smaller digits' counts
  const uint lid = get_local_id(0);
  const uint tag = epoch << 2;
  if (lid == 0) {
    const uint t = atomic_inc(ticket);
    // The last ticket frees the counter for the next pass.
    if (t == get_num_groups(0) - 1) atomic_xchg(ticket, 0);
    tile_taken = t;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const size_t tile = tile_taken, begin = tile * (size_t)TILE;
  const uint count = (uint)min((size_t)TILE, (size_t)n - begin);
  KEY k[ITEMS];
  VALUE v[ITEMS];
  rank_tile(begin, count, shift, keys_in, values_in, k, v, rank, scratch);
  if (lid == 0) {
    uint running = 0;
    for (uint e = 0; e < RADIX; ++e) {
      digit_starts[e] = running;
      running += hist[pass * RADIX + e];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // The tile's count of digit d, published at once (as its inclusive
  // prefix in tile 0); then every digit's look-back. A work-item publishes
  // all its digits before it waits on any, so a tile only ever waits for
  // words that earlier tiles publish without waiting.
  for (uint d = lid; d < RADIX; d += WG_SIZE) {
    const uint first = rank[RANK(d * WG_SIZE)];
    const uint mine = (d + 1 < RADIX ? rank[RANK((d + 1) * WG_SIZE)] : count) - first;
    status[tile * RADIX + d] = ((ulong)(tag | (tile ? DIGIT_AGGREGATE : DIGIT_PREFIX)) << 32) | mine;
  }
  for (uint d = lid; d < RADIX; d += WG_SIZE) {
    const uint first = rank[RANK(d * WG_SIZE)];
    const uint mine = (d + 1 < RADIX ? rank[RANK((d + 1) * WG_SIZE)] : count) - first;
    uint before = 0;
    for (size_t j = tile; j > 0; --j) {
      ulong word;
      do {
        word = status[(j - 1) * RADIX + d];
      } while (((uint)(word >> 32) & ~3u) != tag);
      before += (uint)word;
      if (((uint)(word >> 32) & 3u) == DIGIT_PREFIX) break;
    }
    if (tile) status[tile * RADIX + d] = ((ulong)(tag | DIGIT_PREFIX) << 32) | (before + mine);
    // Where digit d starts in the output: the keys of smaller digits, then
    // this digit's keys in earlier tiles.
    base[d] = digit_starts[d] + before - first;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  write_tile(count, shift, k, v, rank, tile_keys, tile_values, base, keys_out, values_out);
}

#endif  // ONE_SWEEP

#endif
