// SPDX-License-Identifier: Apache-2.0
// y = alpha * A x + beta * y for A in ELL, ELLPACK-R, DIA and coordinates
// (HYB is an ELL launch followed by a coordinate one). beta == 0 never
// reads y; the host handles alpha == 0 without reading A or x. The host
// defines ELL_COLUMN_MAJOR (slot k of row i at k * pitch + i, else at
// i * width + k) and ELL_R (row lengths given: padding is never read).
#include "portacl_common.cl"

#define SPARSE_STORE(i, sum) y[i] = beta == (T)0 ? alpha * (sum) : alpha * (sum) + beta * y[i]

#include "sparse_ell_layout.cl"

// One work-item per row; slots past a row's end hold column -1 (ELL) or
// are not visited (ELL-R, from row_length).
__kernel void ell_rows(const ulong rows, const uint width, const ulong pitch, __global const uint* row_length,
                       __global const uint* col, __global const T* val, __global const T* x, const T alpha,
                       const T beta, __global T* y) {
  PORTACL_FOR_UNITS(i, rows) {
    T sum = (T)0;
#if ELL_R
    const uint len = row_length[i];
    for (uint k = 0; k < len; ++k) sum = fma(val[ELL_SLOT(i, k)], x[col[ELL_SLOT(i, k)]], sum);
#else
    for (uint k = 0; k < width; ++k) {
      const uint c = col[ELL_SLOT(i, k)];
      if (c == ELL_PADDING) break;
      sum = fma(val[ELL_SLOT(i, k)], x[c], sum);
    }
#endif
    SPARSE_STORE(i, sum);
  }
}

// DIA: diagonal d holds A[i][i + offset[d]] at data[d * pitch + i] (zero
// where the diagonal leaves the matrix). Neighbouring work-items read
// neighbouring values and neighbouring elements of x.
__kernel void dia_rows(const ulong rows, const ulong cols, const uint diagonals, const ulong pitch,
                       __global const long* offset, __global const T* data, __global const T* x, const T alpha,
                       const T beta, __global T* y) {
  PORTACL_FOR_UNITS(i, rows) {
    T sum = (T)0;
    for (uint d = 0; d < diagonals; ++d) {
      const long j = (long)i + offset[d];
      if (j >= 0 && j < (long)cols) sum = fma(data[d * pitch + i], x[j], sum);
    }
    SPARSE_STORE(i, sum);
  }
}

// Coordinates sorted by row, y += alpha * A x (the caller has already
// scaled y by beta, or HYB's ELL launch has written it). Range u is the
// COO_PER entries from u * COO_PER. A work-group first stages its ranges'
// products and row numbers in local memory, neighbouring work-items
// reading neighbouring entries; then each work-item walks its own range
// there. The rows strictly inside a range are its alone: it adds them to y
// directly. Its first and last rows may be shared with neighbouring ranges:
// it leaves their partial sums in head_sum/tail_sum for coo_shared_rows (no
// atomics on floats needed).
#ifndef COO_PER
#define COO_PER 8
#endif
#define COO_STAGE (WG_SIZE * COO_PER)
__kernel void coo_ranges(const ulong entries, const ulong ranges, __global const uint* row, __global const uint* col,
                         __global const T* val, __global const T* x, const T alpha, __global T* y,
                         __global uint* first_row, __global uint* last_row, __global T* head_sum,
                         __global T* tail_sum) {
  __local T product[COO_STAGE];
  __local uint row_of[COO_STAGE];
  const uint lid = get_local_id(0);
  const size_t groups = (ranges + WG_SIZE - 1) / WG_SIZE;
  for (size_t g = get_group_id(0); g < groups; g += get_num_groups(0)) {
    const size_t base = g * COO_STAGE;
    for (uint k = lid; k < COO_STAGE; k += WG_SIZE)
      if (base + k < entries) {
        product[k] = val[base + k] * x[col[base + k]];
        row_of[k] = row[base + k];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
    const size_t u = g * WG_SIZE + lid, b = lid * COO_PER;
    if (u < ranges) {
      const size_t e = min((size_t)COO_PER, (size_t)(entries - u * COO_PER));
      const uint first = row_of[b];
      uint r = first;
      T sum = (T)0, head = (T)0;
      for (size_t k = b; k < b + e; ++k) {
        if (row_of[k] != r) {
          if (r == first)
            head = sum;
          else
            y[r] += alpha * sum;
          r = row_of[k];
          sum = (T)0;
        }
        sum += product[k];
      }
      first_row[u] = first;
      last_row[u] = r;
      head_sum[u] = r == first ? sum : head;
      tail_sum[u] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the stage is reused by the next group of ranges
  }
}

// Each shared row is added by exactly one work-item: the range where it
// starts (a head whose row the previous range did not end with, or a tail
// row that is not also the range's head), summing the heads of the ranges
// after it that continue the row.
__kernel void coo_shared_rows(const ulong ranges, __global const uint* first_row, __global const uint* last_row,
                              __global const T* head_sum, __global const T* tail_sum, const T alpha, __global T* y) {
  for (size_t u = get_global_id(0); u < ranges; u += get_global_size(0)) {
    const uint fr = first_row[u], lr = last_row[u];
    const bool owns_head = u == 0 || last_row[u - 1] != fr;
    if (!owns_head && fr == lr) continue;  // all of it continues an earlier range's row
    T sum;
    if (owns_head && fr != lr) {
      y[fr] += alpha * head_sum[u];  // the head row started and ended here
      sum = tail_sum[u];
    } else {
      sum = owns_head ? head_sum[u] : tail_sum[u];
    }
    // The row still open at the end of this range, continued by the heads
    // of the ranges after it.
    for (size_t v = u + 1; v < ranges && first_row[v] == lr; ++v) {
      sum += head_sum[v];
      if (last_row[v] != lr) break;
    }
    y[lr] += alpha * sum;
  }
}
