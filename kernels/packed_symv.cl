// SPDX-License-Identifier: Apache-2.0
// y = alpha * A x + beta * y for symmetric A stored packed: the lower
// triangle row by row, element (i, j), i >= j, at ap[offap + i (i + 1) / 2 + j].
//
// The triangle is cut into BLOCK x BLOCK blocks (I, J), J <= I, and each is
// read from memory exactly once: a work-group stages it in local memory
// (one padding column, so both its rows and its columns are read without
// bank conflicts) and computes both products it takes part in, the block's
// rows times x_J (for y_I) and its columns times x_I (for y_J, the
// transposed upper block the matrix never stores). Each product of BLOCK
// values goes to its own slot part[target][source][:], and packed_symv_combine adds
// a block row's slots: no atomics, and the bytes moved stay close to the
// packed matrix's own.
#include "portacl_common.cl"

#ifndef BLOCK
#define BLOCK 64
#endif

#if BARRIER_FREE
// The CPU form (the plan's barrier-free variant, rule cpu.avoid-barriers):
// work-item w of S takes a slice of whole rows holding about 1/S of the
// stored elements, and reads each row once, forward, a vector at a time:
// the row times x is y_i's sum, and each element times x_i joins column
// j's sum in the slice's own vector of n partial sums (part + w n, which
// stays in the core's caches). No two work-items write one place, nothing
// waits at a barrier; packed_symv_rows_combine adds the S vectors.

// The first row starting at or after stored element e: the smallest i
// with i (i + 1) / 2 >= e.
inline size_t row_at_element(const ulong e) {
  size_t i = (size_t)((sqrt(8.0f * (float)e + 1.0f) - 1.0f) * 0.5f);
  while (i > 0 && i * (i + 1) / 2 >= e) --i;  // float rounding either way
  while (i * (i + 1) / 2 < e) ++i;
  return i;
}

__kernel void packed_symv_rows(const ulong n, __global const T* ap, const ulong offap, __global const T* x,
                               const ulong offx, const ulong incx, __global T* part) {
  const ulong w = get_global_id(0), slices = get_global_size(0), stored = n * (n + 1) / 2;
  const size_t first = row_at_element(stored * w / slices), last = row_at_element(stored * (w + 1) / slices);
  __global T* sums = part + w * n;
  for (size_t j = 0; j < n; ++j) sums[j] = (T)0;
  for (size_t i = first; i < last; ++i) {
    __global const T* row = ap + offap + i * (i + 1) / 2;
    const T xi = x[offx + i * incx];
    T dot = (T)0;
    size_t j = 0;
    if (incx == 1) {
      __global const T* xs = x + offx;
      const VT xi_v = (VT)xi;
      VT acc = (VT)0;
      for (; j + VW <= i; j += VW) {
        const VT a = VLOAD(0, row + j);
        acc = fma(a, VLOAD(0, xs + j), acc);
        VSTORE(fma(a, xi_v, VLOAD(0, sums + j)), 0, sums + j);
      }
      dot = sum_lanes(acc);
    }
    for (; j < i; ++j) {
      const T a = row[j];
      dot = fma(a, x[offx + j * incx], dot);
      sums[j] = fma(a, xi, sums[j]);
    }
    sums[i] += fma(row[i], xi, dot);
  }
}

__kernel void packed_symv_rows_combine(const ulong n, const T alpha, const T beta, __global const T* part,
                                       const ulong slices, __global T* y, const ulong offy, const ulong incy) {
  PORTACL_FOR_UNITS(i, n) {
    T s = (T)0;
    for (size_t w = 0; w < slices; ++w) s += part[w * n + i];
    const size_t at = offy + i * incy;
    y[at] = beta == (T)0 ? alpha * s : alpha * s + beta * y[at];
  }
}

#else

// Block t of the lower block triangle, row by row: (I, J) with t = I (I + 1) / 2 + J.
inline void block_of(const size_t t, size_t* bi, size_t* bj) {
  size_t i = (size_t)((sqrt(8.0f * (float)t + 1.0f) - 1.0f) * 0.5f);
  while (i * (i + 1) / 2 > t) --i;  // float rounding either way
  while ((i + 1) * (i + 2) / 2 <= t) ++i;
  *bi = i;
  *bj = t - i * (i + 1) / 2;
}

// Work-item lid owns column lid % BLOCK of the tile (the host makes BLOCK
// divide WG_SIZE): the column products accumulate in a register while the
// block loads, and the row products are split into WG_SIZE / BLOCK
// segments, so every work-item works in both phases. A segment covers PER
// rows, rounded up: SEGMENTS need not divide BLOCK (a work-group of 96, or
// more segments than rows), and rows past BLOCK are skipped.
#define SEGMENTS (WG_SIZE / BLOCK)
#define PER ((BLOCK + SEGMENTS - 1) / SEGMENTS)
__kernel void packed_symv_blocks(const ulong n, __global const T* ap, const ulong offap, __global const T* x,
                          const ulong offx, const ulong incx, __global T* part) {
  __local T tile[BLOCK][BLOCK + 1];
  __local T xi[BLOCK], xj[BLOCK];
  __local T row_part[WG_SIZE], col_part[WG_SIZE];
  const uint lid = get_local_id(0), c = lid % BLOCK, q = lid / BLOCK;
  const size_t nb = (n + BLOCK - 1) / BLOCK, blocks = nb * (nb + 1) / 2;
  for (size_t t = get_group_id(0); t < blocks; t += get_num_groups(0)) {
    size_t bi, bj;
    block_of(t, &bi, &bj);
    const size_t i0 = bi * BLOCK, j0 = bj * BLOCK, j = j0 + c;
    // The block's loads go out first, into registers, so their latency
    // overlaps the loads of x and the barrier. (Loading the group's next
    // block during this one was slower on the H100: 66% of copy against 72%.)
    T v[PER];
#pragma unroll
    for (uint k = 0; k < PER; ++k) {
      const uint r = q + k * SEGMENTS;
      const size_t i = i0 + r;
      v[k] = r < BLOCK && i < n && j <= i ? ap[offap + i * (i + 1) / 2 + j] : (T)0;
    }
    for (uint e = lid; e < BLOCK; e += WG_SIZE) {
      xi[e] = i0 + e < n ? x[offx + (i0 + e) * incx] : (T)0;
      xj[e] = j0 + e < n ? x[offx + (j0 + e) * incx] : (T)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Column c: the transposed block times x_I, rows q, q + SEGMENTS, ...;
    // the diagonal block leaves its diagonal to the row products.
    T col = (T)0;
#pragma unroll
    for (uint k = 0; k < PER; ++k) {
      const uint r = q + k * SEGMENTS;
      if (r >= BLOCK) break;
      tile[r][c] = v[k];
      if (i0 + r != j) col = fma(v[k], xi[r], col);
    }
    col_part[lid] = col;
    barrier(CLK_LOCAL_MEM_FENCE);
    // Row r = lid % BLOCK, columns of segment q: the block times x_J.
    const uint r = c, first = min((uint)BLOCK, q * PER), last = min((uint)BLOCK, (q + 1) * PER);
    T row = (T)0;
    for (uint k = first; k < last; ++k) row = fma(tile[r][k], xj[k], row);
    row_part[lid] = row;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < BLOCK) {
      T rows = (T)0, cols = (T)0;
      for (uint s = 0; s < SEGMENTS; ++s) {
        rows += row_part[s * BLOCK + lid];
        cols += col_part[s * BLOCK + lid];
      }
      if (bi == bj) {
        // The diagonal block's upper half is its lower half transposed.
        part[(bi * nb + bi) * BLOCK + lid] = rows + cols;
      } else {
        part[(bi * nb + bj) * BLOCK + lid] = rows;  // for y_I
        part[(bj * nb + bi) * BLOCK + lid] = cols;  // for y_J
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile is reused by the next block
  }
}

__kernel void packed_symv_combine(const ulong n, const T alpha, const T beta, __global const T* part, __global T* y,
                           const ulong offy, const ulong incy) {
  const size_t nb = (n + BLOCK - 1) / BLOCK;
  PORTACL_FOR_UNITS(i, n) {
    const size_t b = i / BLOCK, r = i % BLOCK;
    __global const T* slots = part + b * nb * BLOCK + r;
    T s = (T)0;
    for (size_t o = 0; o < nb; ++o) s += slots[o * BLOCK];
    const size_t at = offy + i * incy;
    y[at] = beta == (T)0 ? alpha * s : alpha * s + beta * y[at];
  }
}
#endif
