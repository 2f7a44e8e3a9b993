// SPDX-License-Identifier: Apache-2.0
// Conversions from compressed sparse rows to the other formats, on the
// device. Every kernel takes a row per work-item and writes only that
// row's slots, so the output is the same whatever the launch shape. The
// host defines ROW_T (uint or ulong row pointers) and, for ELL,
// ELL_COLUMN_MAJOR as in sparse_formats.cl.
#include "portacl_common.cl"
#include "sparse_ell_layout.cl"

// Coordinates: the row number of every entry (columns and values are the
// CSR arrays as they are).
__kernel void csr_row_numbers(const ulong rows, __global const ROW_T* row_ptr, __global uint* row) {
  PORTACL_FOR_UNITS(i, rows) {
    const ROW_T end = row_ptr[i + 1];
    for (ROW_T k = row_ptr[i]; k < end; ++k) row[k] = (uint)i;
  }
}

// ELL of `width` slots per row (padding: column -1, value 0), with each
// row's length when row_length is given (ELL-R). A row longer than width
// (HYB) sends its rest to the coordinate arrays from overflow_at[i].
__kernel void csr_to_ell(const ulong rows, const uint width, const ulong pitch, __global const ROW_T* row_ptr,
                         __global const uint* col, __global const T* val, __global uint* ell_col,
                         __global T* ell_val, __global uint* row_length, __global const ulong* overflow_at,
                         __global uint* coo_row, __global uint* coo_col, __global T* coo_val) {
  PORTACL_FOR_UNITS(i, rows) {
    const ROW_T start = row_ptr[i], len = row_ptr[i + 1] - start;
    const uint kept = len < width ? (uint)len : width;
    for (uint k = 0; k < width; ++k) {
      ell_col[ELL_SLOT(i, k)] = k < kept ? col[start + k] : ELL_PADDING;
      ell_val[ELL_SLOT(i, k)] = k < kept ? val[start + k] : (T)0;
    }
    if (row_length) row_length[i] = kept;
    if (len > kept) {
      const size_t at = overflow_at[i];
      for (ROW_T k = kept; k < len; ++k) {
        coo_row[at + k - kept] = (uint)i;
        coo_col[at + k - kept] = col[start + k];
        coo_val[at + k - kept] = val[start + k];
      }
    }
  }
}

// DIA, step 1: mark the occupied diagonals (column - row + rows - 1). Every
// writer stores the same 1, so concurrent stores agree.
__kernel void csr_mark_diagonals(const ulong rows, __global const ROW_T* row_ptr, __global const uint* col,
                                 __global uint* occupied) {
  PORTACL_FOR_UNITS(i, rows) {
    const ROW_T end = row_ptr[i + 1];
    for (ROW_T k = row_ptr[i]; k < end; ++k) occupied[col[k] + rows - 1 - i] = 1u;
  }
}

// DIA, step 2: with diagonal_of[] mapping (column - row + rows - 1) to the
// diagonal's slot, every entry goes to data[slot * pitch + row] (the data
// was zero-filled).
__kernel void csr_to_dia(const ulong rows, const ulong pitch, __global const ROW_T* row_ptr,
                         __global const uint* col, __global const T* val, __global const uint* diagonal_of,
                         __global T* data) {
  PORTACL_FOR_UNITS(i, rows) {
    const ROW_T end = row_ptr[i + 1];
    for (ROW_T k = row_ptr[i]; k < end; ++k) data[diagonal_of[col[k] + rows - 1 - i] * pitch + i] = val[k];
  }
}

// Jacobi's preconditioner: 1 / A[i][i] per row; a row without a non-zero
// diagonal entry gets 0, and the first such row (plus one) goes to
// bad_row[0] (which the host set to 0xffffffff).
__kernel void csr_inverse_diagonal(const ulong rows, __global const ROW_T* row_ptr, __global const uint* col,
                                   __global const T* val, __global T* inv, __global uint* bad_row) {
  PORTACL_FOR_UNITS(i, rows) {
    T d = (T)0;
    const ROW_T end = row_ptr[i + 1];
    for (ROW_T k = row_ptr[i]; k < end; ++k)
      if (col[k] == i) d = val[k];
    inv[i] = d != (T)0 ? (T)1 / d : (T)0;
    if (!(d != (T)0)) atomic_min(bad_row, (uint)i);
  }
}
