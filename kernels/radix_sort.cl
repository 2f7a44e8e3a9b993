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
// The host defines: RADIX_BITS, KEY_KIND (0 uint, 1 int, 2 float),
// HAS_VALUES, SORT_TILES and, for tiles, ITEMS.
#include "portacl_common.cl"

#define RADIX (1u << RADIX_BITS)

// The key's bits in an unsigned order equal to the key type's: int by its
// sign bit flipped; float by IEEE order, -0 as +0 and every NaN last.
inline uint ordered(uint k) {
#if KEY_KIND == 1
  return k ^ 0x80000000u;
#elif KEY_KIND == 2
  if ((k & 0x7fffffffu) > 0x7f800000u) return 0xffffffffu;
  if (k == 0x80000000u) return 0x80000000u;
  return (k & 0x80000000u) ? ~k : (k | 0x80000000u);
#else
  return k;
#endif
}

inline uint digit_of(uint key, uint shift) { return (ordered(key) >> shift) & (RADIX - 1); }

#if !SORT_TILES

// Unit u is keys [u * chunk, min(n, (u + 1) * chunk)).
__kernel void sort_count(const ulong n, const ulong chunk, const uint units, const uint shift,
                         __global const uint* keys, __global uint* counts) {
  const size_t u = get_global_id(0);
  if (u >= units) return;
  uint c[RADIX];
  for (uint d = 0; d < RADIX; ++d) c[d] = 0;
  const size_t end = min((size_t)n, (u + 1) * (size_t)chunk);
  for (size_t i = u * (size_t)chunk; i < end; ++i) ++c[digit_of(keys[i], shift)];
  for (uint d = 0; d < RADIX; ++d) counts[d * (size_t)units + u] = c[d];
}

__kernel void sort_scatter(const ulong n, const ulong chunk, const uint units, const uint shift,
                           __global const uint* keys_in, __global const uint* values_in,
                           __global const uint* starts, __global uint* keys_out, __global uint* values_out) {
  const size_t u = get_global_id(0);
  if (u >= units) return;
  uint next[RADIX];
  for (uint d = 0; d < RADIX; ++d) next[d] = starts[d * (size_t)units + u];
  const size_t end = min((size_t)n, (u + 1) * (size_t)chunk);
  for (size_t i = u * (size_t)chunk; i < end; ++i) {
    const uint k = keys_in[i];
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
                         __global const uint* keys, __global uint* counts) {
  __local uint hist[RADIX];
  const uint lid = get_local_id(0);
  const size_t g = get_group_id(0), begin = g * (size_t)TILE, end = min((size_t)n, begin + TILE);
  for (uint d = lid; d < RADIX; d += WG_SIZE) hist[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t i = begin + lid; i < end; i += WG_SIZE) atomic_inc(&hist[digit_of(keys[i], shift)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = lid; d < RADIX; d += WG_SIZE) counts[d * (size_t)units + g] = hist[d];
}

__kernel void sort_scatter(const ulong n, const ulong chunk, const uint units, const uint shift,
                           __global const uint* keys_in, __global const uint* values_in,
                           __global const uint* starts, __global uint* keys_out, __global uint* values_out) {
  // rank: counter (d, l) at RANK(d * WG_SIZE + l), so a digit-major scan
  // gives each work-item's first place for each digit within the tile.
  __local uint rank[RANK(RADIX * WG_SIZE)];
  __local uint tile_keys[TILE];
#if HAS_VALUES
  __local uint tile_values[TILE];
#endif
  __local uint base[RADIX];
  __local uint scratch[WG_SIZE];
  const uint lid = get_local_id(0);
  const size_t g = get_group_id(0), begin = g * (size_t)TILE;
  const uint count = (uint)min((size_t)TILE, (size_t)n - begin);

  for (uint d = 0; d < RADIX; ++d) rank[RANK(d * WG_SIZE + lid)] = 0;
  // Work-item lid holds keys lid * ITEMS .. lid * ITEMS + ITEMS - 1 of the
  // tile: in (lid, item) order, the tile's own order, which keeps it stable.
  uint k[ITEMS];
#if HAS_VALUES
  uint v[ITEMS];
#endif
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

  // Exclusive scan of the counters in digit-major order: work-item lid
  // takes RADIX consecutive counters.
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
  // Where digit d starts within the tile, and so where key t of the
  // reordered tile goes: its digit's start in the output plus its distance
  // from the digit's start in the tile.
  for (uint d = lid; d < RADIX; d += WG_SIZE) base[d] = starts[d * (size_t)units + g] - rank[RANK(d * WG_SIZE)];
  barrier(CLK_LOCAL_MEM_FENCE);

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
    const uint key = tile_keys[t];
    const uint at = base[digit_of(key, shift)] + t;
    keys_out[at] = key;
#if HAS_VALUES
    values_out[at] = tile_values[t];
#endif
  }
}

#endif
