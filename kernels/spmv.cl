// y = alpha * A x + beta * y for symmetric A stored packed: the lower
// triangle row by row, element (i, j), i >= j, at ap[offap + i (i + 1) / 2 + j].
//
// The triangle is cut into BLOCK x BLOCK blocks (I, J), J <= I, and each is
// read from memory exactly once: a work-group stages it in local memory
// (one padding column, so both its rows and its columns are read without
// bank conflicts) and computes both products it takes part in, the block's
// rows times x_J (for y_I) and its columns times x_I (for y_J, the
// transposed upper block the matrix never stores). Each product of BLOCK
// values goes to its own slot part[target][source][:], and spmv_combine adds
// a block row's slots: no atomics, and the bytes moved stay close to the
// packed matrix's own.
#include "portacl_common.cl"

#ifndef BLOCK
#define BLOCK 64
#endif

// Block t of the lower block triangle, row by row: (I, J) with t = I (I + 1) / 2 + J.
inline void block_of(const size_t t, size_t* bi, size_t* bj) {
  size_t i = (size_t)((sqrt(8.0f * (float)t + 1.0f) - 1.0f) * 0.5f);
  while (i * (i + 1) / 2 > t) --i;  // float rounding either way
  while ((i + 1) * (i + 2) / 2 <= t) ++i;
  *bi = i;
  *bj = t - i * (i + 1) / 2;
}

__kernel void spmv_blocks(const ulong n, __global const T* ap, const ulong offap, __global const T* x,
                          const ulong offx, const ulong incx, __global T* part) {
  __local T tile[BLOCK][BLOCK + 1];
  __local T xi[BLOCK], xj[BLOCK];
  const uint lid = get_local_id(0);
  const size_t nb = (n + BLOCK - 1) / BLOCK, blocks = nb * (nb + 1) / 2;
  for (size_t t = get_group_id(0); t < blocks; t += get_num_groups(0)) {
    size_t bi, bj;
    block_of(t, &bi, &bj);
    const size_t i0 = bi * BLOCK, j0 = bj * BLOCK;
    for (uint e = lid; e < BLOCK * BLOCK; e += WG_SIZE) {
      const uint r = e / BLOCK, c = e % BLOCK;
      const size_t i = i0 + r, j = j0 + c;
      tile[r][c] = i < n && j <= i ? ap[offap + i * (i + 1) / 2 + j] : (T)0;
    }
    for (uint e = lid; e < BLOCK; e += WG_SIZE) {
      xi[e] = i0 + e < n ? x[offx + (i0 + e) * incx] : (T)0;
      xj[e] = j0 + e < n ? x[offx + (j0 + e) * incx] : (T)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Rows: the block times x_J, into part[I][J].
    __global T* rows = part + (bi * nb + bj) * BLOCK;
    __global T* cols = part + (bj * nb + bi) * BLOCK;
    for (uint r = lid; r < BLOCK; r += WG_SIZE) {
      T s = (T)0;
      for (uint c = 0; c < BLOCK; ++c) s = fma(tile[r][c], xj[c], s);
      if (bi == bj) {
        // The diagonal block's upper half is its lower half transposed,
        // the diagonal itself counted once.
        for (uint c = r + 1; c < BLOCK; ++c) s = fma(tile[c][r], xi[c], s);
      }
      rows[r] = s;
    }
    if (bi != bj) {
      // Columns: the transposed block times x_I, into part[J][I].
      for (uint c = lid; c < BLOCK; c += WG_SIZE) {
        T s = (T)0;
        for (uint r = 0; r < BLOCK; ++r) s = fma(tile[r][c], xi[r], s);
        cols[c] = s;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile is reused by the next block
  }
}

__kernel void spmv_combine(const ulong n, const T alpha, const T beta, __global const T* part, __global T* y,
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
